"""Creating an event, naming its players, who is invited and who accepted; one active event per
person. Starting and the rest of the round lifecycle live in :mod:`.rounds`.

Listing someone's e-mail address invites them; it does not enrol them. The seat is theirs (linked to
their account, and counted as their one active event) only once they accept, with an account whose
address is verified. So nobody can be locked out of events, or have their seat taken, by a list
somebody else typed; and a player can always leave an event that has not started.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from amigos.recreo.formats import format_for
from amigos.web.accounts.models import User
from amigos.web.accounts.selectors import user_for_verified_email
from amigos.web.events.models import Event, EventPlayer
from amigos.web.events.services import EventError
from amigos.web.events.services.live import changed


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
    """Names and e-mails of players 2..N. An e-mail invites; a player who already accepted keeps
    their seat as long as their address stays on the list."""
    if event.status != Event.Status.DRAFT:
        raise EventError(_("Players can only be changed before the event starts."))
    if event.matches.exists():
        # An imported event's results and castigos name its players by number: they stay as filed.
        raise EventError(_("The players of an imported event are the ones in its file."))
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
    with transaction.atomic():
        listed = EventPlayer.objects.filter(event=event, number__gt=1)
        accepted = {seat.email.strip().lower(): seat for seat in listed.filter(user__isnull=False)}
        listed.delete()
        for number, (name, email) in enumerate(entries, start=2):
            lowered = email.strip().lower()
            kept = accepted.get(lowered) if lowered else None
            EventPlayer.objects.create(
                event=event,
                number=number,
                name=name.strip(),
                email=email.strip(),
                user=kept.user if kept else None,
                active_email=kept.active_email if kept else None,
            )
        changed(event)


def invitation_for(event: Event, user: User) -> EventPlayer | None:
    """The seat of this event that invites `user`: listed under the address their account verified."""
    if user.email_verified_at is None:
        return None
    for seat in event.players.filter(user__isnull=True).exclude(email=""):
        if user_for_verified_email(email=seat.email) == user:
            return seat
    return None


def pending_invitations(user: User) -> list[EventPlayer]:
    """Seats of unfinished events that invite `user` and that they have not answered."""
    if user.email_verified_at is None:
        return []
    seats = EventPlayer.objects.filter(
        user__isnull=True, email__iexact=user.email, event__status__in=["draft", "running"]
    ).select_related("event")
    return [seat for seat in seats if user_for_verified_email(email=seat.email) == user]


def accept_invitation(event: Event, user: User) -> EventPlayer:
    """Take the seat the list offers; from now on it counts as the person's one active event."""
    if event.status == Event.Status.FINISHED:
        raise EventError(_("The event is over."))
    seat = invitation_for(event, user)
    if seat is None:
        raise EventError(_("There is no invitation for you in this event."))
    try:
        with transaction.atomic():
            updated = EventPlayer.objects.filter(pk=seat.pk, user__isnull=True).update(
                user=user, active_email=user.email.lower()
            )
            if updated:
                changed(event)
    except IntegrityError:
        raise EventError(_("You are already registered in an active event.")) from None
    if not updated:
        raise EventError(_("There is no invitation for you in this event."))
    seat.refresh_from_db()
    return seat


def leave_event(event: Event, user: User) -> None:
    """Decline an invitation, or leave a seat already accepted, while the event has not started.

    The seat keeps its name for the organizer but loses the address, so it no longer invites
    anyone; the organizer fills it again.
    """
    if user.pk == event.organizer_id:
        raise EventError(_("The organizer cannot leave; discard the event instead."))
    if event.status != Event.Status.DRAFT:
        raise EventError(_("You can only leave an event before it starts."))
    seat = event.players.filter(user=user).first() or invitation_for(event, user)
    if seat is None:
        raise EventError(_("You are not on this event's list."))
    seat.user = None
    seat.active_email = None
    seat.email = ""
    with transaction.atomic():
        seat.save(update_fields=["user", "active_email", "email"])
        changed(event)


def scorekeeper_numbers(event: Event) -> tuple[int, ...]:
    """Players who must have the app to keep the sheets (Todos con Todos); Rondas choose per round."""
    return format_for(event.player_count).scorekeepers


def discard_draft(event: Event, by: User) -> None:
    """An event that never started can be thrown away, freeing everyone on its list."""
    if by != event.organizer:
        raise EventError(_("Only the organizer can discard the event."))
    if event.status != Event.Status.DRAFT:
        raise EventError(_("Only an event that has not started can be discarded."))
    event.delete()
