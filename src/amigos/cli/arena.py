"""`amigos arena A B --variant V --deals N [--seed S] [--first-deal F] [--log FILE] [--workers W] [--json]`
and `amigos arena-compare FIRST.log SECOND.log [--json]`.

Bot against bot in duplicate format; and two such runs' deal logs compared deal by deal (a level
against the level before it, each run against the same opponent on the same deals).

The logic lives in ``amigos.bots.arena``; this module only reads the options and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "arena", help="play two bots against each other in duplicate format and print the figures"
    )
    parser.add_argument("a", help="bot A: easy, normal, hard, or dominoes-pab (needs the bench extra)")
    parser.add_argument("b", help="bot B")
    parser.add_argument("--variant", default="amigos-100", help="variant name as in match records")
    parser.add_argument("--players", type=int, default=None, help="players (draw and fives games: 2 or 4)")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="play deals F to F+N-1 of the seed (default 0); deal i is the same in any run",
    )
    parser.add_argument(
        "--log",
        default=None,
        help="append each deal's result to this file as one JSON line as soon as it is played",
    )
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
    compare = sub.add_parser(
        "arena-compare",
        help="compare two arena runs' deal logs (--log) deal by deal: bot A's gain in the first",
    )
    compare.add_argument("first", help="deal log of the first run (its bot A is the one judged)")
    compare.add_argument("second", help="deal log of the second run, on the same variant and seed")
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.set_defaults(func=run_compare)


def run(args: argparse.Namespace) -> int:
    from amigos.bots.arena import ArenaConfig, DealResult, default_workers, run_arena, summarize
    from amigos.bots.registry import UnknownBot, find_bot

    try:
        find_bot(args.a)
        find_bot(args.b)
        config = ArenaConfig(
            a=args.a,
            b=args.b,
            variant=args.variant,
            players=args.players,
            deals=args.deals,
            seed=args.seed,
            workers=args.workers or default_workers(),
            first_deal=args.first_deal,
        )
        config.resolve()
    except (UnknownBot, ValueError) as exc:
        print(f"amigos arena: {exc}", file=sys.stderr)
        return 2
    if config.deals < 1:
        print("amigos arena: --deals must be at least 1", file=sys.stderr)
        return 2
    if config.first_deal < 0:
        print("amigos arena: --first-deal must be at least 0", file=sys.stderr)
        return 2
    if args.log is None:
        results = run_arena(config)
    else:
        with open(args.log, "a", encoding="utf-8") as log:

            def write(result: DealResult) -> None:
                log.write(result.to_json() + "\n")
                log.flush()

            results = run_arena(config, write)
    summary = summarize(config, results)
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['a']} vs {summary['b']} on {summary['variant']}: "
            f"{summary['points_per_hand']:+.2f} points per hand "
            f"(95% CI {summary['ci95'][0]:+.2f} to {summary['ci95'][1]:+.2f}) over {summary['hands']} hands; "
            f"{summary['hands_won_pct']}% of decided hands won; "
            f"decision p50 {summary['decision_ms']['p50']} ms, p95 {summary['decision_ms']['p95']} ms"
        )
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from amigos.bots.arena import paired_difference, read_deal_log

    try:
        runs = []
        for path in (args.first, args.second):
            with open(path, encoding="utf-8") as log:
                runs.append(read_deal_log(log))
        figures = paired_difference(runs[0], runs[1])
    except (OSError, ValueError) as exc:
        print(f"amigos arena-compare: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
    else:
        low, high = figures["ci95"]
        print(
            f"bot A gained {figures['difference']:+.2f} points per hand in the first run over the second "
            f"(95% CI {low:+.2f} to {high:+.2f}) over {figures['deals']} deals both played: "
            f"{figures['first_points_per_hand']:+.2f} against {figures['second_points_per_hand']:+.2f}"
        )
    return 0
