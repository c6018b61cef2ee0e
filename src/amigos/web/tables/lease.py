"""The ownership lease: which process runs a table's actor when several processes share the tables.

With the in-memory bus there is one process and it runs every table: nothing here is used. With
Redis, each process (each server loop: `registry.Actors`) has an identity, ``host:pid:random``, and
runs a table only while it holds the table's lease (`Table.owner` and `Table.lease_until`):

* it takes the lease with one conditional UPDATE (the table is free, its lease expired, or it is
  already ours), so two processes racing for a table never both get it;
* it renews every lease it holds every `AMIGOS_TABLE_LEASE_RENEW_SECONDS` (the lease lasts
  `AMIGOS_TABLE_LEASE_SECONDS`); a renewal that finds another owner stops that table's actor;
* on the same beat it adopts unfinished tables whose lease expired (their owner died): the actor is
  rebuilt from the log and stored deadlines and gives the player in turn fresh time (`fresh_time`);
* it releases its leases on a clean stop, so another process adopts them at once;
* a lease whose holder was a process of this machine that is gone (`died_here`: a crash, then a
  restart) is taken at once, without waiting for it to expire.

The lease says who should write; the version check in `store.append` is the fence that refuses a
write from a process that lost the lease without knowing it yet. Times are the processes' own
clocks (keep them in sync, as NTP does; the lease is long enough for a small drift).
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub
from amigos.web.tables import lease_rows


def _boot_id() -> str:
    """A short name of this machine's current boot (Linux), or "-" where there is none."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")[:8] or "-"
    except OSError:
        return "-"


BOOT = _boot_id()


def _host() -> str:
    return socket.gethostname()[:40]


def new_identity() -> str:
    """``host:pid:boot:random``: unique per server loop, readable in the database."""
    return f"{_host()}:{os.getpid()}:{BOOT}:{secrets.token_hex(4)}"


def died_here(holder: str) -> bool:
    """Whether ``holder`` was a server process of this machine, since this boot, that no longer
    runs. Its leases need not be waited out: a server restarted at once after a crash takes its
    tables back at once instead of answering `busy` for the rest of the lease. Anything else (another
    machine, another boot, a process still running, a name of another form) is waited out."""
    parts = holder.split(":")
    if len(parts) != 4 or BOOT == "-":
        return False
    host, pid_text, boot, _ = parts
    if host != _host() or boot != BOOT or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # another server loop of this very process (tests run several): alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's, say)
    return False


def shared(hub: Hub) -> bool:
    """Whether other processes may run tables too (the bus crosses processes)."""
    return not isinstance(hub.bus, InMemoryBus)


def lease_seconds() -> float:
    return float(settings.AMIGOS_TABLE_LEASE_SECONDS)


def renew_seconds() -> float:
    return float(settings.AMIGOS_TABLE_LEASE_RENEW_SECONDS)


def forward_timeout() -> float:
    return float(settings.AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS)


def join_forward_timeout() -> float:
    """How long a forwarded join waits for the table's owner: a lease's length (at least the
    forward timeout). Why longer than a play: a socket that is not yet at its table can do nothing
    else, and a join answered `busy` is asked again, all of its work (six topics listened to and
    let go, the owner's snapshot) spent for nothing. At start-up, when every socket joins at once,
    an owner more than the forward timeout behind answered no join in time, and the joins asked
    again kept it that far behind. A dead owner's lease has lapsed by the time a join gives up, so
    the next try finds the table's new owner."""
    return max(forward_timeout(), lease_seconds())


def _acquire_at(table_id: int, identity: str, now: datetime | None, dead: Collection[str] = ()) -> str | None:
    """`lease_rows.acquire_lease` with the lease counted from when the statement runs (``now``:
    a test's fake time), on the database thread.

    Why not from when it was asked for: at start-up a host's database thread has every socket's
    opening queued, and a lease counted from the moment it was queued was seen to reach the
    database with little of it left, or none: another host then took the table before its taker
    had even read its log. (What this process trusts is still counted from before it asked.)"""
    moment = now or timezone.now()
    until = moment + timedelta(seconds=lease_seconds())
    return lease_rows.acquire_lease(table_id, identity, moment, until, dead)


#: The renewals' own thread (and so their own database connection). Why not the database thread
#: every socket shares: at a thousand tables across three hosts each host's thread has over a
#: thousand socket openings queued when the hosts start, and a renewal queued behind them may wait
#: longer than a lease lasts; other hosts then take tables whose owner was only late, and the
#: tables change hands (their writes refused by the version fence). Such changes of hands were
#: seen at 300 and 1,000 tables, and still at 300 with this thread: its worth is not measured.
_RENEWALS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amigos-leases")


