"""The sign-in throttle: guessing is slow, and nobody can aim a lockout at someone else.

Failures count against the account the typed identifier resolved to (by name, by address, or by a
lookalike spelling of either), never against the spelling itself: ``victim``, ``VICTIM``,
``victim@example.com`` and ``vıctım`` are tries at one account. An identifier that resolves to no
account counts only against the client's network.

Four tallies, each within the window (:func:`decide` is the whole policy):

- the network (the address, or its /64 for IPv6): one machine guessing at many accounts;
- the pair of account and network: one machine guessing at one account (the player's own typos
  land here too, so a success from that network forgives them);
- the account from anywhere: many machines guessing at one account. This one, reached, refuses
  only browsers the account has never signed in from. A browser that has (see
  :mod:`amigos.web.accounts.devices`) is slowed to one try every few seconds instead, so strangers
  cannot lock a player out of their own computer, and a success forgives the account's failures;
- the known device with the account: its own failures, so a stolen device cookie is no open door.

A stranger's failures from another network never reach the pair or the device tallies of the
player, and the account tally is set well above the pair's: one machine cannot close an account
even to the player's new browsers.

Counting lives in the database so that every process of the site sees the same numbers.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Max, Min, QuerySet

from amigos.web.accounts.identity import identifier_key
from amigos.web.accounts.models import SignInAttempt, User

#: Why sign-in is refused; each has its message in the sign-in form (forms.THROTTLE_MESSAGES).
ADDRESS_LIMITED = "throttled_address"
PAIR_LIMITED = "throttled"
ACCOUNT_LIMITED = "throttled_account"
DEVICE_LIMITED = "throttled_device"
SLOWED = "slowed"


@dataclass(frozen=True)
class Refusal:
    """Why sign-in is refused right now (a code above) and for how long."""

    code: str
    seconds: int

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up (at least one)."""
        return max(1, math.ceil(self.seconds / 60))


@dataclass(frozen=True)
class Tally:
    """Failures counted under one key within the window, and when the oldest of them happened."""

    failures: int = 0
    oldest: datetime | None = None


@dataclass(frozen=True)
class Counts:
    """Everything :func:`decide` needs to know about one attempt, read from the database."""

    network: Tally = Tally()
    pair: Tally = Tally()
    account: Tally = Tally()
    device: Tally = Tally()
    #: The last attempt (either outcome) of this known device at this account.
    device_last_try: datetime | None = None


@dataclass(frozen=True)
class Limits:
    window: timedelta
    per_network: int
    per_pair: int
    per_account: int
    per_device: int
    pace: timedelta

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            window=timedelta(seconds=settings.AMIGOS_SIGN_IN_WINDOW_SECONDS),
            per_network=settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ADDRESS,
            per_pair=settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
            per_account=settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
            per_device=settings.AMIGOS_SIGN_IN_MAX_FAILURES_PER_DEVICE,
            pace=timedelta(seconds=settings.AMIGOS_SIGN_IN_KNOWN_DEVICE_PACE_SECONDS),
        )


def decide(counts: Counts, *, known_device: bool, limits: Limits, now: datetime) -> Refusal | None:
    """The policy, free of I/O: a Refusal, or None to let the password be checked."""

    def until_reopens(code: str, tally: Tally) -> Refusal:
        oldest = tally.oldest or now
        return Refusal(code=code, seconds=_seconds(oldest + limits.window - now))

    if known_device:
        if counts.device.failures >= limits.per_device:
            return until_reopens(DEVICE_LIMITED, counts.device)
        if counts.account.failures >= limits.per_account and counts.device_last_try is not None:
            next_try = counts.device_last_try + limits.pace
            if next_try > now:
                return Refusal(code=SLOWED, seconds=_seconds(next_try - now))
        return None
    if counts.network.failures >= limits.per_network:
        return until_reopens(ADDRESS_LIMITED, counts.network)
    if counts.pair.failures >= limits.per_pair:
        return until_reopens(PAIR_LIMITED, counts.pair)
    if counts.account.failures >= limits.per_account:
        return until_reopens(ACCOUNT_LIMITED, counts.account)
    return None


def _seconds(delta: timedelta) -> int:
    return max(1, math.ceil(delta.total_seconds()))


def network_of(address: str | None) -> str:
    """The key an address is counted under: an IPv4 address itself, an IPv6 address's /64."""
    if not address:
        return ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return ""
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _tally(failures: QuerySet[SignInAttempt]) -> Tally:
    found = failures.aggregate(count=Count("pk"), oldest=Min("at"))
    return Tally(failures=found["count"], oldest=found["oldest"])


def _since_last_success(rows: QuerySet[SignInAttempt], since: datetime) -> QuerySet[SignInAttempt]:
    last = rows.filter(succeeded=True, at__gt=since).aggregate(last=Max("at"))["last"]
    return rows.filter(succeeded=False, at__gt=max(since, last) if last else since)


def counts(*, account: User | None, address: str | None, device: str | None, now: datetime) -> Counts:
    """Read the four tallies of an attempt from the database."""
    since = now - Limits.from_settings().window
    network = network_of(address)
    attempts = SignInAttempt.objects.filter(at__gt=since)
    network_tally = _tally(attempts.filter(network=network, succeeded=False)) if network else Tally()
    if account is None:
        return Counts(network=network_tally)
    mine = attempts.filter(account=account)
    pair_tally = _tally(_since_last_success(mine.filter(network=network), since)) if network else Tally()
    account_tally = _tally(_since_last_success(mine, since))
    device_tally, last_try = Tally(), None
    if device:
        from_device = mine.filter(device=device)
        device_tally = _tally(_since_last_success(from_device, since))
        last_try = from_device.aggregate(last=Max("at"))["last"]
    return Counts(
        network=network_tally,
        pair=pair_tally,
        account=account_tally,
        device=device_tally,
        device_last_try=last_try,
    )


def check(
    *, account: User | None, address: str | None, now: datetime, device: str | None = None
) -> Refusal | None:
    """A Refusal when this attempt must wait, else None. ``device`` is the browser's known-device
    identity for ``account`` (None for a browser the account never signed in from)."""
    found = counts(account=account, address=address, device=device, now=now)
    return decide(found, known_device=bool(device), limits=Limits.from_settings(), now=now)


def record(
    *,
    identifier: str,
    account: User | None,
    address: str | None,
    now: datetime,
    succeeded: bool,
    device: str | None = None,
) -> None:
    SignInAttempt.objects.create(
        identifier=identifier_key(identifier)[:254],
        account=account,
        address=address,
        network=network_of(address),
        device=(device or "")[:64],
        at=now,
        succeeded=succeeded,
    )
    # Old rows are useless to the throttle; drop them as we go so the table stays small.
    SignInAttempt.objects.filter(at__lt=now - 2 * Limits.from_settings().window).delete()
