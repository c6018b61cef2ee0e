"""Rate limits on what costs us mail or accounts: sign-ups, verification and password-reset e-mails.

Counted in the database, like the sign-in throttle, so every process of the site shares the numbers.
Two kinds of key are counted: the client address (one machine creating accounts or asking for mail
in bulk) and the recipient (one inbox flooded with our mail, whoever asks). The recipient is counted
by the comparison key of the address, so spelling it differently does not buy more mail.
"""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta

from django.conf import settings
from django.http import HttpRequest

from amigos.web.accounts.identity import identifier_key
from amigos.web.accounts.models import LimitedAction

Kind = LimitedAction.Kind
MAIL_KINDS = (Kind.VERIFICATION_MAIL, Kind.RESET_MAIL)


def client_address(request: HttpRequest | None) -> str | None:
    """The client's IP address as the server saw it, or None when it is missing or not an address."""
    if request is None:
        return None
    raw = str(request.META.get("REMOTE_ADDR") or "")
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        return None


def client_key(address: str | None) -> str | None:
    return f"client:{address}" if address else None


def recipient_key(email: str) -> str:
    return f"to:{identifier_key(email)}"[:254]


def _window() -> timedelta:
    return timedelta(seconds=settings.AMIGOS_RATE_WINDOW_SECONDS)


def _used(kinds: tuple[str, ...], key: str, now: datetime) -> int:
    return LimitedAction.objects.filter(kind__in=kinds, key=key, at__gt=now - _window()).count()


def sign_up_allowed(address: str | None, now: datetime) -> bool:
    key = client_key(address)
    return key is None or _used((Kind.SIGN_UP,), key, now) < settings.AMIGOS_SIGN_UPS_PER_CLIENT


def mail_allowed_from(address: str | None, now: datetime) -> bool:
    """Whether this client may still ask for account mail (of any kind, to anyone) in the window."""
    key = client_key(address)
    return key is None or _used(MAIL_KINDS, key, now) < settings.AMIGOS_MAILS_PER_CLIENT


def mail_allowed_to(email: str, now: datetime) -> bool:
    """Whether this inbox may still receive account mail in the window."""
    return _used(MAIL_KINDS, recipient_key(email), now) < settings.AMIGOS_MAILS_PER_RECIPIENT


def spend(kind: str, keys: list[str | None], now: datetime) -> None:
    """Count one use under every given key (None keys are skipped), and forget expired uses."""
    LimitedAction.objects.bulk_create(LimitedAction(kind=kind, key=key, at=now) for key in keys if key)
    LimitedAction.objects.filter(at__lt=now - _window()).delete()
