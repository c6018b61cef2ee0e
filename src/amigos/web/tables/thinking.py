"""Computer players think outside the event loop, so a hard search never delays another table.

The actor hands a seat's view (never the hand state: a bot sees what a player would) to a process
pool and awaits the answer. With `AMIGOS_BOT_PROCESSES = 0` the search runs in a thread instead,
which tests use to avoid starting processes; the default is a pool of worker processes, started as
every heavy worker of the site is (``amigos.web.workers``: a lower priority, a memory limit, and
they end with the server). A search's time and memory are bounded by its node budget
(``amigos.bots.hard``).

A pool that fails (a worker killed by the system, a search that raised) must not stall the table:
nobody else would ever move for that seat. The answer then comes from the easy bot, here, at once,
and a broken pool is replaced for the next turn.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor

from django.conf import settings

from amigos.bots.registry import find_bot
from amigos.engine import Action
from amigos.engine.view import SeatView
from amigos.web.bot_queue import QueueExecutor
from amigos.web.operations import metrics
from amigos.web.workers import pool as worker_pool
from amigos.web.workers import start_worker

__all__ = ["choose", "executor", "shutdown", "start_worker", "stop", "think"]

log = logging.getLogger("amigos.tables")

_executor: Executor | None = None

#: The level that answers, in the server's own process, when the pool could not.
FALLBACK_LEVEL = "easy"


def choose(view: SeatView, level: str, seed: int) -> Action:
    """Run in a worker: the bot of ``level`` chooses one of the view's legal actions."""
    return find_bot(level).choose(view, random.Random(seed))


def executor() -> Executor:
    global _executor
    if _executor is None:
        workers = settings.AMIGOS_BOT_PROCESSES
        if settings.AMIGOS_BOT_SERVICE and settings.REDIS_URL:
            # the searches run on the worker service (amigos.web.bot_queue), not on this host
            _executor = QueueExecutor(
                settings.REDIS_URL,
                settings.AMIGOS_BUS_NAMESPACE,
                settings.AMIGOS_BOT_SERVICE_TIMEOUT_SECONDS,
            )
        elif workers <= 0:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amigos-bots")
        else:
            # Lower priority, a memory limit, and they end with the server: see amigos.web.workers.
            _executor = worker_pool(
                workers, niceness=settings.AMIGOS_BOT_NICENESS, memory_mb=settings.AMIGOS_SEARCH_MEMORY_MB
            )
    return _executor


async def think(view: SeatView, level: str) -> Action:
    """The computer player's choice; the easy bot's if the pool fails (never an exception)."""
    loop = asyncio.get_running_loop()
    seed = secrets.randbits(64)
    pool = executor()
    metrics.BOT_SEARCHES.inc()
    try:
        return await loop.run_in_executor(pool, choose, view, level, seed)
    except Exception as error:
        log.exception("a computer player (%s) could not think; the easy bot answers instead", level)
        if isinstance(error, BrokenExecutor):
            _discard(pool)
        return choose(view, FALLBACK_LEVEL, seed)
    finally:
        metrics.BOT_SEARCHES.dec()


def _discard(pool: Executor) -> None:
    """Forget a broken pool (if it is still the current one): the next turn starts a new one."""
    global _executor
    if _executor is pool:
        _executor = None
        pool.shutdown(wait=False, cancel_futures=True)


def shutdown(*, wait: bool = False) -> None:
    """Forget the pool: searches not started are cancelled; with ``wait``, return once the running
    ones have ended and the workers are gone."""
    global _executor
    pool, _executor = _executor, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


async def stop() -> None:
    """The server is stopping: the pool ends with it, waited for on a thread (the loop goes on).

    A pool left to wind down on its own as the process exited leaked its queues' semaphores
    ("resource_tracker: There appear to be 5 leaked semaphore objects", after every stop of a
    server that had computer players)."""
    await asyncio.to_thread(shutdown, wait=True)
