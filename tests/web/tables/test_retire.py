"""An ended table's actor leaves the process's memory a minute after the end (regression: every
table a process ever ran stayed in it), and the table does not wait for the archive at its match's
end (regression: a wave of match ends queued the archive's work ahead of every table's)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.summary import analyse
from amigos.web.tables import attendance, handover, registry, services, thinking
from amigos.web.tables.actor import TableActor
from amigos.web.tables.models import MatchRecord
from tests.web.archive.records import record_obj
from tests.web.tables.support import Recorder
from tests.web.tables.test_actor import against_computers, play_my_turns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_registry")]


def whole_seconds() -> float:
    """Now, on the monotonic clock, cut to a whole second: ``start + RETIRE_SECONDS - start`` is
    then exactly ``RETIRE_SECONDS`` (with a fraction, float rounding made it a hair less now and
    then, and a table due at that moment was not let go; CI failed on it once)."""
    return float(math.floor(time.monotonic()))


async def finished_table(make_player: Callable[..., User]) -> tuple[User, Any, Recorder]:
    """A table against computers whose match I played to its end and whose vote I closed."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await play_my_turns(actor, me, user)
    await actor.call(lambda: actor.vote(user.pk, actor.version, "communicate"))
    assert actor.status == "finished"
    return user, actor, me


async def by_hand_only() -> None:
    """Stop this loop's background sweep and lease keeper: the test moves the clock itself, and a
    sweep on the real clock in between (on a loaded machine a match can outlast its ten seconds)
    would note the end at another moment than the test's."""
    actors = registry.sharing()
    for task in (actors.sweeper, actors.keeper):
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    actors.sweeper = actors.keeper = None


async def test_an_ended_table_is_let_go_a_minute_after_its_end_and_comes_back_from_its_log(
    make_player: Callable[..., User],
) -> None:
    user, actor, _ = await finished_table(make_player)
    other = await sync_to_async(make_player)("Beto")
    table = await sync_to_async(services.play_against_computer)(
        user=other, variant="amigos-100", players=None, level="easy"
    )
    playing = await registry.get_actor(table.pk)
    assert playing is not None
    # Beto stays at his table: one that everyone left ends by itself (and is then let go too).
    await playing.call(lambda: playing.join(Recorder(other.pk), True, None))
    await by_hand_only()
    start = whole_seconds()
    assert await registry.retire_ended(now=start) == []  # its end is seen now
    later = start + registry.RETIRE_SECONDS - 1
    assert await registry.retire_ended(now=later) == []
    assert registry.local_actor(actor.id) is actor
    assert await registry.retire_ended(now=start + registry.RETIRE_SECONDS) == [actor.id]
    assert registry.local_actor(actor.id) is None
    assert actor.broken  # stopped: a command that still held it is refused, not lost
    assert registry.local_actor(playing.id) is playing  # a table in play stays, however long
    assert await registry.retire_ended(now=start + 100 * registry.RETIRE_SECONDS) == []
    # a page that asks for the ended table again gets it, rebuilt from its log
    again = await registry.get_actor(actor.id)
    assert again is not None and again is not actor
    assert (again.status, again.version) == ("finished", actor.version)
    me = Recorder(user.pk)
    await again.call(lambda: again.join(me, True, None))
    snapshots = [payload for kind, payload in me.received if kind == "table.snapshot"]
    assert snapshots[-1]["table"]["status"] == "finished"


