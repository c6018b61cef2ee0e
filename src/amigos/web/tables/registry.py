"""A server's table actors: at most one per table, created on demand or at start-up.

The actors of an event loop live beside its hub (`hub.features["tables"]`), so two servers in one
process (as in the tests) keep theirs apart. Code that runs outside the loop (a Django view in a
worker thread, a test) reaches it with `forwarding.wake_soon`, which hands the work to the last
server loop seen (`server_loop`), thread-safely. On start-up (`resume_all`) every unfinished table
is rebuilt from its log and stored deadlines.

When several processes share the tables (a Redis bus), a process builds a table's actor only while
it holds the table's lease (`lease.py`); `locate` says where another live process runs it, and
`forwarding.py` sends the command there. A background task renews the leases and adopts the tables
whose owner died.

A table that ended (finished or cancelled) keeps its actor for a minute, for the pages that still
show it, and is then let go (`retire_ended`): before, every table a process had ever run stayed in
its memory, and a closed loop of 300 tables in rematch after rematch grew from 166 to 429 KB per
live table in a minute. A later command for it rebuilds the actor from the log, as after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from amigos.web.operations import metrics
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import handover, lapsed_invitations, lease, lobby, store
from amigos.web.tables.actor import Clock, Links, TableActor

log = logging.getLogger("amigos.tables")

FEATURE = "tables"
#: How long an ended table's actor stays after its end was first seen, and how often that is looked at.
RETIRE_SECONDS = 60.0
SWEEP_SECONDS = 10.0
#: How long what a table's maker holds (`preload`) may stand in for reading the table back.
PRELOAD_SECONDS = 10.0
#: The statuses of a table that no longer changes by itself.
ENDED = ("finished", "cancelled")
_loop: asyncio.AbstractEventLoop | None = None
_clock: Clock | None = None
_links: Links | None = None
_process_observer: Callable[[str, dict[str, Any]], None] | None = None


class Actors:
    def __init__(self) -> None:
        self.actors: dict[int, TableActor] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        # Several processes (docs/architecture.md, "Several processes"): this loop's leases, the
        # forwarded commands waiting for their owner's answer, and the task renewing and adopting.
        self.leases = lease.Leases()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.listening = False
        self.keeper: asyncio.Task[None] | None = None
        self.sharing = asyncio.Lock()
        # When each ended table's end was first seen (monotonic), and the task that retires them.
        self.ended: dict[int, float] = {}
        self.sweeper: asyncio.Task[None] | None = None
        # Tables just made whose actor may be built from what their maker holds (`preload`), each
        # until a moment of the monotonic clock.
        self.preloads: dict[int, tuple[store.Loaded, float]] = {}
        # The ended tables whose actors are being stopped (`retire_ended`): broken meanwhile, and
        # not to be rebuilt by the lease keeper (`rebuild_broken`).
        self.retiring: set[int] = set()


@dataclass(frozen=True)
class Elsewhere:
    """The table is run by another live process: send its commands there (`forwarding`)."""

    owner: str


def _actors(loop: asyncio.AbstractEventLoop | None = None) -> Actors:
    hub = get_hub(loop)
    found = hub.features.get(FEATURE)
    if not isinstance(found, Actors):
        found = Actors()
        hub.features[FEATURE] = found
    return found


def sharing() -> Actors:
    """This loop's registry (its lease identity and forwarded requests)."""
    return _actors()


def process_topic(identity: str) -> str:
    """The bus topic of one process: requests for the tables it runs, answers to its requests."""
    return f"tables.process.{identity}"


def observe_processes(observer: Callable[[str, dict[str, Any]], None]) -> None:
    """Who handles this process's topic (`forwarding.on_message`, registered when `forwarding` is
    imported: it builds on this module, so this module cannot import it)."""
    global _process_observer
    _process_observer = observer


async def _share(registry: Actors, loop: asyncio.AbstractEventLoop | None = None) -> bool:
    """With a bus across processes: listen on this process's topic and keep the leases (once)."""
    hub = get_hub(loop)
    if not lease.shared(hub):
        return False
    if registry.listening and registry.keeper is not None and not registry.keeper.done():
        return True
    async with registry.sharing:
        if not registry.listening:
            if _process_observer is None:
                raise RuntimeError("amigos.web.tables.forwarding is not loaded: nobody serves this process")
            await hub.observe(process_topic(registry.leases.identity), _process_observer)
            registry.listening = True
        if registry.keeper is None or registry.keeper.done():
            registry.keeper = asyncio.get_running_loop().create_task(
                _keep_leases(registry), name="amigos-table-leases"
            )
    return True


