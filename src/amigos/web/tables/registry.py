"""A server's table actors: at most one per table, created on demand or at start-up.

The actors of an event loop live beside its hub (`hub.features["tables"]`), so two servers in one
process (as in the tests) keep theirs apart. Code that runs outside the loop (a Django view in a
worker thread, a test) reaches it with `wake_soon`, which hands the work to the last server loop
seen, thread-safely. On start-up (`resume_all`) every unfinished table is rebuilt from its log and
stored deadlines.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

from channels.db import database_sync_to_async

from amigos.web.realtime.hub import get_hub
from amigos.web.tables import store
from amigos.web.tables.actor import Clock, TableActor

log = logging.getLogger("amigos.tables")

FEATURE = "tables"
_loop: asyncio.AbstractEventLoop | None = None
_clock: Clock | None = None


class Actors:
    def __init__(self) -> None:
        self.actors: dict[int, TableActor] = {}
        self.locks: dict[int, asyncio.Lock] = {}


def _actors() -> Actors:
    hub = get_hub()
    found = hub.features.get(FEATURE)
    if not isinstance(found, Actors):
        found = Actors()
        hub.features[FEATURE] = found
    return found


def remember_loop() -> None:
    """Note the running server loop, for `wake_soon` from other threads."""
    global _loop
    _loop = asyncio.get_running_loop()


def use_clock(clock: Clock | None) -> None:
    """Tests: actors created from now on read time from ``clock``."""
    global _clock
    _clock = clock


async def get_actor(table_id: int) -> TableActor | None:
    """The table's actor, rebuilt from the database if this loop has none yet (None: no table)."""
    remember_loop()
    registry = _actors()
    actor = registry.actors.get(table_id)
    if actor is not None and not actor.broken:
        return actor
    lock = registry.locks.setdefault(table_id, asyncio.Lock())
    async with lock:
        actor = registry.actors.get(table_id)
        if actor is not None and actor.broken:
            await actor.stop()
            registry.actors.pop(table_id, None)
            actor = None
        if actor is None:
            loaded = await database_sync_to_async(store.load)(table_id)
            if loaded is None:
                return None
            actor = TableActor(loaded, get_hub(), _clock)
            actor.start()
            registry.actors[table_id] = actor
            if loaded.status in ("inviting", "playing", "voting"):
                await actor.resume()
        return actor


async def wake(table_id: int) -> None:
    """A table was created outside its actor: load it, send its invitations or start it."""
    actor = await get_actor(table_id)
    if actor is not None:
        from amigos.web.tables import lobby

        await lobby.send_invitations(actor)


def wake_soon(table_id: int) -> None:
    """From any thread: have the server's loop wake the table (nothing to do if no server runs)."""
    loop = _loop
    if loop is None or not loop.is_running():
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        _keep(loop.create_task(_logged_wake(table_id)))
    else:
        # A fresh context: the caller's (a Django worker thread's) would make asgiref believe the
        # new task runs inside that thread and refuse its database calls.
        loop.call_soon_threadsafe(
            lambda: _keep(loop.create_task(_logged_wake(table_id))), context=contextvars.Context()
        )


_tasks: set[asyncio.Task[None]] = set()


def _keep(task: asyncio.Task[None]) -> None:
    """Hold a reference to a background task until it is done (the loop keeps only weak ones)."""
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _logged_wake(table_id: int) -> None:
    try:
        await wake(table_id)
    except Exception:
        log.exception("table %s could not be woken", table_id)


async def resume_all() -> None:
    """Process start: rebuild every unfinished table from its log and carry on."""
    remember_loop()
    for table_id in await database_sync_to_async(store.open_table_ids)():
        try:
            await get_actor(table_id)
        except Exception:
            log.exception("table %s could not be resumed", table_id)


async def stop_all() -> None:
    # Wake-ups under way first (they read and write the database), then every actor.
    pending = [task for task in _tasks if task.get_loop() is asyncio.get_running_loop()]
    if pending:
        await asyncio.wait(pending, timeout=30)
    registry = _actors()
    for actor in list(registry.actors.values()):
        await actor.stop()
    registry.actors.clear()


def local_actor(table_id: int) -> TableActor | None:
    return _actors().actors.get(table_id)
