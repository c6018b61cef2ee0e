"""The event board (rounds, tables, standings) and the blank paper sheets of a round."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from amigos.web.events.forms import PenaltyForm
from amigos.web.events.models import Event
from amigos.web.events.selectors import missing_tables, penalty_choices, round_tables, rounds_of
from amigos.web.events.services.results import event_record, standings
from amigos.web.events.services.setup import invitation_for
from amigos.web.events.views.access import current_user, visible_event


@login_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    event, seat = visible_event(request, pk)
    is_organizer = current_user(request).pk == event.organizer_id
    invitation = None if seat is not None or is_organizer else invitation_for(event, current_user(request))
    rounds = rounds_of(event)
    running = event.status == Event.Status.RUNNING
    tables, resting = round_tables(event, event.current_round, seat) if running else ([], [])
    next_tables, next_resting = (
        round_tables(event, event.current_round + 1, seat)
        if running and event.current_round < rounds
        else ([], [])
    )
    imported = event.status == Event.Status.DRAFT and event.current_round > 0
    context = {
        "event": event,
        "live_event": event,
        "seat": seat,
        "invitation": invitation,
        "is_organizer": is_organizer,
        "tables": tables,
        "resting": resting,
        "rounds": rounds,
        "missing": missing_tables(event) if running else [],
        "standings": standings(event),
        "is_last_round": event.current_round >= rounds,
        "penalty_form": PenaltyForm(penalty_choices(event), initial={"round": event.current_round}),
        "next_tables": next_tables,
        "next_resting": next_resting,
        "imported": imported,
        "imported_results": event_record(event).results if imported else (),
    }
    return render(request, "events/detail.html", context)


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
