"""The actor's queue: the part of the table actor that runs one job at a time and tells each
audience what a job stored.

Every change of a table is a job in this queue, run alone, in the order the jobs reach it; a job
started by a socket's command remembers that socket (its origin), whose copy of the job's events
waits for the command's answer and goes out with it (`_publish`). `TableActor` inherits this part;
what a job does is the rest of the actor's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from amigos.web.operations import logs
from amigos.web.realtime.commands import CommandError, Connection
from amigos.web.tables import rendering

if TYPE_CHECKING:
    from amigos.engine import Variant
    from amigos.web.realtime.hub import Hub
    from amigos.web.realtime.queues import OneReaderQueue

log = logging.getLogger("amigos.tables")

T = TypeVar("T")

#: A queued job: the work, the future its caller awaits, and the socket whose command it is (if any).
Job = tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any], Connection | None]

#: Tasks started without anyone awaiting them (a socket hook's job, a rebuild), kept until they end.
background: set[asyncio.Task[None]] = set()


class QueueMixin:
    """The queue, its running and stopping, and publishing, for `TableActor` (which sets the
    attributes below)."""

    id: int
    hub: Hub
    variant: Variant
    loop: asyncio.AbstractEventLoop
    broken: bool
    _queue: OneReaderQueue[Job]
    # The socket whose command the running job answers, if it came from one (see `_publish`).
    _origin: Connection | None
    _task: asyncio.Task[None] | None
    # The next deadline's timer, the jobs it started, the computer player's thinking (`actor_timer`).
    _timer: asyncio.TimerHandle | None
    _firing: set[asyncio.Task[None]]
    _thinking: asyncio.Task[None] | None

    def start(self) -> None:
        self._task = self.loop.create_task(self._run(), name=f"amigos-table-{self.id}")

    async def call(self, job: Callable[[], Awaitable[T]], origin: Connection | None = None) -> T:
        """Run ``job`` inside the actor (after every job queued before it) and return its result.
        ``origin``: the socket whose command this is, which will answer it once the job is done."""
        if self.broken:
            raise CommandError("busy", "the table is being reloaded; try again")
        future: asyncio.Future[T] = self.loop.create_future()
        self._queue.put_nowait((job, future, origin))
        try:
            return await future
        finally:
            # A refusal's traceback holds this frame, and the frame its future, which holds the
            # refusal: a cycle, which only the collector frees, and the served process runs it
            # every ten minutes (amigos.web.collector). Let go of the future, and refcounting
            # frees the refusal with it (a closed loop was refused fifty times a second, each
            # leaving some thirty objects behind).
            del future

    def post(self, job: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``job`` without waiting for it (socket hooks: a closing socket must not wait on a
        busy table); a failure is logged."""
        if self.broken:
            return

        async def run() -> None:
            try:
                await self.call(job)
            except CommandError:
                pass
            except Exception:
                log.exception("table %s: a presence job failed", self.id)

        task = self.loop.create_task(run())
        background.add(task)
        task.add_done_callback(background.discard)

    async def _run(self) -> None:
        logs.TABLE_ID.set(self.id)  # every job's log lines, and the tasks it starts, name the table
        while True:
            job, future, self._origin = await self._queue.get()
            if future.cancelled():
                continue
            try:
                result = await job()
            except BaseException as error:  # the caller gets every failure; the actor goes on
                if not future.done():
                    future.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
            else:
                if not future.done():
                    future.set_result(result)
            finally:
                # Nothing of this job waits here for the next one (a refusal in its future, say).
                self._origin = None
                del job, future

    async def stop(self) -> None:
        """Stop for good: the job under way finishes (its database work must not be cut off in
        the middle), later calls are refused, and jobs still queued are told so."""
        if self._task is not None and not self._task.done() and not self.broken:
            finished: asyncio.Future[None] = self.loop.create_future()

            async def nothing() -> None:
                return None

            self.broken = True
            self._queue.put_nowait((nothing, finished, None))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(finished, 30)
        self.broken = True
        while not self._queue.empty():
            _, future, _ = self._queue.get_nowait()
            if not future.done():
                future.set_exception(CommandError("busy", "the table is being reloaded; try again"))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in (*self._firing, self._thinking, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _publish(self, rows: list[tuple[int, str, dict[str, Any]]], now: str) -> None:
        """One `table.events` message per audience (each seat, the spectators) with all the stored
        action's log rows (version, kind, data). Most read the same for every audience (a play, a
        card), so each is encoded once (`rendering.batch_texts`; encoding was a tenth of the event
        loop's time)."""
        if not rows:
            return
        if self._origin is not None:
            # The command's socket answers it right after this job: its copy of these events waits
            # for that answer and goes out with it, one write instead of two (docs/architecture.md).
            self._origin.hold_frames()
        audiences: list[tuple[str, int | None]] = [
            (rendering.seat_topic(self.id, seat), seat) for seat in range(self.variant.players)
        ]
        audiences.append((rendering.watch_topic(self.id), None))
        texts = rendering.batch_texts(self.id, rows, [audience for _, audience in audiences], now)
        await self.hub.publish_encoded_many(
            [(topic, "table.events", text) for (topic, _), text in zip(audiences, texts, strict=True)]
        )
