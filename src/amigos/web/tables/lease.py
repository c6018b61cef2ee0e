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
* it releases its leases on a clean stop, so another process adopts them at once.

The lease says who should write; the version check in `store.append` is the fence that refuses a
write from a process that lost the lease without knowing it yet. Times are the processes' own
clocks (keep them in sync, as NTP does; the lease is long enough for a small drift).
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub
from amigos.web.tables import store


def new_identity() -> str:
    """``host:pid:random``: unique per server loop, readable in the database."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def shared(hub: Hub) -> bool:
    """Whether other processes may run tables too (the bus crosses processes)."""
    return not isinstance(hub.bus, InMemoryBus)


def lease_seconds() -> float:
    return float(settings.AMIGOS_TABLE_LEASE_SECONDS)


def renew_seconds() -> float:
    return float(settings.AMIGOS_TABLE_LEASE_RENEW_SECONDS)


def forward_timeout() -> float:
    return float(settings.AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS)


@dataclass
class Leases:
    """One process's leases: who it is and until when (its own monotonic clock) it may trust each."""

    identity: str = field(default_factory=new_identity)
    # table id -> time.monotonic() after which this process must check the database again
    trusted_until: dict[int, float] = field(default_factory=dict)

    def holds(self, table_id: int) -> bool:
        return self.trusted_until.get(table_id, 0.0) > time.monotonic()

    def _trust(self, table_ids: set[int] | list[int], started: float) -> None:
        # Counted from before the database was asked, so a slow answer never makes us trust too long;
        # and one renewal period short of the lease, so we stop trusting before anyone may take it.
        margin = max(lease_seconds() - renew_seconds(), renew_seconds())
        for table_id in table_ids:
            self.trusted_until[table_id] = started + margin

    async def acquire(self, table_id: int, now: datetime | None = None) -> str | None:
        """Take (or keep) the lease: our identity when we hold it, another holder's, or None (no table)."""
        started = time.monotonic()
        moment = now or timezone.now()
        holder: str | None = await database_sync_to_async(store.acquire_lease)(
            table_id, self.identity, moment, moment + timedelta(seconds=lease_seconds())
        )
        if holder == self.identity:
            self._trust([table_id], started)
        else:
            self.trusted_until.pop(table_id, None)
        return holder

    async def renew(self, table_ids: list[int], now: datetime | None = None) -> set[int]:
        """Renew the leases of ``table_ids``; the ids we lost (someone else holds them now)."""
        started = time.monotonic()
        moment = now or timezone.now()
        kept: set[int] = await database_sync_to_async(store.renew_leases)(
            table_ids, self.identity, moment + timedelta(seconds=lease_seconds())
        )
        self._trust(kept, started)
        lost = set(table_ids) - kept
        for table_id in lost:
            self.trusted_until.pop(table_id, None)
        return lost

    async def release(self, table_ids: list[int]) -> None:
        for table_id in table_ids:
            self.trusted_until.pop(table_id, None)
        await database_sync_to_async(store.release_leases)(table_ids, self.identity)

    async def adoptable(self, now: datetime | None = None) -> list[int]:
        found: list[int] = await database_sync_to_async(store.adoptable_table_ids)(
            self.identity, now or timezone.now()
        )
        return found
