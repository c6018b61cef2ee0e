"""Standings, the final report, and the event file (export and import).

The stored event is turned into the event-file form and handed to :mod:`amigos.recreo`, so the site
and ``amigos recreo standings`` can never disagree: an exported file gives the same table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.recreo import export
from amigos.recreo.event import (
    MAX_PENALTY,
    EventFile,
    EventFileError,
    TableResult,
    event_to_dict,
    parse_event,
)
from amigos.recreo.event import Penalty as RecreoPenalty
from amigos.recreo.formats import format_for
from amigos.recreo.scoring import MatchEnd
from amigos.recreo.standings import Standings, compute_standings
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
from amigos.web.events.refusals import explain
from amigos.web.events.selectors import target_of
from amigos.web.events.services import EventError
from amigos.web.events.services.live import changed
from amigos.web.events.services.setup import active_event_for


def event_record(event: Event, after_round: int | None = None) -> EventFile:
    """The stored event as the Recreo core reads an event file: every closed match is a result.

    ``after_round`` leaves out the results and castigos of later rounds (the standings as they
    stood then). The stored facts were checked by the core when they were written, under a lock.
    """
    results = tuple(
        TableResult(
            round=match.round,
            table=match.table,
            score=(match.score_a, match.score_b),
            end=MatchEnd(match.end or MatchEnd.TARGET.value),
            offender=match.offender or None,
        )
        for match in event.matches.filter(state=TableMatch.State.CLOSED).order_by("round", "table")
        if after_round is None or match.round <= after_round
    )
    penalties = tuple(
        RecreoPenalty(round=p.round, player=p.player.number, points=p.points)
        for p in event.penalties.select_related("player").order_by("round", "created_at")
        if after_round is None or p.round <= after_round
    )
    return EventFile(
        name=event.name,
        origin=event.origin,
        date=event.date.isoformat(),
        players=tuple(event.players.order_by("number").values_list("name", flat=True)),
        target=target_of(event),
        stake=event.stake,
        extra_payment=event.extra_payment,
        results=results,
        penalties=penalties,
    )


def standings(event: Event, after_round: int | None = None) -> Standings:
    """The standings now, or as they stood once ``after_round`` was complete."""
    if event.players.count() != event.player_count:
        return Standings(0, ())
    return compute_standings(event_record(event, after_round))


def standings_csv(event: Event) -> str:
    return export.standings_csv(row.as_dict() for row in standings(event).rows)


def export_json(event: Event) -> str:
    return json.dumps(event_to_dict(event_record(event)), ensure_ascii=False, indent=2) + "\n"


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
    if not 1 <= points <= MAX_PENALTY:
        raise EventError(_("A castigo is from 1 to %(highest)s points.") % {"highest": MAX_PENALTY})
    player = EventPlayer.objects.filter(event=event, number=number).first()
    if player is None:
        raise EventError(_("Choose a player of this event."))
    with transaction.atomic():
        Penalty.objects.create(event=event, round=round_number, player=player, points=points, reason=reason)
        changed(event)


def import_event(user: User, text: str) -> Event:
    """Create an event from a file; the importer becomes its organizer (player 1's seat).

    A finished file is stored finished. A partly played one waits as a draft, with its results, so
    the organizer can look at it before starting it, or discard it (it then frees them at once).
    """
    try:
        parsed = parse_event(text)
    except EventFileError as exc:
        raise EventError(_("The file was refused: %(reason)s") % {"reason": explain(exc)}) from None
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
    target = event_to_dict(parsed)["target"]
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
                status=Event.Status.FINISHED if finished else Event.Status.DRAFT,
                current_round=len(fmt.rounds) if finished else complete + 1,
                started_at=timezone.now() if finished else None,
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
    except IntegrityError:
        raise EventError(_("You are already registered in an active event.")) from None
    return event