@dataclass
class Leases:
    """One process's leases: who it is and until when (its own monotonic clock) it may trust each."""

    identity: str = field(default_factory=new_identity)
    # table id -> time.monotonic() after which this process must check the database again
    trusted_until: dict[int, float] = field(default_factory=dict)
    # table id -> (another live process that held its lease, time.monotonic() until which we
    # believe it without asking the database again): see `holder_known`
    elsewhere: dict[int, tuple[str, float]] = field(default_factory=dict)

    def holds(self, table_id: int) -> bool:
        return self.trusted_until.get(table_id, 0.0) > time.monotonic()

    def _trust(self, table_ids: set[int] | list[int], started: float) -> None:
        # Counted from before the database was asked, so a slow answer never makes us trust too long;
        # and one renewal period short of the lease, so we stop trusting before anyone may take it.
        margin = max(lease_seconds() - renew_seconds(), renew_seconds())
        for table_id in table_ids:
            self.trusted_until[table_id] = started + margin

    def held(self) -> set[int]:
        """The tables whose lease this process took and has not lost or released, an actor built
        for each or not yet (the lease keeper renews them all)."""
        return set(self.trusted_until)

    def holder_known(self, table_id: int) -> str | None:
        """Who runs the table, as another process told the database within the last renewal
        period (`acquire`), or None: ask the database again.

        Why: a process that does not run a table forwards each of its sockets' commands (plays and
        heartbeats) to the owner, and asking the database first, every time, was a conditional
        UPDATE, a SELECT and the connection's health check on a database thread: a fifth of a
        host's time at 100 tables across three hosts. Each answer of the owner's renews our belief
        (`confirm`). The answer is forgotten sooner when it is
        seen to be wrong: the holder was a process of this machine that is gone (`died_here`, a
        cheap check of its pid), the owner answered that it no longer holds the table (`forget`,
        by `forwarding`), or the table became adoptable (`adoptable`). An owner that did not
        answer in time is still believed until the belief runs out (`forwarding.run` says why)."""
        known = self.elsewhere.get(table_id)
        if known is None:
            return None
        holder, until = known
        if until <= time.monotonic() or died_here(holder):
            del self.elsewhere[table_id]
            return None
        return holder

    def confirm(self, table_id: int, holder: str) -> None:
        """``holder`` just answered a command for the table, which it serves only while it holds
        the lease (`registry.locate`): believe it for another renewal period. While the owner
        answers, the database is not asked at all."""
        self.elsewhere[table_id] = (holder, time.monotonic() + renew_seconds())

    def forget(self, table_id: int) -> None:
        """What `holder_known` says of the table is wrong or stale: ask the database next time."""
        self.elsewhere.pop(table_id, None)

    async def acquire(self, table_id: int, now: datetime | None = None) -> str | None:
        """Take (or keep) the lease: our identity when we hold it, another holder's, or None (no table)."""
        started = time.monotonic()
        holder: str | None = await database_sync_to_async(_acquire_at)(table_id, self.identity, now)
        if holder is not None and holder != self.identity and died_here(holder):
            holder = await database_sync_to_async(_acquire_at)(table_id, self.identity, now, [holder])
        if holder == self.identity:
            self._trust([table_id], started)
            self.elsewhere.pop(table_id, None)
        else:
            self.trusted_until.pop(table_id, None)
            if holder is None:
                self.elsewhere.pop(table_id, None)
            else:
                # Believed from the answer, not from the question: behind a queued database
                # thread (a host's start-up) the answer came after the belief would have run out,
                # and every command for the table asked the database again, queueing it further.
                # A belief that is wrong costs one hop (the holder answers that it moved).
                self.elsewhere[table_id] = (holder, time.monotonic() + renew_seconds())
        return holder

    async def renew(self, table_ids: list[int], now: datetime | None = None) -> set[int]:
        """Renew the leases of ``table_ids``; the ids we lost (someone else holds them now)."""
        started = time.monotonic()
        moment = now or timezone.now()
        kept: set[int] = await database_sync_to_async(
            lease_rows.renew_leases, thread_sensitive=False, executor=_RENEWALS
        )(table_ids, self.identity, moment + timedelta(seconds=lease_seconds()))
        self._trust(kept, started)
        lost = set(table_ids) - kept
        for table_id in lost:
            self.trusted_until.pop(table_id, None)
        return lost

    async def release(self, table_ids: list[int]) -> None:
        for table_id in table_ids:
            self.trusted_until.pop(table_id, None)
        await database_sync_to_async(lease_rows.release_leases)(table_ids, self.identity)

    async def adoptable(self, now: datetime | None = None) -> list[int]:
        """Tables to adopt: nobody's, expired, or held by a process of this machine that died."""
        moment = now or timezone.now()
        holders: list[str] = await database_sync_to_async(lease_rows.lease_holders)(moment)
        dead = [holder for holder in holders if holder != self.identity and died_here(holder)]
        found: list[int] = await database_sync_to_async(lease_rows.adoptable_table_ids)(
            self.identity, moment, dead=dead
        )
        for table_id in found:
            self.elsewhere.pop(table_id, None)  # its holder, if we knew one, is gone
        return found
