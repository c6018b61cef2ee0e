"""The round lifecycle of an event, in one place: open a round's tables, start the event, move to
the next round, finish.

Set-up (:mod:`.setup`), the sheets (:mod:`.tables`) and the import (:mod:`.results`) all call
these; this module calls none of them, so there is no import cycle between the services.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.recreo.formats import format_for
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer, TableMatch
from amigos.web.events.selectors import missing_tables
from amigos.web.events.services import EventError
from amigos.web.events.services.live import changed


def open_round(event: Event, number: int) -> None:
    """Create the round's tables. In Todos con Todos each table starts with its scorekeeper-profile
    holder (the schedule seats one at every table); the table may still choose someone else."""
    fmt = format_for(event.player_count)
    rnd = fmt.round(number)
    assert rnd is not None
    seats = {p.number: p for p in event.players.all()}
    for table in rnd.tables:
        holders = [n for n in fmt.scorekeepers if n in table.players]
        keeper = seats.get(holders[0]) if holders else None
        TableMatch.objects.get_or_create(
            event=event, round=number, table=table.table, defaults={"scorekeeper": keeper}
        )


def locked(event: Event) -> Event:
    """The event's row, locked until the transaction ends: two organizer taps (or two tabs) that
    change the round are applied one after the other, the second seeing the first."""
    return Event.objects.select_for_update().get(pk=event.pk)


def start_event(event: Event, by: User) -> None:
    if by.pk != event.organizer_id:
        raise EventError(_("Only the organizer can start the event."))
    with transaction.atomic():
        current = locked(event)
        if current.status != Event.Status.DRAFT:
            raise EventError(_("The event has already started."))
        if current.players.count() != current.player_count:
            raise EventError(_("Fill in every player before starting."))
        current.status = Event.Status.RUNNING
        current.started_at = timezone.now()
        current.current_round = max(current.current_round, 1)
        current.save(update_fields=["status", "started_at", "current_round"])
        open_round(current, current.current_round)
        changed(current)
    event.refresh_from_db()


def finish_event(event: Event) -> None:
    """Free every player for another event; the results stay. Call inside a transaction."""
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    EventPlayer.objects.filter(event=event).update(active_email=None)
    changed(event)


def start_next_round(user: User, event: Event) -> None:
    if user.pk != event.organizer_id:
        raise EventError(_("Only the organizer can start the next round."))
    with transaction.atomic():
        current = locked(event)
        if current.status != Event.Status.RUNNING:
            raise EventError(_("The event is not under way."))
        if missing_tables(current):
            raise EventError(_("Every table of this round must be closed first."))
        if current.current_round >= len(format_for(current.player_count).rounds):
            finish_event(current)
        else:
            current.current_round += 1
            current.save(update_fields=["current_round"])
            open_round(current, current.current_round)
            changed(current)
    event.refresh_from_db()


def end_event_now(user: User, event: Event) -> None:
    """The organizer ends an event before its last round (an imported event they will not finish,
    an evening cut short): the results so far stay and every player is free for another event."""
    if user.pk != event.organizer_id:
        raise EventError(_("Only the organizer can end the event."))
    with transaction.atomic():
        current = locked(event)
        if current.status != Event.Status.RUNNING:
            raise EventError(_("The event is not under way."))
        finish_event(current)
    event.refresh_from_db()
