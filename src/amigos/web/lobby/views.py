"""Lobby pages: the meeting room itself and the administrator's messages."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from amigos.web.accounts.models import User
from amigos.web.lobby import chat, notices, presence
from amigos.web.lobby.chat_labels import chat_action_labels
from amigos.web.realtime import muting


def _player(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # guaranteed by login_required
    return user


def lobby_labels() -> dict[str, object]:
    """Words the lobby's script shows, translated here so the script itself holds no text."""
    return {
        "status": {
            "available": _("available"),
            "invited": _("invited"),
            "playing": _("playing"),
            "reconnecting": _("reconnecting"),
        },
        "quintile": _("Quintile %(q)s"),
        "unrated": _("not yet rated"),
        "nobody": _("Nobody else is online yet."),
        "no_match": _("Nobody online by that name."),
        "more": _("… and %(n)s more: search by name."),
        "actions": chat_action_labels(),
        "connected": _("Live"),
        "connecting": _("Connecting…"),
        "disconnected": _("Connection lost; trying again…"),
        "signed_out": _("Your session ended."),
    }


def _audible(lines: list[chat.ChatLine], muted: set[int]) -> list[chat.ChatLine]:
    """The page's first lines without those of players the reader muted (as the socket sends)."""
    return [line for line in lines if line.author_id not in muted]


@login_required
def home(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    context = {
        "unread_notices": notices.unread(user),
        "players": presence.online_players(timezone.now()),
        "chat_lines": _audible(chat.recent(), muting.stored_mutes(user.pk)),
        "chat_max_length": settings.AMIGOS_CHAT_MAX_LENGTH,
        "lobby_labels": lobby_labels(),
    }
    return render(request, "lobby/home.html", context)


@login_required
def messages_page(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/messages.html", {"notices": notices.all_for(_player(request))})


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    ids = [int(value) for value in request.POST.getlist("message") if value.isdigit()]
    notices.mark_read(_player(request), ids)
    target = request.POST.get("next")
    return redirect("lobby:messages" if target == "messages" else "lobby:home")
