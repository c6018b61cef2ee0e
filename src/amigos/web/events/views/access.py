"""Who may see an event: its organizer and its players (linked to their accounts by e-mail)."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer


def current_user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # every view here requires a signed-in player
    return user


def link_seat(event: Event, user: User) -> EventPlayer | None:
    """The user's seat in the event; a seat registered with their e-mail is linked on first visit."""
    seat = event.players.filter(user=user).first()
    if seat is None:
        seat = event.players.filter(user__isnull=True, email__iexact=user.email).first()
        if seat is not None:
            seat.user = user
            seat.save(update_fields=["user"])
    return seat


def visible_event(request: HttpRequest, pk: int) -> tuple[Event, EventPlayer | None]:
    event = get_object_or_404(Event.objects.select_related("organizer"), pk=pk)
    user = current_user(request)
    seat = link_seat(event, user)
    if seat is None and user.pk != event.organizer_id and not user.is_staff:
        raise Http404
    return event, seat


def organizer_event(request: HttpRequest, pk: int) -> Event:
    event = get_object_or_404(Event, pk=pk)
    if current_user(request).pk != event.organizer_id:
        raise Http404
    return event
