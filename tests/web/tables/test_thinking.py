"""A computer player's failing pool must not stall its table: the easy bot answers, and a broken
pool is replaced (regression: a failed search left the seat to move with nobody thinking for it)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from amigos.bots.registry import find_bot
from amigos.engine import find_variant
from amigos.engine.view import SeatView, seat_view
from amigos.web.tables import thinking
from tests.bots.helpers import deal


@pytest.fixture
def fresh_pool() -> Iterator[None]:
    """Each test starts and ends with no pool of its own left behind."""
    thinking.shutdown()
    yield
    thinking.shutdown()


def a_view() -> SeatView:
    state = deal(find_variant("amigos-100", None), random.Random(7))
    return seat_view(state, state.to_move)


class Raising:
    """A bot whose search fails."""

    def choose(self, view: SeatView, rng: random.Random) -> Any:
        raise RuntimeError("the search failed")


def test_a_search_that_raises_is_answered_by_the_easy_bot(
    fresh_pool: None, settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings.AMIGOS_BOT_PROCESSES = 0  # a thread: the monkeypatched registry is seen by the search
    monkeypatch.setattr(thinking, "find_bot", lambda level: Raising() if level == "hard" else find_bot(level))
    view = a_view()
    action = asyncio.run(thinking.think(view, "hard"))
    assert action in view.legal_actions()
    assert "could not think" in caplog.text
    # The pool itself is sound: it is kept.
    assert thinking._executor is not None


def test_a_killed_worker_process_is_replaced(fresh_pool: None, settings: Any) -> None:
    settings.AMIGOS_BOT_PROCESSES = 1
    view = a_view()

    async def scenario() -> None:
        first = await thinking.think(view, "normal")  # starts the real worker process
        assert first in view.legal_actions()
        pool = thinking._executor
        assert isinstance(pool, ProcessPoolExecutor)
        for worker in list(pool._processes.values()):
            os.kill(worker.pid, signal.SIGKILL)  # the system killed it (out of memory, say)
        answer = await thinking.think(view, "normal")
        assert answer in view.legal_actions()
        assert thinking._executor is not pool  # the broken pool is gone
        again = await thinking.think(view, "normal")  # and a new one answers
        assert again in view.legal_actions()
        assert isinstance(thinking._executor, ProcessPoolExecutor)

    asyncio.run(scenario())


def test_stopping_waits_until_the_workers_are_gone(fresh_pool: None, settings: Any) -> None:
    """The server's stop ends the pool before the process exits (a pool still winding down at exit
    leaked its queues' semaphores), even with a search asked for: it ends, or it is cancelled if
    no worker had taken it yet, and no worker is left."""
    settings.AMIGOS_BOT_PROCESSES = 2
    view = a_view()

    async def scenario() -> list[multiprocessing.Process]:
        assert await thinking.think(view, "normal") in view.legal_actions()
        pool = thinking._executor
        assert isinstance(pool, ProcessPoolExecutor)
        workers = list(pool._processes.values())
        searching = asyncio.ensure_future(thinking.think(view, "hard"))
        await asyncio.sleep(0)
        await thinking.stop()
        assert thinking._executor is None
        (outcome,) = await asyncio.gather(searching, return_exceptions=True)
        assert isinstance(outcome, asyncio.CancelledError) or outcome in view.legal_actions()
        return workers

    workers = asyncio.run(scenario())
    assert workers and not any(worker.is_alive() for worker in workers)


def test_a_broken_pool_is_forgotten_only_once(fresh_pool: None, settings: Any) -> None:
    """Two seats' searches fail on the same broken pool: the second must not throw away the new pool
    the first one's failure made room for."""
    settings.AMIGOS_BOT_PROCESSES = 0

    class Broken(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            raise BrokenProcessPool("a worker died")

    broken = Broken(max_workers=1)
    thinking._executor = broken
    view = a_view()
    assert asyncio.run(thinking.think(view, "normal")) in view.legal_actions()
    assert thinking._executor is None
    replacement = thinking.executor()
    thinking._discard(broken)
    assert thinking._executor is replacement


@pytest.mark.parametrize("niceness", [10, 0])
def test_computer_players_think_at_a_lower_priority_than_the_server(
    fresh_pool: None, settings: Any, niceness: int
) -> None:
    """The workers yield the CPU to the server's event loop (with 50 tables of hard computer players
    the human tables' p99 went from 121 ms to 48 ms in bench/load.py); 0 leaves them as they are."""
    settings.AMIGOS_BOT_PROCESSES = 1
    settings.AMIGOS_BOT_NICENESS = niceness
    mine = os.nice(0)
    theirs = thinking.executor().submit(os.nice, 0).result(timeout=60)
    assert theirs == min(19, mine + niceness)


ORPHANED_SERVER = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
from amigos.web.tables import thinking

spawn = multiprocessing.get_context("spawn")
pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=thinking.start_worker, initargs=(0, os.getpid()))
print(pool.submit(os.getpid).result(timeout=60), flush=True)
os._exit(0)  # killed: no shutdown, no cleanup of the pool
"""


def test_a_worker_ends_when_its_server_is_killed() -> None:
    """Regression: the workers of a killed server lived on, orphaned, each taking a little CPU (the
    worker keeps the output pipe open, so the run below waits for it to end)."""
    done = subprocess.run(
        [sys.executable, "-c", ORPHANED_SERVER], capture_output=True, text=True, timeout=120, check=True
    )
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError(f"the worker {worker} outlived its server")
