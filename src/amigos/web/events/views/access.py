"""Who may see an event: its organizer, its players, staff, and the people its list invites.
Reads only: a page view never writes (a seat is taken by accepting the invitation, a POST)."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer
from amigos.web.events.selectors import may_see, seat_of


def current_user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # every view here requires a signed-in player
    return user


def visible_event(request: HttpRequest, pk: int) -> tuple[Event, EventPlayer | None]:
    """The event and the user's accepted seat (None for the organizer's guests, staff and the
    invited, who see the board but hold no seat until they accept)."""
    event = get_object_or_404(Event.objects.select_related("organizer"), pk=pk)
    user = current_user(request)
    if not may_see(user, event):
        raise Http404
    return event, seat_of(event, user)


def organizer_event(request: HttpRequest, pk: int) -> Event:
    event = get_object_or_404(Event, pk=pk)
    if current_user(request).pk != event.organizer_id:
        raise Http404
    return event
