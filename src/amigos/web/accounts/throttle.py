"""The sign-in throttle: too many failures for one account or from one address close the door a while.

Failures count against the account the typed identifier resolved to (by name, by address, or by a
lookalike spelling of either), never against the spelling itself: ``victim``, ``VICTIM``,
``victim@example.com`` and ``vıctım`` are five tries at one account, not five tries each. An
identifier that resolves to no account counts only against the client address.

Counting lives in the database so that every process of the site sees the same numbers. A success
for an account forgives that account's earlier failures (but not the address's): a player who finally
types the right password is not locked out by their own typos, while a guesser spraying many
accounts from one address still is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Min

from amigos.web.accounts.identity import identifier_key
from amigos.web.accounts.models import SignInAttempt, User


@dataclass(frozen=True)
class Refusal:
    """Why sign-in is refused right now and for how long (whole minutes, rounded up)."""

    minutes: int


def _window() -> timedelta:
    return timedelta(seconds=settings.AMIGOS_SIGN_IN_WINDOW_SECONDS)


def check(*, account: User | None, address: str | None, now: datetime) -> Refusal | None:
    """A Refusal when the account or the address used up its failures within the window, else None."""
    since = now - _window()
    blocked_until: list[datetime] = []
    if account is not None:
        last_success = SignInAttempt.objects.filter(account=account, succeeded=True, at__gt=since).aggregate(
            last=Max("at")
        )["last"]
        account_since = max(since, last_success) if last_success else since
        failures = SignInAttempt.objects.filter(account=account, succeeded=False, at__gt=account_since)
        if failures.count() >= settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT:
            blocked_until.append(failures.aggregate(first=Min("at"))["first"] + _window())
    if address:
        address_failures = SignInAttempt.objects.filter(address=address, succeeded=False, at__gt=since)
        if address_failures.count() >= settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS:
            blocked_until.append(address_failures.aggregate(first=Min("at"))["first"] + _window())
    if not blocked_until:
        return None
    seconds = (max(blocked_until) - now).total_seconds()
    return Refusal(minutes=max(1, math.ceil(seconds / 60)))


def record(
    *, identifier: str, account: User | None, address: str | None, now: datetime, succeeded: bool
) -> None:
    SignInAttempt.objects.create(
        identifier=identifier_key(identifier)[:254],
        account=account,
        address=address,
        at=now,
        succeeded=succeeded,
    )
    # Old rows are useless to the throttle; drop them as we go so the table stays small.
    SignInAttempt.objects.filter(at__lt=now - 2 * _window()).delete()
