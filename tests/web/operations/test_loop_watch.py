"""The watch on the event loop (amigos.web.operations.loop_watch): a loop that runs nothing for a
while is reported with the stack it is stuck in, then again when it runs; each round's lateness
goes to `/metrics`; the served site starts the watch with its lifespan and stops it after.

Nothing here waits on a wall-clock figure to pass or fail: the stuck job stays stuck until the
watch has spoken (a handler on the log lets it go), and every wait has only a bound against a hang.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.test import override_settings

from amigos.web.operations import draining, loop_watch, metrics
from amigos.web.probes import Operations

#: Bounds a hang of the machine, never a figure under test.
HANG = 60.0


class Heard(logging.Handler):
    """Keeps the watch's warnings and lets waiting threads know when one came."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []
        self.came = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
        self.came.set()


def lag_count() -> float:
    return sum(
        sample.value
        for family in metrics.LOOP_LAG.collect()
        for sample in family.samples
        if sample.name.endswith("_count")
    )


def stuck_in_a_table_timer(heard: Heard) -> None:
    """Blocks the loop's thread (as the table timer's spin did) until the watch has reported it."""
    assert heard.came.wait(HANG), "the watch never reported the stuck loop"


async def test_a_stuck_loop_is_reported_with_its_stack_and_again_when_it_runs() -> None:
    heard = Heard()
    logger = logging.getLogger("amigos.loop")
    logger.addHandler(heard)
    watch = loop_watch.LoopWatch(asyncio.get_running_loop(), stall_seconds=0.2, period_seconds=0.05)
    before = lag_count()
    watch.start()
    try:
        stuck_in_a_table_timer(heard)
        deadline = time.monotonic() + HANG
        while len(heard.messages) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    finally:
        watch.stop()
        logger.removeHandler(heard)
    stalled, back = heard.messages[:2]
    assert stalled.startswith("the event loop has run nothing for")
    assert "stuck_in_a_table_timer" in stalled  # the stack names the job that does not yield
    assert back.startswith("the event loop runs again after")
    assert lag_count() > before


async def test_a_running_loop_has_its_lateness_counted_and_nothing_said() -> None:
    heard = Heard()
    logger = logging.getLogger("amigos.loop")
    logger.addHandler(heard)
    watch = loop_watch.LoopWatch(asyncio.get_running_loop(), stall_seconds=HANG, period_seconds=0.01)
    before = lag_count()
    watch.start()
    try:
        deadline = time.monotonic() + HANG
        while lag_count() < before + 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    finally:
        watch.stop()
        logger.removeHandler(heard)
    assert lag_count() >= before + 3
    assert heard.messages == []


class Scheduling:
    """The loop as the watch sees it, telling when the watch has handed it a callback."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.handed = threading.Event()

    def call_soon_threadsafe(self, callback: Callable[[], object]) -> None:
        self.loop.call_soon_threadsafe(callback)
        self.handed.set()


async def test_stopping_while_a_callback_waits_is_no_stall() -> None:
    """Regression: the lifespan's shutdown stops the watch from the loop's own thread, which then
    cannot run a callback the watch just handed it; the watch waited out its stall time and
    reported the stop itself as a stall. Now the stop releases it: no warning, the thread ends."""
    heard = Heard()
    logger = logging.getLogger("amigos.loop")
    logger.addHandler(heard)
    scheduling = Scheduling(asyncio.get_running_loop())
    watch = loop_watch.LoopWatch(scheduling, stall_seconds=HANG, period_seconds=0.01)  # type: ignore[arg-type]
    try:
        watch.start()
        assert scheduling.handed.wait(HANG)  # the loop's thread is held: the callback cannot run
        watch.stop()
    finally:
        logger.removeHandler(heard)
    assert watch._thread is not None and not watch._thread.is_alive()
    assert heard.messages == []


@override_settings(AMIGOS_LOOP_STALL_SECONDS=30, AMIGOS_DRAIN_SECONDS=0)
async def test_the_site_watches_its_loop_from_start_to_stop() -> None:
    """The lifespan's start begins the watch of the serving loop (once, however often it starts),
    its shutdown ends it. A stall of 0 seconds turns the watch off."""
    loop = asyncio.get_running_loop()
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    seen: list[str] = []

    async def app(scope: object, receive: object, send: object) -> None:
        first = await receive()  # type: ignore[operator]
        seen.append(first["type"])
        watch = loop_watch._watches.get(loop)
        assert watch is not None and watch._thread is not None and watch._thread.is_alive()
        assert loop_watch.start(loop, 30) is watch
        second = await receive()  # type: ignore[operator]
        seen.append(second["type"])
        assert loop not in loop_watch._watches
        assert watch._thread is not None and not watch._thread.is_alive()

    async def receive() -> dict[str, str]:
        return next(messages)

    async def send(message: object) -> None:
        pass

    await Operations(app)({"type": "lifespan"}, receive, send)
    assert seen == ["lifespan.startup", "lifespan.shutdown"]
    assert loop_watch.start(loop, 0) is None and loop not in loop_watch._watches


@pytest.fixture(autouse=True)
def _signals_as_they_were() -> Iterator[None]:
    """The lifespan's start puts the drain in front of the process's signal handlers: put the
    test runner's back."""
    saved = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    yield
    for number, handler in saved.items():
        signal.signal(number, handler)
    draining.reset()
