"""Computer players think outside the event loop, so a hard search never delays another table.

The actor hands a seat's view (never the hand state: a bot sees what a player would) to a process
pool and awaits the answer. With `AMIGOS_BOT_PROCESSES = 0` the search runs in a thread instead,
which tests use to avoid starting processes; the default is a pool of worker processes.

A pool that fails (a worker killed by the system, a search that raised) must not stall the table:
nobody else would ever move for that seat. The answer then comes from the easy bot, here, at once,
and a broken pool is replaced for the next turn.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

from django.conf import settings

from amigos.bots.registry import find_bot
from amigos.engine import Action
from amigos.engine.view import SeatView
from amigos.web.operations import metrics

log = logging.getLogger("amigos.tables")

_executor: Executor | None = None

#: The level that answers, in the server's own process, when the pool could not.
FALLBACK_LEVEL = "easy"


def choose(view: SeatView, level: str, seed: int) -> Action:
    """Run in a worker: the bot of ``level`` chooses one of the view's legal actions."""
    return find_bot(level).choose(view, random.Random(seed))


def start_worker(niceness: int, server: int) -> None:
    """Run in each new worker. It thinks at a lower priority than the server's process: on a
    machine whose cores are all busy, hard computer players searching at the server's priority
    took a share of the CPU from the event loop and delayed every human table's plays
    (bench/load.py with --bot-tables). And it ends when the server is gone: after a server was
    killed, its workers lived on, orphaned, each taking a little CPU, one more pair per crash."""
    if niceness > 0:
        os.nice(niceness)
    threading.Thread(target=_end_with, args=(server,), name="amigos-bot-watch", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


#: How often a worker checks that the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0


def executor() -> Executor:
    global _executor
    if _executor is None:
        workers = settings.AMIGOS_BOT_PROCESSES
        if workers <= 0:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amigos-bots")
        else:
            # spawn: the server has threads (Django's sync pool), which fork does not copy safely.
            _executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_worker,
                initargs=(settings.AMIGOS_BOT_NICENESS, os.getpid()),
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
