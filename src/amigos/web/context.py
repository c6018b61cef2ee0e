"""Template context shared by every page (the menu needs to know which sections exist)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, object]:
    from amigos.web.accounts.models import User
    from amigos.web.lobby import notices

    user = getattr(request, "user", None)
    unread = len(notices.unread(user)) if isinstance(user, User) else 0
    return {
        "unread_notice_count": unread,
        "idle_timeout_minutes": max(1, settings.AMIGOS_IDLE_TIMEOUT_SECONDS // 60),
    }
