"""Python's cycle collector, paced by the clock in a served process instead of by allocations.

Why: the automatic collector runs when allocations outnumber deallocations by a threshold. A live
table keeps its hand's history (plays, tiles, placements) for minutes, so many young objects
survive each pass, and every death of an old object lowers the count, which lets the youngest
generation grow far past its threshold: with a thousand tables, passes of the youngest generation
held 100,000 to 200,000 objects and each paused the event loop for up to 150 ms, and a pass of
the middle one up to 480 ms (measured with bench/load.py). Every pause delays every play in
flight. Hardly any of it is garbage: the site makes few reference cycles.

So a served process turns automatic collection off and collects on a beat of its own, from its
event loop: the youngest generation every tenth of a second (a tenth of a second's survivors, a
millisecond or two), and everything every ten minutes, the only long pass (logged with its length).
What survives a young pass (every table's current state, the hand's history) waits for the full
pass: collecting the middle generation every second still paused the loop 35 to 45 ms at a
thousand tables, since every table's current state is younger than a second. A cycle is freed at
the latest by the next full pass; the site makes about a hundred cyclic objects a second.

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
    """The youngest generation is collected every ``young_seconds``, everything every
    ``full_every`` of those beats."""

    young_seconds: float = 0.1
    full_every: int = 6_000

    def generation(self, beat: int) -> int:
        """The oldest generation collected on beat number ``beat`` (counted from 1)."""
        return 2 if beat % self.full_every == 0 else 0


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
    beat = 0
    try:
        while True:
            await asyncio.sleep(pace.young_seconds)
            beat += 1
            generation = pace.generation(beat)
            started = time.perf_counter()
            freed = gc.collect(generation)
            if generation == 2:
                took = (time.perf_counter() - started) * 1000
                log.info("full collection: %.0f ms, %s objects freed", took, freed)
    finally:
        gc.enable()
