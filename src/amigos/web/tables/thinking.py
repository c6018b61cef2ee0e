"""Computer players think outside the event loop, so a hard search never delays another table.

The actor hands a seat's view (never the hand state: a bot sees what a player would) to a process
pool and awaits the answer. With `AMIGOS_BOT_PROCESSES = 0` the search runs in a thread instead,
which tests use to avoid starting processes; the default is a pool of worker processes.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from django.conf import settings

from amigos.bots.registry import find_bot
from amigos.engine import Action
from amigos.engine.view import SeatView

_executor: Executor | None = None


def choose(view: SeatView, level: str, seed: int) -> Action:
    """Run in a worker: the bot of ``level`` chooses one of the view's legal actions."""
    return find_bot(level).choose(view, random.Random(seed))


def executor() -> Executor:
    global _executor
    if _executor is None:
        workers = settings.AMIGOS_BOT_PROCESSES
        if workers <= 0:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amigos-bots")
        else:
            # spawn: the server has threads (Django's sync pool), which fork does not copy safely.
            _executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )
    return _executor


async def think(view: SeatView, level: str) -> Action:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), choose, view, level, secrets.randbits(64))


def shutdown() -> None:
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None
