"""`amigos bench bots [--quick] [--json] [--workers W]`: the computer players' figures.

Prints what the goals of the computer players are measured by:

* normal vs easy, hard vs normal, and expert vs hard (amigos-100), and hard vs
  normal in All Fives between two players: points per hand with a 95% interval
  and the share of decided hands won (duplicate deals, ``amigos.bots.arena``);
* hard vs the `dominoes` package's sampling player (only when that package,
  from the ``bench`` extra, is installed), on amigos-200, the counting that
  player searches for;
* the hard level's thinking time on one core (a separate single-process run):
  p50/p95 processor milliseconds per decision over the whole hand, and from
  the 8th tile on (processor time, so that other work on the machine does not
  inflate it);
* the solver: processor seconds to value every first lead of fully known Amigos deals;
* ``machine_loop_ns``, this machine's speed at the moment of the run, to compare figures by.

``--quick`` uses tiny deal counts (well under a minute) to check that it all
runs; its numbers are too noisy to judge the goals by.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from amigos.bench.machine import machine_loop_ns
from amigos.bots.arena import ArenaConfig, default_workers, run_arena, summarize

FULL = {
    "normal_easy": 1000,
    "hard_normal": 300,
    "expert_hard": 100,
    "fives_hard_normal": 100,
    "pab": 300,
    "timing": 30,
    "solver": 21,
}
QUICK = {
    "normal_easy": 20,
    "hard_normal": 2,
    "expert_hard": 1,
    "fives_hard_normal": 1,
    "pab": 1,
    "timing": 1,
    "solver": 2,
}


def solver_first_lead(deals: int, seed: int = 0) -> dict[str, Any]:
    """Processor seconds to value every first lead of ``deals`` random, fully known amigos-100 deals."""
    from amigos.academy.solve import solve
    from amigos.academy.two_ended import COMPILED
    from amigos.bots.arena import deal_state
    from amigos.engine import find_variant

    variant = find_variant("amigos-100")
    times = []
    for index in range(deals):
        state = deal_state(variant, seed + 7919, index)
        started = time.process_time()
        solve(state)
        times.append(time.process_time() - started)
    return {
        "deals": deals,
        "compiled": COMPILED,  # the C kernel (False: the pure-Python search, about ten times slower)
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
    }


def _pab_available() -> bool:
    try:
        import dominoes  # noqa: F401
    except ImportError:
        return False
    return True


def run(quick: bool, workers: int, seed: int = 1) -> dict[str, Any]:
    counts = QUICK if quick else FULL
    out: dict[str, Any] = {"quick": quick, "machine_loop_ns": machine_loop_ns()}
    normal_easy = ArenaConfig("normal", "easy", deals=counts["normal_easy"], seed=seed, workers=workers)
    out["normal_vs_easy"] = summarize(normal_easy, run_arena(normal_easy))
    hard_normal = ArenaConfig("hard", "normal", deals=counts["hard_normal"], seed=seed, workers=workers)
    out["hard_vs_normal"] = summarize(hard_normal, run_arena(hard_normal))
    expert_hard = ArenaConfig("expert", "hard", deals=counts["expert_hard"], seed=seed, workers=workers)
    out["expert_vs_hard"] = summarize(expert_hard, run_arena(expert_hard))
    fives = ArenaConfig(
        "hard", "normal", "all-fives-100", 2, deals=counts["fives_hard_normal"], seed=seed, workers=workers
    )
    out["hard_vs_normal_all_fives_2"] = summarize(fives, run_arena(fives))
    if _pab_available():
        pab = ArenaConfig(
            "hard", "dominoes-pab", "amigos-200", deals=counts["pab"], seed=seed, workers=workers
        )
        out["hard_vs_dominoes_pab"] = summarize(pab, run_arena(pab))
    else:
        out["hard_vs_dominoes_pab"] = None
    timing = ArenaConfig("hard", "normal", deals=counts["timing"], seed=seed + 1, workers=1)
    summary = summarize(timing, run_arena(timing))
    out["hard_decision_ms_one_core"] = {
        "from_opening": summary["decision_ms"],
        "from_8th_tile": summary["decision_ms_from_8th_tile"],
    }
    out["solver_first_lead"] = solver_first_lead(counts["solver"])
    out["goals"] = _goals(out)
    return out


def _goals(out: dict[str, Any]) -> dict[str, bool | None]:
    pab = out["hard_vs_dominoes_pab"]
    timing = out["hard_decision_ms_one_core"]
    return {
        "normal_vs_easy_at_least_6": out["normal_vs_easy"]["points_per_hand"] >= 6,
        "hard_vs_normal_at_least_6": out["hard_vs_normal"]["points_per_hand"] >= 6,
        "hard_vs_normal_60pct_decided": out["hard_vs_normal"]["hands_won_pct"] >= 60,
        "expert_vs_hard_ci_above_0": out["expert_vs_hard"]["ci95"][0] > 0,
        "hard_vs_normal_all_fives_2_at_least_3": out["hard_vs_normal_all_fives_2"]["points_per_hand"] >= 3,
        "hard_vs_pab_ci_above_0": None if pab is None else pab["ci95"][0] > 0,
        "hard_p95_opening_300ms": timing["from_opening"]["p95"] <= 300,
        "hard_p95_8th_tile_50ms": timing["from_8th_tile"]["p95"] <= 50,
        "solver_median_100ms_max_500ms": out["solver_first_lead"]["median_s"] <= 0.1
        and out["solver_first_lead"]["max_s"] <= 0.5,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="amigos bench bots", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny deal counts: checks that it runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--workers", type=int, default=None, help="processes for the arena runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(list(argv) if argv is not None else None)
    random.seed(args.seed)
    out = run(args.quick, args.workers or default_workers(), args.seed)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"machine_loop_ns: {out['machine_loop_ns']}")
    keys = (
        "normal_vs_easy",
        "hard_vs_normal",
        "expert_vs_hard",
        "hard_vs_normal_all_fives_2",
        "hard_vs_dominoes_pab",
    )
    for key in keys:
        result = out[key]
        if result is None:
            print(f"{key}: skipped (the dominoes package is not installed)")
            continue
        print(
            f"{key}: {result['points_per_hand']:+.2f} points per hand, 95% CI {result['ci95']}, "
            f"{result['hands_won_pct']}% of {result['decided_hands']} decided hands ({result['deals']} deals)"
        )
    timing = out["hard_decision_ms_one_core"]
    print(f"hard decision ms on one core, from the opening: {timing['from_opening']}")
    print(f"hard decision ms on one core, from the 8th tile: {timing['from_8th_tile']}")
    print(f"solver first lead: {out['solver_first_lead']}")
    print(f"goals: {out['goals']}" + (" (quick run: too few deals to judge them)" if args.quick else ""))
    return 0
