"""Storing tables' events off the event loop: the one place the actors' writes go through.

Writes are grouped: while one transaction is being written, the writes that arrive meanwhile wait
and then go together in the next (`store.append_many`), so a busy server commits (and flushes the
database's log) once for many plays instead of once each. Each actor still awaits its own write
before it tells anyone, and it has at most one write in flight, so a table's writes stay in order.

With SQLite the transactions run on Django's single database thread (SQLite takes one writer at a
time), one at a time. With PostgreSQL they run on a small pool of threads, each keeping its own
connection, `LANES` transactions at once, so one slow commit does not hold every table.
"""

from __future__ import annotations

import asyncio
import functools
import gc
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import DatabaseError, connection

from amigos.web.tables import store


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
    """Groups the writes of one event loop into as few transactions as the database's pace allows."""

    def __init__(self, lanes: int) -> None:
        self.lanes = lanes
        self.waiting: list[_Waiting] = []
        self.writing = 0
        #: How many writes each of the latest transactions carried, newest last (for the tests).
        self.groups: deque[int] = deque(maxlen=100)
        # The loop keeps only weak references to tasks: the draining ones are held here.
        self._draining: set[asyncio.Task[None]] = set()

    async def append(self, table_id: int, expected: int, write: store.Write) -> int:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append(_Waiting(table_id, expected, write, future))
        if self.writing < self.lanes:
            self.writing += 1
            task = asyncio.get_running_loop().create_task(self._drain(), name="amigos-store-writer")
            self._draining.add(task)
            task.add_done_callback(self._draining.discard)
        return await future

    async def _drain(self) -> None:
        """Write what is waiting, group after group, until nothing is (then free this lane)."""
        try:
            while self.waiting:
                group, self.waiting = self.waiting, []
                self.groups.append(len(group))
                await self._write(group)
        finally:
            self.writing -= 1

    async def _write(self, group: list[_Waiting]) -> None:
        entries = [(entry.table_id, entry.expected, entry.write) for entry in group]
        try:
            outcomes = await self._run(entries)
        except Exception as failure:  # the thread itself failed: nobody's write is known stored
            outcomes = [failure] * len(group)
        for entry, outcome in zip(group, outcomes, strict=True):
            if entry.future.done():  # its actor was cancelled meanwhile
                continue
            if isinstance(outcome, Exception):
                entry.future.set_exception(outcome)
            else:
                entry.future.set_result(outcome)

    async def _run(self, entries: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
        if not _postgresql():
            return list(await database_sync_to_async(store.append_many)(entries))
        on_pool = sync_to_async(_append_on_store_thread, thread_sensitive=False, executor=_store_pool())
        return list(await on_pool(entries))


def _append_on_store_thread(entries: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
    """On a store thread, whose connection stays open from one group to the next. Channels' wrapper
    (`database_sync_to_async`) would treat every group as a new request and make Django check the
    connection first (``SELECT 1``): one more round trip to the database each time. Instead a
    database error closes the connection: the actors are rebuilt and the next write connects
    afresh (after a database restart, say)."""
    outcomes = store.append_many(entries)
    if any(isinstance(outcome, DatabaseError) for outcome in outcomes):
        connection.close()
    return outcomes


@functools.cache
def _store_pool() -> ThreadPoolExecutor:
    """The store threads of the process (one per lane), shared by every event loop's writer so
    their connections are the same few whatever the number of loops (tests run many)."""
    return ThreadPoolExecutor(LANES, thread_name_prefix="amigos-store")


_writers: dict[asyncio.AbstractEventLoop, Writer] = {}


def writer() -> Writer:
    """The writer of the running event loop (tests run each in a loop of its own)."""
    loop = asyncio.get_running_loop()
    found = _writers.get(loop)
    if found is None:
        for closed in [known for known in _writers if known.is_closed()]:
            del _writers[closed]
        found = _writers[loop] = Writer(LANES if _postgresql() else 1)
    return found


async def append(table_id: int, expected: int, write: store.Write) -> int:
    """Store ``write`` (`store.append`'s contract: the new version, or `store.LostWrite`), grouped
    with the other tables' writes that are waiting."""
    return await writer().append(table_id, expected, write)


def close() -> None:
    """Let the store threads end, and their connections with them (a test session does this before
    it drops its database, which PostgreSQL refuses while a connection is open)."""
    if _store_pool.cache_info().currsize:
        _store_pool().shutdown(wait=True)
        _store_pool.cache_clear()
        gc.collect()
