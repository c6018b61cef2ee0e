"""The Academy's benchmark: `python bench/academy.py [--quick]`, prints JSON.

What it measures:

* the exact solver's time for the value of every legal play of a fully known four-player Amigos
  hand at its first lead (`TwoEndedSolver.action_values`, 28 tiles in the hands: the largest exact
  search the Academy runs), on 21 deals, with the compiled kernel when this installation has it
  (`compiled`) and, except with `--quick`, with the pure-Python reference search as well, with each
  one's node count (the same for both: the kernel visits the same nodes). Goal: median at most
  0.1 s, max at most 0.5 s of processor time;
* the time of the Academy's answer (the solver's value and cost of every legal play,
  `amigos.web.archive.academy.position_values`, the same call the site's worker makes) for a fully
  known four-player Amigos hand at its first lead, when all 28 tiles are still in the hands: the
  largest exact search the Academy runs. Goal: at most 0.2 s per position;
* the same answer for a Cuban 2v2 first lead (40 tiles in the hands: too big for an exact answer,
  so the node budgets give the depth-limited one), computed the way the site does it: in a worker
  process of `amigos.web.workers` with the site's memory limit, one fresh worker per position. The
  time from the job's submission to its answer, the worker's processor time and its peak memory
  (resident, `ru_maxrss`). Goal: at most 5 s and 300 MB;
* (not with `--quick`) ten players asking for a Cuban first lead at once through the site's job
  queue, while this process's event loop keeps a 5 ms timer going: how late the timer fires
  (`loop_lag_ms`, p99 and max) is what another player's round trip would wait on in the server,
  besides the network. Goal: p99 at most 100 ms.

Wall time and processor time are both printed: on a shared machine the wall time mostly measures
the neighbours, the processor time (the search is single-threaded) what the search costs.
`machine_loop_ns` is this machine's speed (one turn of a plain loop), to compare runs of different
days.

Deals come from reproducible keys (a generator seeded per deal), so every run measures the same
positions; each is timed on a fresh solver (no table shared between positions).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.academy.solve import compact_position, rules_for
from amigos.academy.two_ended import COMPILED, TwoEndedSolver
from amigos.bench.machine import machine_loop_ns
from amigos.engine import find_variant
from amigos.engine.deal import deal_from_key
from amigos.engine.match import Match
from amigos.engine.simulate import seeded_key
from amigos.engine.state import HandState
from amigos.web.archive.academy import position_values

GOAL_SECONDS = 0.2
SOLVER_GOAL_MEDIAN = 0.1
SOLVER_GOAL_MAX = 0.5
DEALS = 21
CUBAN_GOAL_SECONDS = 5.0
CUBAN_GOAL_MB = 300
LAG_GOAL_MS = 100.0
#: The site's default memory limit of a search worker (AMIGOS_SEARCH_MEMORY_MB).
WORKER_MEMORY_MB = 1024
#: The site's niceness of its search workers (AMIGOS_BOT_NICENESS).
WORKER_NICENESS = 10
TIMER_MS = 5.0


def first_leads(count: int, name: str = "amigos-100", start: int = 0) -> list[HandState]:
    variant = find_variant(name)
    states = []
    for number in range(start, start + count):
        rng = random.Random(number)
        deal = deal_from_key(seeded_key(rng), variant)
        match = Match.new(variant, ("Ana", "Beto", "Caro", "Dani"), rng.randrange(variant.players))
        states.append(match.start_hand(deal))
    return states


def solver_times(states: list[HandState], compiled: bool) -> dict[str, Any]:
    """Processor seconds and nodes of the exact values of every play at each first lead (a fresh
    solver each time: no table shared between positions)."""
    cpu: list[float] = []
    nodes: list[int] = []
    for state in states:
        solver = TwoEndedSolver(rules_for(state.variant, state.tie_winner), compiled=compiled)
        position = compact_position(state)
        started = time.process_time()
        solver.action_values(position)
        cpu.append(time.process_time() - started)
        nodes.append(solver.stats.nodes)
    return {
        "compiled": compiled,
        "cpu_seconds_median": round(statistics.median(cpu), 4),
        "cpu_seconds_max": round(max(cpu), 4),
        "cpu_seconds_each": [round(c, 4) for c in cpu],
        "nodes_median": int(statistics.median(nodes)),
        "nodes_max": max(nodes),
        "goal_median_seconds": SOLVER_GOAL_MEDIAN,
        "goal_max_seconds": SOLVER_GOAL_MAX,
        "goal_met_cpu": statistics.median(cpu) <= SOLVER_GOAL_MEDIAN and max(cpu) <= SOLVER_GOAL_MAX,
    }


def cuban_job(number: int) -> dict[str, Any]:
    """Run in a worker: the Academy's answer at Cuban first lead ``number``, with the worker's
    processor time for it and its peak resident memory so far (a fresh worker: this search's)."""
    state = first_leads(1, "cuban-2v2", number)[0]
    started = time.process_time()
    values = position_values(state, None)
    return {
        "cpu_seconds": time.process_time() - started,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "exact": values.exact,
        "depth": values.depth,
        "plays": len(values.plays),
    }


def cuban_first_leads(count: int) -> list[dict[str, Any]]:
    """Each position in a fresh worker started as the site starts its own (warmed up first)."""
    from amigos.web.workers import pool

    out = []
    for number in range(count):
        workers = pool(1, niceness=0, memory_mb=WORKER_MEMORY_MB)
        try:
            workers.submit(os.getpid).result(timeout=120)  # started: the import is not the search
            started = time.perf_counter()
            result = workers.submit(cuban_job, number).result(timeout=600)
            result["seconds"] = time.perf_counter() - started
        finally:
            workers.shutdown(wait=True)
        out.append(result)
    return out


async def _timer_lag(done: asyncio.Event) -> list[float]:
    """How late a 5 ms timer fires, each time, until ``done``."""
    lags = []
    while not done.is_set():
        started = time.perf_counter()
        await asyncio.sleep(TIMER_MS / 1000)
        lags.append((time.perf_counter() - started) * 1000 - TIMER_MS)
    return lags


async def _ten_players(players: int) -> dict[str, Any]:
    from concurrent.futures import Executor

    from amigos.web.archive.services.academy_jobs import JobRegistry
    from amigos.web.workers import pool

    executor: Executor = pool(1, niceness=WORKER_NICENESS, memory_mb=WORKER_MEMORY_MB)
    registry = JobRegistry(lambda: executor, limit=20)
    await asyncio.wrap_future(registry.executor().submit(os.getpid))  # the worker is started
    done = asyncio.Event()
    lag = asyncio.create_task(_timer_lag(done))
    started = time.perf_counter()
    jobs = [
        registry.submit(user_id=user, key=("values", user), run=cuban_job, args=(user,))
        for user in range(players)
    ]
    places = [job.ahead for job in jobs]
    await asyncio.gather(*(asyncio.wrap_future(job.future) for job in jobs))
    seconds = time.perf_counter() - started
    done.set()
    lags = sorted(await lag)
    executor.shutdown(wait=True)
    return {
        "players": players,
        "places": places,
        "all_answered_seconds": round(seconds, 2),
        "loop_lag_ms_p99": round(lags[min(len(lags) - 1, int(len(lags) * 0.99))], 2),
        "loop_lag_ms_max": round(lags[-1], 2),
        "timer_fired": len(lags),
        "goal_ms": LAG_GOAL_MS,
    }


def ten_players(players: int) -> dict[str, Any]:
    """Ten players ask for a Cuban first lead at once through the site's queue (see the docstring)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.test")  # the apps, no server
    django.setup()
    return asyncio.run(_ten_players(players))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions instead of 21")
    args = parser.parse_args(argv)
    loop_ns = machine_loop_ns()
    states = first_leads(3 if args.quick else DEALS)
    solver = solver_times(states, COMPILED)
    reference = None if args.quick or not COMPILED else solver_times(states, False)
    seconds: list[float] = []
    cpu: list[float] = []
    plays = []
    for state in states:
        started, cpu_started = time.perf_counter(), time.process_time()
        values = position_values(state, None)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        plays.append(len(values.plays))
    cuban = cuban_first_leads(1 if args.quick else 3)
    crowd = None if args.quick else ten_players(10)
    print(
        json.dumps(
            {
                "benchmark": "academy-first-lead",
                "variant": "amigos-100",
                "positions": len(states),
                "solver": solver,
                "solver_pure_python": reference,
                "plays_per_position": plays,
                "seconds_median": round(statistics.median(seconds), 4),
                "seconds_max": round(max(seconds), 4),
                "seconds_each": [round(s, 4) for s in seconds],
                "cpu_seconds_median": round(statistics.median(cpu), 4),
                "cpu_seconds_max": round(max(cpu), 4),
                "goal_seconds": GOAL_SECONDS,
                "goal_met_cpu": max(cpu) <= GOAL_SECONDS,
                "cuban_first_lead": {
                    "variant": "cuban-2v2",
                    "positions": len(cuban),
                    "exact": [c["exact"] for c in cuban],
                    "depth": [c["depth"] for c in cuban],
                    "seconds_max": round(max(c["seconds"] for c in cuban), 3),
                    "cpu_seconds_max": round(max(c["cpu_seconds"] for c in cuban), 3),
                    "peak_mb_max": round(max(c["peak_mb"] for c in cuban), 1),
                    "goal_seconds": CUBAN_GOAL_SECONDS,
                    "goal_mb": CUBAN_GOAL_MB,
                    "goal_met_cpu": max(c["cpu_seconds"] for c in cuban) <= CUBAN_GOAL_SECONDS
                    and max(c["peak_mb"] for c in cuban) <= CUBAN_GOAL_MB,
                },
                "ten_players_at_once": crowd,
                "machine_loop_ns": loop_ns,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
