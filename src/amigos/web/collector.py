"""Python's cycle collector, run on a clock in a served process instead of by allocations.

Why: the automatic collector runs when allocations outnumber deallocations by a threshold. A live
table keeps its hand's history (plays, tiles, placements) for minutes, so many young objects
survive each pass, and every death of an old object lowers the count, which lets the youngest
generation grow far past its threshold: with a thousand tables, passes of the youngest generation
held 100,000 to 200,000 objects and each paused the event loop for up to 150 ms, and a pass of
the middle one up to 480 ms (measured with bench/load.py). Every pause delays every play in
flight. Hardly any of it is garbage: the site makes few reference cycles.

So a served process turns automatic collection off and collects everything every ten minutes,
from its event loop: the only pass, and a long one (logged with its length). Young objects are
never walked on their own. Earlier the loop walked the youngest generation every tenth of a
second; in a closed loop of 300 tables that was a tenth of the server's interpreter time (the
coroutines, futures and contexts of the plays in flight, met again at every pass, and each play's
new state met once), and it freed almost nothing once the largest source of cycles was gone: the
HTTP half of every connection that became a WebSocket (`realtime.http_protocol`, about 26 objects
a socket). A cycle the site still makes now waits for the ten-minute pass.

Only `amigos serve` asks for this (it sets ``AMIGOS_PACED_COLLECTOR``, which its worker processes
inherit); tests and management commands keep Python's own collector.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from dataclasses import dataclass

log = logging.getLogger("amigos.collector")

#: The environment variable `amigos serve` sets to ask its processes for a paced collector.
ENVIRONMENT_KEY = "AMIGOS_PACED_COLLECTOR"


@dataclass(frozen=True, slots=True)
class Pace:
    """Everything is collected every ``full_seconds``."""

    full_seconds: float = 600.0


_paced: set[asyncio.AbstractEventLoop] = set()


def wanted() -> bool:
    return os.environ.get(ENVIRONMENT_KEY) == "1"


def take_over() -> None:
    """Collect once, move what is alive now (the site's code, Django, settings: they last as long
    as the process) out of the collector's sight for good, and stop automatic collection."""
    gc.collect()
    gc.freeze()
    gc.disable()


def pace(pace: Pace | None = None) -> None:
    """In a process that asked for it (`wanted`): take over the collector and collect on ``pace``
    from the running event loop, once per loop. Does nothing elsewhere."""
    loop = asyncio.get_running_loop()
    if not wanted() or loop in _paced:
        return
    take_over()
    _paced.add(loop)
    task = loop.create_task(run(pace or Pace()), name="amigos-collector")
    task.add_done_callback(lambda _: _paced.discard(loop))


async def run(pace: Pace) -> None:
    """Collect on ``pace`` until cancelled. If it stops for any reason other than the loop ending,
    Python's own collector takes over again, so cycles are never left uncollected."""
    try:
        while True:
            await asyncio.sleep(pace.full_seconds)
            started = time.perf_counter()
            freed = gc.collect()
            took = (time.perf_counter() - started) * 1000
            log.info("full collection: %.0f ms, %s objects freed", took, freed)
    finally:
        gc.enable()
