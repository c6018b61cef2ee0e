"""Creating an event, naming its players, starting it; one active event per person."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.recreo.formats import format_for
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer
from amigos.web.events.services import EventError


def active_event_for(user: User) -> Event | None:
    """The event this person is registered in and that has not finished, if any."""
    seat = (
        EventPlayer.objects.filter(
            Q(active_email=user.email.lower()) | Q(user=user, event__status__in=["draft", "running"])
        )
        .select_related("event")
        .first()
    )
    return seat.event if seat else None


@dataclass(frozen=True)
class EventSetup:
    name: str
    origin: str
    date: dt.date
    player_count: int
    target: str
    time_limit_minutes: int | None
    stake: Decimal
    extra_payment: bool


def create_event(organizer: User, setup: EventSetup) -> Event:
    """A draft event with the organizer as player 1; refused if they are in another active event."""
    format_for(setup.player_count)  # a KeyError here is a programming error: the form offers only these
    if active_event_for(organizer) is not None:
        raise EventError(_("You are already registered in an active event."))
    rondas = setup.player_count <= 7
    try:
        with transaction.atomic():
            event = Event.objects.create(
                organizer=organizer,
                name=setup.name,
                origin=setup.origin,
                date=setup.date,
                player_count=setup.player_count,
                target=setup.target,
                time_limit_minutes=setup.time_limit_minutes,
                stake=setup.stake if rondas else Decimal(0),
                extra_payment=setup.extra_payment if rondas else False,
            )
            EventPlayer.objects.create(
                event=event,
                number=1,
                name=organizer.display_name,
                email=organizer.email,
                user=organizer,
                active_email=organizer.email.lower(),
            )
    except IntegrityError:
        raise EventError(_("You are already registered in an active event.")) from None
    return event


def set_players(event: Event, entries: list[tuple[str, str]]) -> None:
    """Names and e-mails of players 2..N; a person with an account is linked by e-mail."""
    if event.status != Event.Status.DRAFT:
        raise EventError(_("Players can only be changed before the event starts."))
    if len(entries) != event.player_count - 1:
        raise EventError(_("Every player needs a name."))
    organizer_email = event.organizer.email.lower()
    seen = {organizer_email}
    for name, email in entries:
        if not name.strip():
            raise EventError(_("Every player needs a name."))
        lowered = email.strip().lower()
        if lowered and lowered in seen:
            raise EventError(_("The e-mail address %(email)s appears twice.") % {"email": email})
        if lowered:
            seen.add(lowered)
    try:
        with transaction.atomic():
            EventPlayer.objects.filter(event=event, number__gt=1).delete()
            for number, (name, email) in enumerate(entries, start=2):
                lowered = email.strip().lower()
                user = User.objects.filter(email__iexact=lowered).first() if lowered else None
                EventPlayer.objects.create(
                    event=event,
                    number=number,
                    name=name.strip(),
                    email=email.strip(),
                    user=user,
                    active_email=lowered or None,
                )
    except IntegrityError:
        raise EventError(_("Someone on the list is already registered in another active event.")) from None
    event.touch()


def scorekeeper_numbers(event: Event) -> tuple[int, ...]:
    """Players who must have the app to keep the sheets (Todos con Todos); Rondas choose per round."""
    return format_for(event.player_count).scorekeepers


def start_event(event: Event, by: User) -> None:
    from amigos.web.events.services.tables import open_round

    if by != event.organizer:
        raise EventError(_("Only the organizer can start the event."))
    if event.status != Event.Status.DRAFT:
        raise EventError(_("The event has already started."))
    if event.players.count() != event.player_count:
        raise EventError(_("Fill in every player before starting."))
    with transaction.atomic():
        event.status = Event.Status.RUNNING
        event.started_at = timezone.now()
        event.current_round = 1
        event.save(update_fields=["status", "started_at", "current_round"])
        open_round(event, 1)
    event.touch()


def finish_event(event: Event) -> None:
    """Free every player for another event; the results stay."""
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    EventPlayer.objects.filter(event=event).update(active_email=None)
    event.touch()


def discard_draft(event: Event, by: User) -> None:
    """An event that never started can be thrown away, freeing everyone on its list."""
    if by != event.organizer:
        raise EventError(_("Only the organizer can discard the event."))
    if event.status != Event.Status.DRAFT:
        raise EventError(_("Only an event that has not started can be discarded."))
    event.delete()