async def test_the_table_goes_on_while_the_archive_takes_its_match(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = handover._archive
    let_go = threading.Event()

    def slow(*args: Any, **options: Any) -> None:
        assert let_go.wait(60), "the test never let the archive go on"
        archive(*args, **options)

    monkeypatch.setattr(handover, "_archive", slow)
    try:
        _, actor, _ = await finished_table(make_player)  # the vote after the match end answered
        row = await MatchRecord.objects.aget(table_id=actor.id, number=1)
        assert row.ended_at is not None and not row.archived
        assert not await handover.settled(timeout=0.05)
    finally:
        let_go.set()
    assert await handover.settled(timeout=60)
    assert (await MatchRecord.objects.aget(table_id=actor.id, number=1)).archived
    assert await sync_to_async(handover.settle)(timeout=0)


async def test_a_match_is_archived_when_the_worker_processes_fail(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record's analysis runs in the computer players' pool; a broken pool costs no match."""

    class Broken:
        def submit(self, *args: Any) -> Any:
            raise BrokenProcessPool("a worker was killed")

    monkeypatch.setattr(thinking, "executor", Broken)
    _, actor, _ = await finished_table(make_player)
    assert await handover.settled(timeout=60)
    assert (await MatchRecord.objects.aget(table_id=actor.id, number=1)).archived


def test_the_analysis_of_a_broken_record_is_refused_from_the_worker() -> None:
    with pytest.raises(ArchiveError) as refused:
        handover._analysis({"format": "nothing like a record"})
    assert refused.value.code == "record-invalid"


def test_a_worker_process_analyses_a_record_as_this_process_does(settings: Any) -> None:
    settings.AMIGOS_BOT_PROCESSES = 1
    thinking.shutdown(wait=True)  # the tests' thread pool goes; a real worker process comes
    try:
        record = record_obj("amigos-100", seed=3)
        assert handover._analysis(record) == analyse(record)
    finally:
        thinking.shutdown(wait=True)


async def test_a_let_go_actor_is_freed(make_player: Callable[..., User]) -> None:
    """Nothing keeps a retired actor alive (a subscription, a timer, a lock, a writer): the memory
    of an ended table comes back."""
    _, actor, me = await finished_table(make_player)
    table_id, kept = actor.id, weakref.ref(actor)
    del actor
    await me.close()  # its page closes
    await by_hand_only()
    start = whole_seconds()
    await registry.retire_ended(now=start)
    await registry.retire_ended(now=start + registry.RETIRE_SECONDS)
    assert registry.local_actor(table_id) is None
    await asyncio.sleep(0)  # the stopped tasks' callbacks run
    gc.collect()
    assert kept() is None, [type(holder).__name__ for holder in gc.get_referrers(kept())]


async def _heartbeat(socket: Recorder) -> None:
    """The socket's heartbeat, as the socket tier runs it, and the news it sends on its way."""
    await attendance.beat(socket)
    await asyncio.gather(*attendance._tasks)


async def test_a_heartbeat_does_not_bring_back_a_table_that_ended_and_the_socket_forgets_its_seat(
    make_player: Callable[..., User],
) -> None:
    """Regression (bench/soak.py: each host grew 17 MB a minute): a socket kept across rematches
    stays seated, for the socket tier, at every table it sat at; each heartbeat told each of them
    and rebuilt every retired one from its log, for a minute, again and again."""
    user, actor, me = await finished_table(make_player)
    seat = actor.seat_of(user.pk)
    assert seat is not None
    attendance.seated(me, actor.id, seat)
    await by_hand_only()
    await _heartbeat(me)  # the ended table is still here: the seat is let go at once
    assert attendance.seats_of(me) == set()
    attendance.seated(me, actor.id, seat)
    start = whole_seconds()
    await registry.retire_ended(now=start)
    assert await registry.retire_ended(now=start + registry.RETIRE_SECONDS) == [actor.id]
    await _heartbeat(me)
    assert registry.local_actor(actor.id) is None  # not rebuilt
    assert attendance.seats_of(me) == set()
    assert await registry.locate(actor.id, ended=False) is None
    assert registry.local_actor(actor.id) is None
    again = await registry.locate(actor.id)  # a page that asks for it still gets it
    assert isinstance(again, TableActor) and again.status == "finished"


async def test_a_heartbeat_keeps_the_seat_of_a_table_in_play(make_player: Callable[..., User]) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    seat = actor.seat_of(user.pk)
    assert seat is not None
    attendance.seated(me, actor.id, seat)
    await _heartbeat(me)
    assert attendance.seats_of(me) == {(actor.id, seat)}
    assert await registry.locate(actor.id, ended=False) is actor


async def test_an_actor_being_retired_is_not_rebuilt_by_the_lease_keeper(
    make_player: Callable[..., User],
) -> None:
    """`actor.stop` marks the actor broken before it waits for its last job; the lease keeper
    rebuilds broken actors, and one that ran meanwhile put a retired table's actor back
    (regression: `test_a_let_go_actor_is_freed` failed so once on PostgreSQL and Redis)."""
    _, actor, _ = await finished_table(make_player)
    table_id = actor.id
    await by_hand_only()
    stopping, release = asyncio.Event(), asyncio.Event()
    real_stop = actor.stop
    calls = []

    async def slow_stop() -> None:
        calls.append(1)
        if len(calls) == 1:  # the retirement's stop waits here, the actor already broken
            actor.broken = True
            stopping.set()
            await release.wait()
        await real_stop()

    actor.stop = slow_stop
    start = whole_seconds()
    await registry.retire_ended(now=start)
    retiring = asyncio.create_task(registry.retire_ended(now=start + registry.RETIRE_SECONDS))
    await stopping.wait()
    await registry.rebuild_broken(registry.sharing())  # the keeper's step, meanwhile
    release.set()
    assert await retiring == [table_id]
    assert registry.local_actor(table_id) is None
    assert not registry.sharing().retiring


async def test_the_ended_tables_due_are_stopped_together() -> None:
    """Each stop waits a few turns of the loop; one after another, a busy server let go of fewer
    tables a second than a closed loop ends, and the ended actors piled up. Here no stop can end
    before every one has begun: stopped one at a time, the sweep would never end."""
    begun: list[int] = []
    everyone = asyncio.Event()

    class SlowToStop:
        status = "finished"

        def __init__(self, table_id: int) -> None:
            self.id = table_id

        async def stop(self) -> None:
            begun.append(self.id)
            if len(begun) == 3:
                everyone.set()
            await everyone.wait()

    actors = registry.Actors()
    actors.actors = {table_id: SlowToStop(table_id) for table_id in (1, 2, 3)}  # type: ignore[misc]
    start = whole_seconds()
    assert await registry.retire_ended(actors, now=start) == []
    retired = await asyncio.wait_for(
        registry.retire_ended(actors, now=start + registry.RETIRE_SECONDS), timeout=60
    )
    assert sorted(retired) == [1, 2, 3] and sorted(begun) == [1, 2, 3]
    assert actors.actors == {} and actors.ended == {} and actors.retiring == set()
