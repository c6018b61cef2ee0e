"""Worker processes for the site's heavy work: computer players' searches and the Academy's.

Every such pool is started the same way (``start_worker`` as its initializer), so a search never
runs in the server's own process, and its workers

* think at a lower scheduling priority than the server (``niceness``), so that a busy core still
  serves the event loop first;
* end when the server that started them is gone. A worker checks its parent every
  ``PARENT_CHECK_SECONDS`` on a daemon thread: after a server was killed, the Academy's worker
  lived on for minutes, orphaned (parent PID 1), still holding gigabytes. ``prctl``'s
  PDEATHSIG is not used: it fires when the *thread* that started the worker ends, and a pool
  starts its workers from whichever thread submitted first (a request's thread, soon gone);
* may not grow past ``memory_mb`` of address space (``RLIMIT_AS``): the node budgets of the
  searches keep them far below it, and a search that still tried would fail with MemoryError
  (its job fails, the page says so) instead of taking the machine's memory.

``pool(0, ...)`` gives an executor that runs each call at once in the calling thread: tests use it
to avoid starting processes.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import ParamSpec, TypeVar

#: How often a worker checks that the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0

P = ParamSpec("P")
T = TypeVar("T")


def start_worker(niceness: int, server: int, memory_mb: int = 0) -> None:
    """Run in each new worker (see the module docstring); ``memory_mb`` 0: no memory limit."""
    if niceness > 0:
        os.nice(niceness)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    threading.Thread(target=_end_with, args=(server,), name="amigos-worker-watch", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


class InlineExecutor(Executor):
    """Runs each call when it is submitted, in the caller's thread (for tests: no processes)."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        future.set_running_or_notify_cancel()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # the job's failure is the future's, as in a pool
            future.set_exception(error)
        return future


def pool(workers: int, *, niceness: int, memory_mb: int) -> Executor:
    """``workers`` spawned worker processes started by ``start_worker`` (0: ``InlineExecutor``).

    Workers are not replaced after a big job: a search's memory is its transposition table, bounded
    by its node budget and dropped when the search returns (a worker back from a Cuban first lead,
    150 MB at its peak, holds about 30 MB again)."""
    if workers <= 0:
        return InlineExecutor()
    # spawn: the server has threads (Django's sync pool), which fork does not copy safely.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(niceness, os.getpid(), memory_mb),
    )
