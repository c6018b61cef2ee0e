"""The invited player's answers: accept the seat the list offers, or leave an event not yet started."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from amigos.web.events.models import Event
from amigos.web.events.services import EventError
from amigos.web.events.services.setup import accept_invitation, invitation_for, leave_event
from amigos.web.events.views.access import current_user


def _listed_event(request: HttpRequest, pk: int) -> Event:
    """The event, if the user holds or is offered a seat in it (others get the same 404 as strangers)."""
    event = get_object_or_404(Event, pk=pk)
    user = current_user(request)
    if not event.players.filter(user=user).exists() and invitation_for(event, user) is None:
        raise Http404
    return event


@login_required
@require_POST
def accept(request: HttpRequest, pk: int) -> HttpResponse:
    event = _listed_event(request, pk)
    try:
        seat = accept_invitation(event, current_user(request))
    except EventError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You joined the event as player %(number)d.") % {"number": seat.number})
    return redirect("events:detail", pk=event.pk)


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    event = _listed_event(request, pk)
    try:
        leave_event(event, current_user(request))
    except EventError as exc:
        messages.error(request, str(exc))
        return redirect("events:detail", pk=event.pk)
    messages.success(request, _("You left the event."))
    return redirect("events:home")
