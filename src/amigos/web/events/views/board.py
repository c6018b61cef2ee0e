"""The event board (rounds, tables, standings) and the live-refresh endpoint phones poll."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from amigos.recreo.formats import format_for
from amigos.web.events.forms import PenaltyForm
from amigos.web.events.models import Event, EventPlayer, TableMatch
from amigos.web.events.services.results import standings
from amigos.web.events.services.tables import missing_tables
from amigos.web.events.views.access import current_user, visible_event
from amigos.web.events.views.organizer import penalty_choices


@dataclass(frozen=True)
class TableView:
    match: TableMatch | None
    table: int
    pair_a: list[EventPlayer]
    pair_b: list[EventPlayer]
    mine: bool


def round_tables(
    event: Event, number: int, seat: EventPlayer | None
) -> tuple[list[TableView], list[EventPlayer]]:
    """The tables of a round with their players' names, and who rests."""
    rnd = format_for(event.player_count).round(number)
    if rnd is None:
        return [], []
    by_number = {p.number: p for p in event.players.all()}
    matches = {m.table: m for m in event.matches.filter(round=number).select_related("scorekeeper")}
    views = [
        TableView(
            match=matches.get(t.table),
            table=t.table,
            pair_a=[by_number[n] for n in t.pair_a if n in by_number],
            pair_b=[by_number[n] for n in t.pair_b if n in by_number],
            mine=seat is not None and seat.number in t.players,
        )
        for t in rnd.tables
    ]
    return views, [by_number[n] for n in rnd.resting if n in by_number]


@login_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    event, seat = visible_event(request, pk)
    is_organizer = current_user(request).pk == event.organizer_id
    tables, resting = round_tables(event, event.current_round, seat) if event.current_round else ([], [])
    rounds = len(format_for(event.player_count).rounds)
    next_tables: list[TableView] = []
    next_resting: list[EventPlayer] = []
    if event.status == Event.Status.RUNNING and event.current_round < rounds:
        next_tables, next_resting = round_tables(event, event.current_round + 1, seat)
    context = {
        "event": event,
        "poll_event": event,
        "seat": seat,
        "is_organizer": is_organizer,
        "tables": tables,
        "resting": resting,
        "rounds": rounds,
        "missing": missing_tables(event) if event.status == Event.Status.RUNNING else [],
        "standings": standings(event),
        "is_last_round": event.current_round >= rounds,
        "penalty_form": PenaltyForm(penalty_choices(event), initial={"round": event.current_round}),
        "next_tables": next_tables,
        "next_resting": next_resting,
    }
    return render(request, "events/detail.html", context)


@login_required
def state(request: HttpRequest, pk: int) -> HttpResponse:
    """A tiny answer for polling phones: they reload when the version changes."""
    event, _seat = visible_event(request, pk)
    return JsonResponse({"version": event.version, "round": event.current_round, "status": event.status})


@login_required
def paper_sheets(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Blank score sheets of a round, for tables whose players have no phone: print, fill, and the
    organizer enters the result later."""
    event, seat = visible_event(request, pk)
    tables, resting = round_tables(event, round_number, seat)
    if not tables:
        raise Http404
    context = {
        "event": event,
        "round": round_number,
        "tables": tables,
        "resting": resting,
        "rows": range(1, 16),
    }
    return render(request, "events/paper.html", context)
