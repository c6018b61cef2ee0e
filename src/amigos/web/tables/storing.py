"""Storing tables' events off the event loop: the one place the actors' writes go through.

Writes are grouped: while one transaction is being written, the writes that arrive meanwhile wait
and then go together in the next (`store.append_many`), so a busy server commits (and flushes the
database's log) once for many plays instead of once each. Each actor still awaits its own write
before it tells anyone, and it has at most one write in flight, so a table's writes stay in order.

With SQLite the transactions run on Django's single database thread (SQLite takes one writer at a
time), one at a time. With PostgreSQL, `LANES` groups are written at once, so one slow commit does
not hold every table: a group that is one statement (every play's) on the loop's own connections
(`loop_store`), any other on a small pool of threads, each keeping its own connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.db import DatabaseError, connection

from amigos.web.tables import store
from amigos.web.tables.loop_store import LoopConnections


@functools.cache
def _postgresql() -> bool:
    return connection.vendor == "postgresql"


#: How many grouped transactions may be written at once with PostgreSQL (each on its own thread
#: and connection); SQLite writes one at a time.
LANES = 2


@dataclass(frozen=True, slots=True)
class _Waiting:
    """One write waiting for its group, with the future its actor awaits."""

    table_id: int
    expected: int
    write: store.Write
    future: asyncio.Future[int]


class Writer:
    """Groups the writes of one event loop into as few transactions as the database's pace allows.

    With PostgreSQL a group goes straight to a store thread, and the thread hands the outcomes back
    with one callback on the loop, which answers every actor of the group and starts the next
    group. Each pass through the loop waits for one turn of it, and a busy loop's turn lasts tens
    of milliseconds (every actor a finished group wakes renders and sends in the same turn):
    awaiting the thread through asgiref's `sync_to_async` took four turns to reach the actors
    (its executor future, its shield, the writer's task, then the actors'), this takes two. At a
    thousand tables that wait, not the database, was most of a slow write's time."""

    def __init__(self, lanes: int, loop: asyncio.AbstractEventLoop) -> None:
        self.lanes = lanes
        self.loop = loop
        self.waiting: list[_Waiting] = []
        self.writing = 0
        self._starting = False
        #: How many writes each of the latest transactions carried, newest last (for the tests).
        self.groups: deque[int] = deque(maxlen=100)
        # The loop keeps only weak references to tasks: the groups' tasks are held here.
        self._tasks: set[asyncio.Task[None]] = set()
        self.connections = LoopConnections()

    async def append(self, table_id: int, expected: int, write: store.Write) -> int:
        future: asyncio.Future[int] = self.loop.create_future()
        self.waiting.append(_Waiting(table_id, expected, write, future))
        if self.writing < self.lanes and not self._starting:
            # At the loop's next turn, so the writes the actors make in this one go together.
            self._starting = True
            self._hold(self.loop.create_task(self._start(), name="amigos-store-writer"))
        return await future

    async def _start(self) -> None:
        """The next group, written in this task. Why a task started with the first write rather
        than a callback that then starts one: the task's first step comes at the same next turn
        the callback did, and the statement leaves in that step; the callback's task began only
        at the turn after, one more pass through a busy loop before every play's write."""
        self._starting = False
        if self.waiting and self.writing < self.lanes and (on_loop := self._send()) is not None:
            await on_loop

    def _begin(self) -> None:
        """Write everything waiting as one group, on a lane of its own (a lane just freed)."""
        if (on_loop := self._send()) is not None:
            self._hold(self.loop.create_task(on_loop, name="amigos-store-writer"))

    def _send(self) -> Coroutine[Any, Any, None] | None:
        """Everything waiting becomes the next group, which takes a lane. A group of one statement
        on PostgreSQL is written on the loop's own connection: its write is given back, for the
        caller to run in a task. Any other is handed to its thread here (None)."""
        group, self.waiting = self.waiting, []
        self.writing += 1
        self.groups.append(len(group))
        entries = [(entry.table_id, entry.expected, entry.write) for entry in group]
        if _postgresql() and store.one_statement(entries):
            return self._write_on_loop(group, entries)
        if _postgresql():
            self._on_store_thread(group, entries, _append_on_store_thread)
        else:  # SQLite: on Django's database thread, the one SQLite's single writer allows.
            task = self.loop.create_task(
                database_sync_to_async(store.append_many)(entries), name="amigos-store-writer"
            )
            self._hold(task)
            task.add_done_callback(functools.partial(self._finish, group))
        return None

    def _hold(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_store_thread(
        self,
        group: list[_Waiting],
        entries: list[tuple[int, int, store.Write]],
        write: Callable[[list[tuple[int, int, store.Write]]], list[store.Outcome]],
    ) -> None:
        on_thread = _store_pool().submit(write, entries)
        on_thread.add_done_callback(functools.partial(self._hand_back, group))

    async def _write_on_loop(
        self, group: list[_Waiting], entries: list[tuple[int, int, store.Write]]
    ) -> None:
        """A one-statement group on the loop's own connection; the actors are answered as soon as
        it is read. If it fails, whatever the reason, its writes are tried again one by one on a
        store thread (as `store.append_many` does with a failed group), and answered from there."""
        try:
            outcomes = await self.connections.write(entries)
        except asyncio.CancelledError:  # the loop is ending: so are the actors
            self._answer(group, None)
            raise
        except Exception:
            self._on_store_thread(group, entries, _append_each_on_store_thread)
            return
        self._answer(group, outcomes)

    def _hand_back(self, group: list[_Waiting], on_thread: Future[list[store.Outcome]]) -> None:
        """On the store thread, once its group is written: answer on the loop."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            self.loop.call_soon_threadsafe(self._finish, group, on_thread)

    def _finish(
        self, group: list[_Waiting], done: Future[list[store.Outcome]] | asyncio.Future[list[store.Outcome]]
    ) -> None:
        """On the loop, once a group's write is over, whichever thread wrote it."""
        if done.cancelled():  # the loop is ending: so are the actors
            self._answer(group, None)
            return
        try:
            outcomes = list(done.result())
        except Exception as failure:  # the thread itself failed: nobody's write is known stored
            outcomes = [failure] * len(group)
        self._answer(group, outcomes)

    def _answer(self, group: list[_Waiting], outcomes: list[store.Outcome] | None) -> None:
        """Give each write of a finished group its outcome (``None``: cancelled), then free the lane
        for what arrived meanwhile."""
        self.writing -= 1
        for entry, outcome in zip(group, [None] * len(group) if outcomes is None else outcomes, strict=True):
            if entry.future.done():  # its actor was cancelled meanwhile
                continue
            if outcome is None:
                entry.future.cancel()
            elif isinstance(outcome, Exception):
                entry.future.set_exception(outcome)
            else:
                entry.future.set_result(outcome)
        if self.waiting and self.writing < self.lanes and not self.loop.is_closed():
            self._begin()


_writers: dict[asyncio.AbstractEventLoop, Writer] = {}


def writer(loop: asyncio.AbstractEventLoop | None = None) -> Writer:
    """The writer of ``loop``, by default the running one (tests run each in a loop of its own).
    An actor names its own loop: Python 3.11's `asyncio.get_running_loop()` makes a system call
    (getpid) on every call."""
    loop = loop or asyncio.get_running_loop()
    found = _writers.get(loop)
    if found is None:
        for closed in [known for known in _writers if known.is_closed()]:
            _writers.pop(closed).connections.close()
        found = _writers[loop] = Writer(LANES if _postgresql() else 1, loop)
    return found


async def append(
    table_id: int, expected: int, write: store.Write, loop: asyncio.AbstractEventLoop | None = None
) -> int:
    """Store ``write`` (`store.append`'s contract: the new version, or `store.LostWrite`), grouped
    with the other tables' writes that are waiting in ``loop`` (by default the running one)."""
    return await writer(loop).append(table_id, expected, write)


def _append_on_store_thread(
    entries: list[tuple[int, int, store.Write]],
    write: Callable[[list[tuple[int, int, store.Write]]], list[store.Outcome]] | None = None,
) -> list[store.Outcome]:
    """On a store thread, whose connection stays open from one group to the next. Channels' wrapper
    (`database_sync_to_async`) would treat every group as a new request and make Django check the
    connection first (``SELECT 1``): one more round trip to the database each time. Instead a
    database error closes the connection: the actors are rebuilt and the next write connects
    afresh (after a database restart, say)."""
    outcomes = (write or store.append_many)(entries)
    if any(isinstance(outcome, DatabaseError) for outcome in outcomes):
        connection.close()
    return outcomes


def _append_each_on_store_thread(entries: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
    """`_append_on_store_thread` for the writes of a group that failed on the loop: one by one."""
    return _append_on_store_thread(entries, store.append_each)


@functools.cache
def _store_pool() -> ThreadPoolExecutor:
    """The store threads of the process (one per lane), shared by every event loop's writer so
    their connections are the same few whatever the number of loops (tests run many)."""
    return ThreadPoolExecutor(LANES, thread_name_prefix="amigos-store")


def close() -> None:
    """Let the store threads end, and their connections with them, and close the loops' idle
    connections (a test session does this before it drops its database, which PostgreSQL refuses
    while a connection is open)."""
    for each in list(_writers.values()):
        each.connections.close()
    if _store_pool.cache_info().currsize:
        _store_pool().shutdown(wait=True)
        _store_pool.cache_clear()
        gc.collect()
