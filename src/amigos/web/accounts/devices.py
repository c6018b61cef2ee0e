"""Known devices: a signed cookie that a browser earns by signing in with the right password.

The sign-in throttle must not let a stranger lock a player out by typing wrong passwords for them.
A browser where the player signed in before carries this cookie, naming the accounts it signed in
to and a random identity of its own; while strangers' failures have closed an account to unknown
browsers, such a browser is only slowed, and its own failures are counted apart (so a stolen cookie
buys a handful of guesses, not an open door).

The cookie is signed with the site's secret key, so a client can neither forge one nor add an
account to it. It proves nothing about the password: it only says which throttle counts apply.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "amigos_device"
SALT = "amigos.accounts.known-device"
#: Accounts one browser remembers (a family computer); the oldest is forgotten first.
MAX_ACCOUNTS = 5


@dataclass(frozen=True)
class KnownDevice:
    """A browser's identity and the accounts (primary keys, latest first) that signed in on it."""

    device: str
    accounts: tuple[int, ...]


def read(request: HttpRequest | None) -> KnownDevice | None:
    """The request's device cookie when it is genuine and not expired, else None."""
    if request is None:
        return None
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=SALT, max_age=settings.AMIGOS_KNOWN_DEVICE_MAX_AGE_SECONDS)
    except signing.BadSignature:  # also raised for an expired signature
        return None
    if not isinstance(value, dict):
        return None
    device, accounts = value.get("d"), value.get("a")
    if not isinstance(device, str) or not isinstance(accounts, list):
        return None
    if not all(isinstance(pk, int) and not isinstance(pk, bool) for pk in accounts):
        return None
    return KnownDevice(device=device[:64], accounts=tuple(accounts[:MAX_ACCOUNTS]))


def device_for(request: HttpRequest | None, account_pk: int | None) -> str | None:
    """The browser's device identity when it is known to ``account_pk``, else None."""
    known = read(request)
    if known is None or account_pk is None or account_pk not in known.accounts:
        return None
    return known.device


def remember(response: HttpResponse, request: HttpRequest, account_pk: int) -> None:
    """Mark this browser as known to the account that just signed in (and renew the cookie)."""
    known = read(request)
    device = known.device if known is not None else secrets.token_urlsafe(18)
    earlier = [pk for pk in (known.accounts if known is not None else ()) if pk != account_pk]
    accounts = [account_pk, *earlier][:MAX_ACCOUNTS]
    response.set_cookie(
        COOKIE,
        signing.dumps({"d": device, "a": accounts}, salt=SALT),
        max_age=settings.AMIGOS_KNOWN_DEVICE_MAX_AGE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
