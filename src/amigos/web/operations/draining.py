"""Whether this process is winding down, and the pause that lets the proxy see it first.

A process is *draining* from the moment it is asked to stop (SIGTERM, a deploy; or the server's
lifespan shutdown) until it exits: `/readyz` then answers 503, so a proxy or an orchestrator that
watches it stops sending new players there, while the tables it runs are handed over by the
normal stop (`registry.stop_all` releases their leases; another process adopts them at once).

uvicorn stops listening as soon as it takes a SIGTERM, so a readiness check would never see the
draining state. `install` therefore puts a handler in front of the server's own: the first SIGTERM
marks the process draining and passes the signal on only `AMIGOS_DRAIN_SECONDS` later (0: at
once, as before); a second SIGTERM, or SIGINT (Ctrl+C in a terminal), stops at once.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from amigos.web.operations import metrics

_draining = False
#: Marks the handlers `install` set, so a second install (a second server loop) wraps nothing twice.
_MARK = "_amigos_drains"


def draining() -> bool:
    return _draining


def begin() -> None:
    """The process is stopping: from now on it is not ready."""
    global _draining
    _draining = True
    metrics.DRAINING.set(1)


def reset() -> None:
    """Tests: the process serves again."""
    global _draining
    _draining = False
    metrics.DRAINING.set(0)


def install(seconds: float, loop: asyncio.AbstractEventLoop) -> bool:
    """Put the drain in front of the SIGTERM and SIGINT handlers the server set (uvicorn's); False
    when it cannot (not the main thread, as in tests that run a server in a thread, or no Python
    handler to pass the signal on to)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    installed = False
    for number in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(number)
        if not callable(previous) or getattr(previous, _MARK, False):
            continue
        signal.signal(number, _drain_handler(previous, seconds, loop))
        installed = True
    return installed


def _drain_handler(
    previous: Callable[[int, FrameType | None], Any], seconds: float, loop: asyncio.AbstractEventLoop
) -> Callable[[int, FrameType | None], None]:
    def handle(number: int, frame: FrameType | None) -> None:
        first = not _draining
        begin()
        if first and number == signal.SIGTERM and seconds > 0:
            # A signal handler runs between two bytecodes of the loop's own code: only the
            # thread-safe entry may touch the loop from here.
            loop.call_soon_threadsafe(loop.call_later, seconds, previous, number, None)
            return
        previous(number, frame)

    setattr(handle, _MARK, True)
    return handle
