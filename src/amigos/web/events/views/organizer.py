"""The organizer's pages: start page, creating an event, its players, starting it, rounds, castigos."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from amigos.web.events.forms import EventForm, ImportForm, PenaltyForm, PlayersForm
from amigos.web.events.models import Event
from amigos.web.events.selectors import penalty_choices
from amigos.web.events.services import EventError
from amigos.web.events.services.results import add_penalty, import_event
from amigos.web.events.services.rounds import end_event_now, start_event, start_next_round
from amigos.web.events.services.setup import (
    EventSetup,
    active_event_for,
    create_event,
    discard_draft,
    pending_invitations,
    scorekeeper_numbers,
    set_players,
)
from amigos.web.events.views.access import current_user, organizer_event


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Straight to the person's active event; otherwise the register of events."""
    user = current_user(request)
    active = active_event_for(user)
    if active is not None:
        return redirect("events:detail", pk=active.pk)
    past = Event.objects.filter(players__user=user).distinct()
    context = {
        "past": past,
        "import_form": ImportForm(),
        "invitations": pending_invitations(user),
        "email_verified": user.email_verified_at is not None,
    }
    return render(request, "events/home.html", context)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    user = current_user(request)
    active = active_event_for(user)
    if active is not None:
        # Say so before the form is filled in, not after it is sent.
        return render(request, "events/create.html", {"active": active})
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        setup = EventSetup(
            name=data["name"],
            origin=data["origin"],
            date=data["date"],
            player_count=int(data["player_count"]),
            target=data["target"],
            time_limit_minutes=data["time_limit_minutes"],
            stake=data["stake"] or Decimal(0),
            extra_payment=data["extra_payment"],
        )
        try:
            event = create_event(user, setup)
        except EventError as exc:
            messages.error(request, str(exc))
        else:
            return redirect("events:players", pk=event.pk)
    return render(request, "events/create.html", {"form": form})


@login_required
def players(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    seats = {p.number: p for p in event.players.all()}
    initial = {}
    for number, seat in seats.items():
        initial[f"name_{number}"] = seat.name
        initial[f"email_{number}"] = seat.email
    form = PlayersForm(event.player_count, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            set_players(event, form.entries())
        except EventError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Players saved."))
            return redirect("events:players", pk=event.pk)
    keepers = scorekeeper_numbers(event)
    rows = [
        {
            "number": n,
            "name": form[f"name_{n}"] if n > 1 else None,
            "email": form[f"email_{n}"] if n > 1 else None,
            "seat": seats.get(n),
            "keeper": n in keepers,
        }
        for n in range(1, event.player_count + 1)
    ]
    ready = len(seats) == event.player_count
    return render(
        request,
        "events/players.html",
        {"event": event, "form": form, "rows": rows, "keepers": keepers, "ready": ready},
    )


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    try:
        start_event(event, current_user(request))
    except EventError as exc:
        messages.error(request, str(exc))
        return redirect("events:players", pk=event.pk)
    return redirect("events:detail", pk=event.pk)


@login_required
@require_POST
def discard(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    try:
        discard_draft(event, current_user(request))
    except EventError as exc:
        messages.error(request, str(exc))
        return redirect("events:detail", pk=event.pk)
    messages.success(request, _("The event was discarded."))
    return redirect("events:home")


@login_required
@require_POST
def end_now(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Confirm it first: tick the box and tap the button again."))
        return redirect("events:detail", pk=event.pk)
    try:
        end_event_now(current_user(request), event)
    except EventError as exc:
        messages.error(request, str(exc))
        return redirect("events:detail", pk=event.pk)
    return redirect("events:report", pk=event.pk)


@login_required
@require_POST
def next_round(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    try:
        start_next_round(current_user(request), event)
    except EventError as exc:
        messages.error(request, str(exc))
    event.refresh_from_db()
    if event.status == Event.Status.FINISHED:
        return redirect("events:report", pk=event.pk)
    return redirect("events:detail", pk=event.pk)


@login_required
@require_POST
def penalty(request: HttpRequest, pk: int) -> HttpResponse:
    event = organizer_event(request, pk)
    form = PenaltyForm(penalty_choices(event), request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            add_penalty(
                current_user(request), event, data["player"], data["round"], data["points"], data["reason"]
            )
        except EventError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Castigo recorded."))
    else:
        messages.error(request, _("Check the castigo: player, round and a positive number of points."))
    return redirect("events:detail", pk=event.pk)


@login_required
@require_POST
def import_file(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose an event file to import."))
        return redirect("events:home")
    upload = form.cleaned_data["file"]
    try:
        text = upload.read().decode("utf-8-sig")
        event = import_event(current_user(request), text)
    except UnicodeDecodeError:
        messages.error(request, _("The file is not UTF-8 text."))
        return redirect("events:home")
    except EventError as exc:
        messages.error(request, str(exc))
        return redirect("events:home")
    messages.success(request, _("Event imported."))
    return redirect("events:detail", pk=event.pk)
