"""Template context shared by every page (the menu needs to know which sections exist)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse


def site(request: HttpRequest) -> dict[str, object]:
    from amigos.web.accounts.models import User
    from amigos.web.lobby import notices

    user = getattr(request, "user", None)
    unread = len(notices.unread(user)) if isinstance(user, User) else 0
    return {
        "unread_notice_count": unread,
        "idle_timeout_minutes": max(1, settings.AMIGOS_IDLE_TIMEOUT_SECONDS // 60),
        "own_table": _own_table(request, user if isinstance(user, User) else None),
    }


def _own_table(request: HttpRequest, user: object) -> dict[str, object] | None:
    """The live table the player sits at, for the "back to your table" banner of every page, or
    None (signed out, at no table, or already on that table's page)."""
    from amigos.web.accounts.models import User
    from amigos.web.tables.selectors import seated_live_table

    if not isinstance(user, User):
        return None
    table = seated_live_table(user.pk)
    if table is None:
        return None
    url = reverse("tables:table", args=[table.pk])
    if request.path == url:
        return None
    return {"url": url, "name": table.name}
