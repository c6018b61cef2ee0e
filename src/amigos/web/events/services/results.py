"""Standings, the final report, and the event file (export and import).

The stored event is turned into the event-file form and handed to :mod:`amigos.recreo`, so the site
and ``amigos recreo standings`` can never disagree: an exported file gives the same table.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.recreo.event import EventFileError, event_from_dict, event_to_dict, parse_event
from amigos.recreo.formats import format_for
from amigos.recreo.standings import ROW_KEYS, Standings, compute_standings
from amigos.web.accounts.models import User
from amigos.web.events.models import (
    EVENT_NAME_MAX_LENGTH,
    ORIGIN_MAX_LENGTH,
    PLAYER_NAME_MAX_LENGTH,
    Event,
    EventPlayer,
    Penalty,
    TableMatch,
)
from amigos.web.events.services import EventError
from amigos.web.events.services.setup import active_event_for


def event_file(event: Event) -> dict[str, Any]:
    """The event in the ``amigos-event/1`` form, with every closed match as a result."""
    players = list(event.players.order_by("number").values_list("name", flat=True))
    results = []
    for match in event.matches.filter(state=TableMatch.State.CLOSED).order_by("round", "table"):
        item: dict[str, Any] = {
            "round": match.round,
            "table": match.table,
            "score": [match.score_a, match.score_b],
        }
        if match.end and match.end != "target":
            item["end"] = match.end
        if match.end == "default":
            item["offender"] = match.offender
        results.append(item)
    stake = event.stake
    return {
        "format": "amigos-event/1",
        "name": event.name,
        "origin": event.origin,
        "date": event.date.isoformat(),
        "players": players,
        "target": event.target if event.target == "hands" else int(event.target),
        "stake": int(stake) if stake == stake.to_integral_value() else float(stake),
        "extra_payment": event.extra_payment,
        "results": results,
        "penalties": [
            {"round": p.round, "player": p.player.number, "points": p.points}
            for p in event.penalties.select_related("player").order_by("round", "created_at")
        ],
    }


def standings(event: Event, after_round: int | None = None) -> Standings:
    """The standings now, or as they stood once ``after_round`` was complete (results and castigos
    of later rounds left out)."""
    if event.players.count() != event.player_count:
        return Standings(0, ())
    data = event_file(event)
    if after_round is not None:
        data["results"] = [r for r in data["results"] if r["round"] <= after_round]
        data["penalties"] = [p for p in data["penalties"] if p["round"] <= after_round]
    return compute_standings(event_from_dict(data))


def standings_csv(event: Event) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(ROW_KEYS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(row.as_dict() for row in standings(event).rows)
    return out.getvalue()


def export_json(event: Event) -> str:
    return json.dumps(event_file(event), ensure_ascii=False, indent=2) + "\n"


@dataclass(frozen=True)
class Report:
    standings: Standings
    winner_name: str
    money_total: Decimal
    complete: bool


def final_report(event: Event) -> Report:
    table = standings(event)
    rounds = len(format_for(event.player_count).rounds)
    return Report(
        standings=table,
        winner_name=table.rows[0].name if table.rows else "",
        money_total=sum((r.money for r in table.rows), Decimal(0)),
        complete=table.rounds_complete == rounds,
    )


def add_penalty(user: User, event: Event, number: int, round_number: int, points: int, reason: str) -> None:
    if user.pk != event.organizer_id:
        raise EventError(_("Only the organizer can apply castigos."))
    if event.target == "hands":
        raise EventError(_("Castigos do not apply under the hands-won target."))
    if event.status != Event.Status.RUNNING:
        raise EventError(_("The event is not under way."))
    if not 1 <= round_number <= event.current_round:
        raise EventError(_("That round has not been played."))
    if points <= 0:
        raise EventError(_("A castigo is a positive number of points."))
    player = EventPlayer.objects.get(event=event, number=number)
    Penalty.objects.create(event=event, round=round_number, player=player, points=points, reason=reason)
    event.touch()


def import_event(user: User, text: str) -> Event:
    """Create an event from a file; the importer becomes its organizer (player 1's seat)."""
    try:
        parsed = parse_event(text)
    except EventFileError as exc:
        raise EventError(_("The file was refused: %(reason)s") % {"reason": str(exc)}) from None
    too_long = [n for n in parsed.players if len(n) > PLAYER_NAME_MAX_LENGTH]
    if len(parsed.name) > EVENT_NAME_MAX_LENGTH or len(parsed.origin) > ORIGIN_MAX_LENGTH or too_long:
        raise EventError(_("The file was refused: a name is longer than the site keeps."))
    fmt = parsed.format
    complete = sum(1 for rnd in fmt.rounds if all(
        any(r.round == rnd.number and r.table == t.table for r in parsed.results) for t in rnd.tables
    ))  # fmt: skip
    finished = complete == len(fmt.rounds)
    if not finished and active_event_for(user) is not None:
        raise EventError(_("You are already registered in an active event."))
    raw = event_to_dict(parsed)
    target = raw["target"]
    try:
        with transaction.atomic():
            event = Event.objects.create(
                organizer=user,
                name=parsed.name or _("Imported event"),
                origin=parsed.origin,
                date=parsed.date or timezone.localdate(),
                player_count=len(parsed.players),
                target=str(target),
                stake=parsed.stake,
                extra_payment=parsed.extra_payment,
                status=Event.Status.FINISHED if finished else Event.Status.RUNNING,
                current_round=len(fmt.rounds) if finished else complete + 1,
                started_at=timezone.now(),
                finished_at=timezone.now() if finished else None,
            )
            seats = {}
            for number, name in enumerate(parsed.players, start=1):
                seats[number] = EventPlayer.objects.create(
                    event=event,
                    number=number,
                    name=name,
                    email=user.email if number == 1 else "",
                    user=user if number == 1 else None,
                    active_email=user.email.lower() if number == 1 and not finished else None,
                )
            for result in parsed.results:
                TableMatch.objects.create(
                    event=event,
                    round=result.round,
                    table=result.table,
                    score_a=result.score[0],
                    score_b=result.score[1],
                    end=result.end.value,
                    offender=result.offender or "",
                    state=TableMatch.State.CLOSED,
                    closed_at=timezone.now(),
                )
            for penalty in parsed.penalties:
                Penalty.objects.create(
                    event=event, round=penalty.round, player=seats[penalty.player], points=penalty.points
                )
            if not finished:
                from amigos.web.events.services.tables import open_round

                open_round(event, event.current_round)
    except IntegrityError:
        raise EventError(_("You are already registered in an active event.")) from None
    return event