def remember_loop(loop: asyncio.AbstractEventLoop | None = None) -> asyncio.AbstractEventLoop:
    """Note the running server loop (``loop``, when the caller keeps it), for
    `forwarding.wake_soon` from other threads, and return it (every command asks for it: the
    caller reuses it instead of asking Python 3.11 again, which costs a system call each time)."""
    global _loop
    _loop = loop or asyncio.get_running_loop()
    return _loop


def use_links(links: Links) -> None:
    """What every actor built from now on tells the rest of the site (`amigos.web.tables.links`,
    set by the app's ``ready``: this module cannot import it without a cycle)."""
    global _links
    _links = links


def use_clock(clock: Clock | None) -> None:
    """Tests: actors created from now on read time from ``clock``."""
    global _clock
    _clock = clock


def preload(loaded: store.Loaded, loop: asyncio.AbstractEventLoop | None = None) -> None:
    """An actor this process builds for ``loaded.id`` (`locate`) is built from ``loaded``
    (`store.made`: a table just made, nothing stored yet) instead of the database: once, and only
    within `PRELOAD_SECONDS`.

    Why from the moment the table is made, not only while its maker wakes it: the vote's close
    names the next table, and the players' pages join it as soon as they read that, often before
    the old table's actor gets to wake it; each rematch was then read back from the database all
    the same (three statements on a database thread). The time limit is a guard: the maker wakes
    the table at once, which uses the copy or drops it (`forget_preload`), and a copy left behind
    by a failure must not stand in for a table that another process may have played since."""
    registry = _actors(loop)
    now = time.monotonic()
    for stale in [table_id for table_id, (_, until) in registry.preloads.items() if until <= now]:
        del registry.preloads[stale]
    registry.preloads[loaded.id] = (loaded, now + PRELOAD_SECONDS)


def _take_preload(registry: Actors, table_id: int) -> store.Loaded | None:
    held = registry.preloads.pop(table_id, None)
    if held is None or held[1] <= time.monotonic():
        return None
    return held[0]


