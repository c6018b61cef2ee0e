"""Account services: registration, suspensions and the idle clock shared by pages and sockets."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from amigos.web.accounts.models import User

# The session key holding the time (UNIX seconds) of the player's last action.
LAST_ACTIVITY_KEY = "amigos_last_activity"


def register_player(display_name: str, email: str, password: str) -> User:
    return User.objects.create_user(email=email, display_name=display_name, password=password)


def suspend(user: User, until: datetime, reason: str = "") -> None:
    """Suspend the account until `until`; its sessions are refused from their next request or check."""
    user.suspended_until = until
    user.suspension_reason = reason
    user.save(update_fields=["suspended_until", "suspension_reason"])


def lift_suspension(user: User) -> None:
    user.suspended_until = None
    user.suspension_reason = ""
    user.save(update_fields=["suspended_until", "suspension_reason"])


def idle_timeout_seconds() -> int:
    """Read at use time so a test (or an operator) can change it without a restart of the module."""
    return int(settings.AMIGOS_IDLE_TIMEOUT_SECONDS)


def is_idle(last_activity: float | None, now: float) -> bool:
    """True when more than the idle timeout passed since the last action (no record: not idle)."""
    if last_activity is None:
        return False
    return now - last_activity > idle_timeout_seconds()


def current_suspension(user: User, now: datetime | None = None) -> datetime | None:
    """The end of the running suspension, or None."""
    moment = now or timezone.now()
    return user.suspended_until if user.is_suspended(moment) else None
