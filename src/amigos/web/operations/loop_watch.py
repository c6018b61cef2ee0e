"""A watch on the event loop from a thread of its own: how late the loop runs what it is handed,
and, when it runs nothing for a while, a warning with the Python stack it is stuck in.

Why: one event loop serves every socket and table of a process, so a job that never yields
freezes all of them, and a frozen loop cannot say so itself. Such a freeze cost weeks to find: the
table timer once fed the pure table a deadline it could not see as due, again and again without
yielding, and a host fell silent for 30 s at a time (its leases lapsed, other hosts took its
tables, its players were judged away). Only native stacks taken from outside showed where. This
watch puts that in the log of every served process: after ``stall_seconds`` without the loop
running a callback, one warning naming the stack; when the loop runs again, one line with how
long it was gone. Each round's lateness also goes to the ``amigos_event_loop_lag_seconds``
histogram of `/metrics`.

The watch costs one thread asleep most of the time and one callback a period on the loop.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

from amigos.web.operations import metrics

log = logging.getLogger("amigos.loop")


@dataclass
class LoopWatch:
    """Watches ``loop`` (run by the thread that starts the watch) every ``period_seconds``."""

    loop: asyncio.AbstractEventLoop
    stall_seconds: float = 5.0
    period_seconds: float = 1.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _loop_thread: int = 0
    # The callback handed to the loop and not run yet: `stop` runs it itself.
    _pending: threading.Event | None = None

    def start(self) -> None:
        """Start watching; called from the loop's own thread (its stack is the one reported)."""
        self._loop_thread = threading.get_ident()
        self._thread = threading.Thread(target=self._watch, name="amigos-loop-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching. Called from the loop's thread (the lifespan's shutdown), which then
        cannot run a callback the watch is waiting for: the callback is marked run here, or the
        watch would wait out ``stall_seconds`` and report the very wait for itself as a stall."""
        self._stop.set()
        pending = self._pending
        if pending is not None:
            pending.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.period_seconds + self.stall_seconds + 1)

    def _watch(self) -> None:
        while not self._stop.wait(self.period_seconds):
            ran = self._pending = threading.Event()
            if self._stop.is_set():
                return  # `stop` came before it could see this round's callback
            asked = time.monotonic()
            try:
                self.loop.call_soon_threadsafe(ran.set)
            except RuntimeError:
                return  # the loop closed
            if not ran.wait(self.stall_seconds):
                self._stalled(ran, asked)
            if self._stop.is_set():
                return
            metrics.LOOP_LAG.observe(time.monotonic() - asked)

    def _stalled(self, ran: threading.Event, asked: float) -> None:
        """The loop ran nothing for ``stall_seconds``: say where it is, then wait for it."""
        frame = sys._current_frames().get(self._loop_thread)
        where = "".join(traceback.format_stack(frame)) if frame is not None else "(no stack)\n"
        log.warning(
            "the event loop has run nothing for %.1f s; it is in:\n%s",
            time.monotonic() - asked,
            where.rstrip(),
        )
        while not ran.wait(self.period_seconds):
            if self._stop.is_set():
                return
        log.warning("the event loop runs again after %.1f s", time.monotonic() - asked)


_watches: dict[asyncio.AbstractEventLoop, LoopWatch] = {}


def start(loop: asyncio.AbstractEventLoop, stall_seconds: float) -> LoopWatch | None:
    """Watch ``loop`` (once however often asked; not at all for ``stall_seconds`` 0)."""
    if stall_seconds <= 0:
        return None
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = LoopWatch(loop, stall_seconds, min(1.0, stall_seconds / 2))
        watch.start()
    return watch


def stop(loop: asyncio.AbstractEventLoop) -> None:
    watch = _watches.pop(loop, None)
    if watch is not None:
        watch.stop()