def forget_preload(table_id: int, loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Drop what `preload` holds for the table, if anything (its maker has woken it)."""
    _actors(loop).preloads.pop(table_id, None)


async def locate(
    table_id: int, loop: asyncio.AbstractEventLoop | None = None, *, ended: bool = True
) -> TableActor | Elsewhere | None:
    """The table's actor here (rebuilt from the database if needed, taking the table's lease when
    processes share the tables), where it runs if another live process holds it, or None (no table).
    ``loop``: the running loop, when the caller keeps it (a socket does).

    ``ended=False``: a table that ended and whose actor is not here is not rebuilt (None, as for
    no table). Why: news that only a table in play needs (a seat's heartbeat) brought a retired
    table back from its whole log, for a minute, again and again: a socket kept across rematches
    told every table it had sat at, and a host's memory and loop lag grew for as long as it lived
    (bench/soak.py, 17 MB a minute a host)."""
    loop = remember_loop(loop)
    registry = _actors(loop)
    shared = await _share(registry, loop)

    def usable(actor: TableActor | None) -> bool:
        return actor is not None and not actor.broken and (not shared or registry.leases.holds(table_id))

    actor = registry.actors.get(table_id)
    if usable(actor):
        return actor
    if shared and actor is None:
        holder = registry.leases.holder_known(table_id)
        if holder is not None:
            return Elsewhere(holder)
    lock = registry.locks.setdefault(table_id, asyncio.Lock())
    async with lock:
        actor = registry.actors.get(table_id)
        if usable(actor):
            return actor
        if not ended and await database_sync_to_async(store.has_ended)(table_id):
            return None
        if shared:
            holder = await registry.leases.acquire(table_id)
            if holder != registry.leases.identity:
                if actor is not None:
                    log.warning("table %s: its lease went to %s; its actor here stops", table_id, holder)
                    registry.actors.pop(table_id, None)
                    await actor.stop()
                return None if holder is None else Elsewhere(holder)
        if actor is not None and actor.broken:
            await actor.stop()
            registry.actors.pop(table_id, None)
            actor = None
        if actor is None:
            loaded = _take_preload(registry, table_id)
            if loaded is None:
                loaded = await database_sync_to_async(store.load)(table_id)
            if loaded is None:
                return None
            if _links is None:
                raise RuntimeError("the tables app is not ready: no links for its actors")
            actor = TableActor(loaded, get_hub(loop), _links, _clock)
            actor.start()
            registry.actors[table_id] = actor
            if registry.sweeper is None:
                registry.sweeper = loop.create_task(_sweep(registry), name="amigos-retire-tables")
            if loaded.status in ("inviting", "playing", "voting"):
                await actor.resume()
        return actor


async def get_actor(table_id: int) -> TableActor | None:
    """The table's actor in this process (None: no such table, or another process runs it)."""
    found = await locate(table_id)
    return found if isinstance(found, TableActor) else None


_tasks: set[asyncio.Task[None]] = set()


def keep(task: asyncio.Task[None]) -> None:
    """Hold a reference to a background task until it is done (the loop keeps only weak ones);
    `stop_all` waits for them."""
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The last server loop seen (`remember_loop`), for work handed over from other threads."""
    return _loop


async def resume_all() -> None:
    """Process start: rebuild every unfinished table from its log and carry on (sharing the tables
    with other processes: only those nobody else holds). The inviting tables that can no longer
    start are cancelled first, without an actor (`cancel_lapsed`): they are not rebuilt."""
    loop = remember_loop()
    registry = _actors(loop)
    shared = await _share(registry, loop)
    await cancel_lapsed(registry.leases.identity if shared else None, loop)
    if shared:
        table_ids = await registry.leases.adoptable()
    else:
        table_ids = await database_sync_to_async(store.open_table_ids)()
    for table_id in table_ids:
        try:
            await locate(table_id)
        except Exception:
            log.exception("table %s could not be resumed", table_id)


async def cancel_lapsed(owner: str | None = None, loop: asyncio.AbstractEventLoop | None = None) -> list[int]:
    """Cancel the inviting tables that can no longer start (`lapsed_invitations.cancel_lapsed_invitations`)
    without building their actors, and tell it (`lobby.cancelled_without_actor`); the ids.
    ``owner``: this process's identity when processes share the tables."""
    now = _clock.now() if _clock is not None else timezone.now()
    done: list[lapsed_invitations.Cancelled] = await database_sync_to_async(
        lapsed_invitations.cancel_lapsed_invitations
    )(now, owner)
    await lobby.cancelled_without_actor(get_hub(loop), done, now)
    return [item.table_id for item in done]


async def _keep_leases(registry: Actors) -> None:
    """Renew this process's leases and stop the actors whose lease went elsewhere; on each beat,
    unless the last beat's is still under way, start `_adopt` beside it (rebuild broken actors,
    adopt the tables nobody holds any more).

    Why adopting runs beside the renewals, not before the next one: adopting is a table at a time
    (its lease, its log, its actor, each on the database thread every socket shares), and at
    start-up, with hundreds of tables and sockets, one table's adoption alone could outlast a
    lease. The keeper waited for it, renewed nothing meanwhile, the leases it held lapsed and other
    hosts took tables whose owner was only busy (at 300 tables across three hosts on a loaded
    machine, 55 tables changed hands 68 times in the first half-minute, their writes refused by
    the version fence). What is renewed is every lease this process holds (`Leases.held`), a table
    whose actor is still being built included: its lease was taken before its log was read, and a
    slow read let it lapse as well."""
    adopting: asyncio.Task[None] | None = None
    try:
        while True:
            await asyncio.sleep(lease.renew_seconds())
            try:
                lost = await registry.leases.renew(sorted(set(registry.actors) | registry.leases.held()))
                stopping = [registry.actors.pop(table_id) for table_id in lost if table_id in registry.actors]
                for actor in stopping:
                    log.warning("table %s: another process holds its lease; its actor here stops", actor.id)
                await asyncio.gather(*(actor.stop() for actor in stopping))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the table leases could not be renewed; trying again")
            if adopting is None or adopting.done():
                adopting = asyncio.get_running_loop().create_task(_adopt(registry), name="amigos-adoptions")
    finally:
        if adopting is not None and not adopting.done():
            adopting.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await adopting


async def _adopt(registry: Actors) -> None:
    """The lease keeper's other half: rebuild the broken actors, then adopt the tables nobody holds
    (their owner died or released them), until the next renewal is due; the rest wait for the next
    beat (the hosts starting together share the tables out instead of one taking them all)."""
    try:
        await rebuild_broken(registry)
        renew_by = time.monotonic() + lease.renew_seconds()
        for table_id in await registry.leases.adoptable():
            if time.monotonic() >= renew_by:
                break
            if table_id not in registry.actors:
                found = await locate(table_id)
                if isinstance(found, TableActor):
                    metrics.LEASES_TAKEN_OVER.inc()
                    log.info("table %s adopted by %s", table_id, registry.leases.identity)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("the tables left by other processes could not be adopted; trying again")


async def rebuild_broken(registry: Actors) -> None:
    """The lease keeper's step: rebuild the actors that broke (a failed write), not those being
    retired. Why: `actor.stop` marks an actor broken before it waits for its last job, and an
    actor retired meanwhile was rebuilt here and put back in the registry (a test saw it once)."""
    for table_id, actor in list(registry.actors.items()):
        if actor.broken and table_id not in registry.retiring:
            await locate(table_id)


async def _sweep(registry: Actors) -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            await retire_ended(registry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the ended tables could not be let go; trying again")


async def retire_ended(registry: Actors | None = None, now: float | None = None) -> list[int]:
    """Stop and forget the actors of the tables that ended at least `RETIRE_SECONDS` ago (by
    ``now``, monotonic), releasing their leases when processes share the tables; the ids let go.
    An actor is stopped before it leaves the registry: a command that finds it meanwhile is
    refused with `busy` or, once it is gone, rebuilds it from the log."""
    registry = registry or _actors()
    now = time.monotonic() if now is None else now
    due = []
    for table_id in registry.ended.keys() - registry.actors.keys():
        del registry.ended[table_id]  # its actor left otherwise (its lease went to another process)
    for table_id, actor in list(registry.actors.items()):
        if actor.status not in ENDED:
            registry.ended.pop(table_id, None)
        elif now - registry.ended.setdefault(table_id, now) >= RETIRE_SECONDS:
            due.append((table_id, actor))
    retired = [table_id for table_id, _ in due]
    registry.retiring.update(retired)
    try:
        # All at once: each stop waits a few turns of the loop (the job under way, then each task
        # it cancels), and a busy loop's turn lasts tens of milliseconds, so one stop after another
        # fell behind a closed loop of 300 tables, which ends five matches a second. Stopping never
        # raises (`TableActor.stop`); the lease keeper leaves these tables alone meanwhile
        # (`retiring`).
        await asyncio.gather(*(actor.stop() for _, actor in due))
        for table_id, actor in due:
            registry.ended.pop(table_id, None)
            if registry.actors.get(table_id) is actor:
                del registry.actors[table_id]
            lock = registry.locks.get(table_id)
            if lock is not None and not lock.locked():
                del registry.locks[table_id]
    finally:
        registry.retiring.difference_update(retired)
    if retired and registry.listening:
        await registry.leases.release(retired)
    return retired


async def stop_all() -> None:
    # Wake-ups under way first (they read and write the database), then every actor; the leases
    # are released last, so another process adopts the tables at once.
    pending = [task for task in _tasks if task.get_loop() is asyncio.get_running_loop()]
    if pending:
        await asyncio.wait(pending, timeout=30)
    registry = _actors()
    for task in (registry.keeper, registry.sweeper):
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    registry.keeper = registry.sweeper = None
    held = list(registry.actors)
    for actor in list(registry.actors.values()):
        await actor.stop()
    registry.actors.clear()
    # The matches that ended last are still on their way to the archive: a stop that left them
    # would leave them to the next start (`handover.hand_over_left`).
    if not await handover.settled(timeout=30):
        log.warning("the archive had not taken every ended match when the tables stopped")
    if registry.listening and held:
        try:
            await registry.leases.release(held)
        except Exception:
            log.exception("the table leases could not be released; they will expire")


def local_actor(table_id: int) -> TableActor | None:
    return _actors().actors.get(table_id)
