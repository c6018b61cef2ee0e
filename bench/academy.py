"""The Academy's benchmark: `python bench/academy.py [--quick]`, prints JSON.

What it measures: the time of the Academy's answer (the solver's value and cost of every legal
play, `amigos.web.archive.academy.position_values`, the same call the site's worker makes) for a
fully known four-player Amigos hand at its first lead, when all 28 tiles are still in the hands:
the largest exact search the Academy runs. The goal is under one second per position. Wall time
and processor time are both printed: on a shared machine the wall time mostly measures the
neighbours, the processor time (the search is single-threaded) what the search costs.

Deals come from reproducible keys (a generator seeded per deal), so every run measures the same
positions; each is timed on a fresh solver (no table shared between positions).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.engine import find_variant
from amigos.engine.deal import deal_from_key
from amigos.engine.match import Match
from amigos.engine.simulate import seeded_key
from amigos.engine.state import HandState
from amigos.web.archive.academy import position_values

GOAL_SECONDS = 1.0


def first_leads(count: int) -> list[HandState]:
    variant = find_variant("amigos-100", 4)
    states = []
    for number in range(count):
        rng = random.Random(number)
        deal = deal_from_key(seeded_key(rng), variant)
        match = Match.new(variant, ("Ana", "Beto", "Caro", "Dani"), rng.randrange(4))
        states.append(match.start_hand(deal))
    return states


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions instead of twenty")
    args = parser.parse_args(argv)
    states = first_leads(3 if args.quick else 20)
    seconds: list[float] = []
    cpu: list[float] = []
    plays = []
    for state in states:
        started, cpu_started = time.perf_counter(), time.process_time()
        values = position_values(state, None)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        plays.append(len(values.plays))
    print(
        json.dumps(
            {
                "benchmark": "academy-first-lead",
                "variant": "amigos-100",
                "positions": len(states),
                "plays_per_position": plays,
                "seconds_median": round(statistics.median(seconds), 4),
                "seconds_max": round(max(seconds), 4),
                "seconds_each": [round(s, 4) for s in seconds],
                "cpu_seconds_median": round(statistics.median(cpu), 4),
                "cpu_seconds_max": round(max(cpu), 4),
                "goal_seconds": GOAL_SECONDS,
                "goal_met_cpu": max(cpu) < GOAL_SECONDS,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
