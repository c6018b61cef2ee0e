"""The lease keeper keeps what a process holds while the process is slow (issue 40: tables changed
hands at start-up across three hosts on a loaded machine).

A host starting beside hundreds of tables adopts them one at a time, each on the database thread
every socket shares. Here one table's adoption (or a socket's look-up) is stuck reading its log,
as a queued database thread makes it, and the leases must be renewed all the same: the ones of
the tables already running and the one of the table whose log is being read. And a lease taken
after a long wait for the database thread is counted from when it was written, not from when it
was asked for. With Redis (the tables shared between processes) and the database of the run.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.realtime import hub as hub_module
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import lease, lease_rows, registry, services, store
from amigos.web.tables.models import Table
from tests.web.test_processes import REDIS_URL, require_redis

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

T0 = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
#: Upper bounds so that a broken test ends; the tests go on as soon as the state is reached. A
#: stuck read lasts longer than a wait for a renewal: the keeper before this test waited for it.
SAFETY = 60.0
STUCK = 3 * SAFETY


async def until(condition: Callable[[], bool]) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(wait(), SAFETY)


@pytest.fixture
def renewals(monkeypatch: pytest.MonkeyPatch) -> list[set[int]]:
    """The table ids of every renewal the process sends to the database, in order."""
    seen: list[set[int]] = []
    real = lease_rows.renew_leases

    def renew(table_ids: list[int], owner: str, until_: datetime) -> set[int]:
        seen.append(set(table_ids))
        return real(table_ids, owner, until_)

    monkeypatch.setattr(lease_rows, "renew_leases", renew)
    return seen


@pytest.fixture
def stuck_log(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[set[int], set[int], threading.Event]]:
    """Reading the log of a table in the first set hangs (on the database thread) until the event
    is set; the second set names those whose read began."""
    slow: set[int] = set()
    begun: set[int] = set()
    free = threading.Event()
    real = store.load

    def load(table_id: int) -> Any:
        if table_id in slow:
            begun.add(table_id)
            free.wait(STUCK)
        return real(table_id)

    monkeypatch.setattr(store, "load", load)
    yield slow, begun, free
    free.set()


@pytest.fixture
def shared(settings: Any) -> Any:
    require_redis()
    settings.REDIS_URL = REDIS_URL  # this test's loop gets a hub on Redis: the tables are shared
    settings.AMIGOS_TABLE_LEASE_RENEW_SECONDS = 0.05
    return settings


async def _stop(free: threading.Event) -> None:
    free.set()
    await registry.stop_all()
    await get_hub().close()
    hub_module._hubs.pop(asyncio.get_running_loop(), None)


def _two_tables(make_player: Callable[..., User]) -> tuple[Table, Table]:
    user = make_player("Ana")
    return (
        services.play_against_computer(user=user, variant="amigos-100", level="easy"),
        services.play_against_computer(user=user, variant="amigos-100", level="easy"),
    )


async def test_the_leases_are_renewed_while_an_adoption_is_stuck(
    shared: Any,
    make_player: Callable[..., User],
    renewals: list[set[int]],
    stuck_log: tuple[set[int], set[int], threading.Event],
) -> None:
    ours, orphan = await sync_to_async(_two_tables)(make_player)
    slow, begun, free = stuck_log
    slow.add(orphan.pk)
    # The orphan's process is gone (another machine's lease that ran out): the keeper adopts it.
    await sync_to_async(Table.objects.filter(pk=orphan.pk).update)(
        owner="elsewhere:1:-:gone", lease_until=timezone.now() - timedelta(minutes=1)
    )
    try:
        assert await registry.get_actor(ours.pk) is not None  # starts the lease keeper
        await until(lambda: orphan.pk in begun)  # the keeper's adoption reads the orphan's log
        stuck_at = len(renewals)
        # Before, the keeper waited for that adoption and renewed nothing: the lease of the table
        # it runs lapsed, and another host would take it.
        await until(lambda: any(ours.pk in ids for ids in renewals[stuck_at:]))
        # ... and the table being adopted, its lease already taken, is renewed too
        await until(lambda: any(orphan.pk in ids for ids in renewals[stuck_at:]))
    finally:
        await _stop(free)


async def test_a_table_whose_actor_is_being_built_keeps_its_lease(
    shared: Any,
    make_player: Callable[..., User],
    renewals: list[set[int]],
    stuck_log: tuple[set[int], set[int], threading.Event],
) -> None:
    ours, joined = await sync_to_async(_two_tables)(make_player)
    slow, begun, free = stuck_log
    slow.add(joined.pk)
    try:
        assert await registry.get_actor(ours.pk) is not None  # starts the lease keeper
        # A socket's command for the other table: this process takes its lease, then reads its log.
        looking = asyncio.ensure_future(registry.locate(joined.pk))
        await until(lambda: joined.pk in begun)
        assert registry.sharing().leases.holds(joined.pk)
        stuck_at = len(renewals)
        await until(lambda: len(renewals) >= stuck_at + 3)
        # Before, only the tables with an actor were renewed: a slow read of the log let the lease
        # lapse, and the table went to another host before its actor here had even started.
        assert any(joined.pk in ids for ids in renewals[stuck_at:])
        free.set()
        assert isinstance(await looking, registry.TableActor)
    finally:
        await _stop(free)


async def test_a_lease_is_counted_from_when_it_is_written(
    shared: Any, make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = await sync_to_async(_two_tables)(make_player)
    clock = [T0]
    monkeypatch.setattr(lease.timezone, "now", lambda: clock[0])
    # The database thread every socket shares is busy (queued openings, at a host's start-up).
    busy = threading.Event()
    holding = asyncio.ensure_future(sync_to_async(busy.wait)())
    taking = asyncio.ensure_future(lease.Leases().acquire(table.pk))
    for _ in range(10):
        await asyncio.sleep(0)
    clock[0] = T0 + timedelta(seconds=12)  # the thread frees up 12 s later
    busy.set()
    await holding
    await taking
    row = await sync_to_async(Table.objects.get)(pk=table.pk)
    # Before, the lease was counted from the request: 3 s of it were left when it was written.
    assert row.lease_until == clock[0] + timedelta(seconds=lease.lease_seconds())
