"""Account services: registration, address verification, suspensions, and the idle clock."""

from __future__ import annotations

import enum
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from amigos.web.accounts import clock, limits
from amigos.web.accounts.models import LimitedAction, User
from amigos.web.accounts.verification import send_verification

# The session key holding the time (UNIX seconds) of the player's last action.
LAST_ACTIVITY_KEY = "amigos_last_activity"


def register_player(*, display_name: str, email: str, password: str, request: HttpRequest) -> User:
    """Create the account (its address not verified yet) and count the sign-up against the client.

    The caller has already asked :func:`limits.sign_up_allowed` (the form refuses before this) and
    then mails the link with :func:`request_verification_mail`.
    """
    with transaction.atomic():
        user = User.objects.create_user(email=email, display_name=display_name, password=password)
        address = limits.client_address(request)
        limits.spend(LimitedAction.Kind.SIGN_UP, [limits.client_key(address)], timezone.now())
    return user


class MailOutcome(enum.Enum):
    SENT = "sent"
    ALREADY_VERIFIED = "already_verified"
    TOO_MANY_FROM_CLIENT = "too_many_from_client"
    TOO_MANY_TO_ADDRESS = "too_many_to_address"


def request_verification_mail(*, user: User, request: HttpRequest) -> MailOutcome:
    """Mail a verification link unless the address is verified or a rate limit says no."""
    if user.email_verified_at is not None:
        return MailOutcome.ALREADY_VERIFIED
    now = timezone.now()
    address = limits.client_address(request)
    if not limits.mail_allowed_from(address, now):
        return MailOutcome.TOO_MANY_FROM_CLIENT
    if not limits.mail_allowed_to(user.email, now):
        return MailOutcome.TOO_MANY_TO_ADDRESS
    send_verification(user, request)
    limits.spend(
        LimitedAction.Kind.VERIFICATION_MAIL,
        [limits.client_key(address), limits.recipient_key(user.email)],
        now,
    )
    return MailOutcome.SENT


def mark_email_verified(*, user: User) -> None:
    """The player proved the address another way (they followed a password-reset link sent to it)."""
    if user.email_verified_at is None:
        user.email_verified_at = timezone.now()
        user.save(update_fields=["email_verified_at"])


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


class BadTimeZone(ValueError):
    """The zone named is not one the time zone database knows; nothing was changed."""


def set_time_zone(*, user: User, name: str) -> None:
    """Keep ``name`` as the player's time zone (the settings page), or raise `BadTimeZone` and
    change nothing."""
    name = name.strip()
    if not clock.is_time_zone(name):
        raise BadTimeZone(name[:80])
    user.time_zone = name
    user.save(update_fields=["time_zone"])


def adopt_browser_time_zone(*, user: User, name: object) -> bool:
    """Keep the zone the browser reported at sign-up or sign-in when the account has none yet;
    True when it was kept. A zone the player chose is never replaced by a browser's guess, and a
    report that is not a known zone is ignored (it is only a hint)."""
    if user.time_zone or not isinstance(name, str) or not clock.is_time_zone(name):
        return False
    user.time_zone = name
    user.save(update_fields=["time_zone"])
    return True
