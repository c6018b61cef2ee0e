"""`amigos simulate --variant V --seed S [--bots] [--players N] [--hands K]`: write a random legal
match record (JSON) to standard output. The same arguments always give the same record."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "simulate", help="write a random legal match record", description=__doc__
    )
    parser.add_argument(
        "--variant", required=True, help="a record variant name, e.g. amigos-200, all-fives-100"
    )
    parser.add_argument("--seed", type=int, required=True, help="seed of the simulation")
    parser.add_argument("--players", type=int, default=None, help="players in draw and fives games (2-4)")
    parser.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    parser.add_argument(
        "--bots", action="store_true", help="let the 'normal' computer player choose moves (amigos.bots)"
    )
    parser.add_argument("--output", "-o", default="-", help="file to write (default: standard output)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from amigos.engine.record import write_record
    from amigos.engine.simulate import Chooser, random_choice, simulate_match
    from amigos.engine.variants import UnknownVariant, find_variant

    players = args.players
    try:
        variant = find_variant(
            args.variant, players if players is not None else _default_players(args.variant)
        )
    except UnknownVariant as exc:
        print(f"amigos simulate: {exc}", file=sys.stderr)
        return 2
    if args.hands is not None and args.hands < 0:
        print("amigos simulate: --hands must not be negative", file=sys.stderr)
        return 2
    chooser: Chooser = random_choice
    if args.bots:
        chooser = _bot_chooser()
    record = simulate_match(variant, args.seed, max_hands=args.hands, chooser=chooser)
    text = write_record(record)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    return 0


def _default_players(name: str) -> int | None:
    from amigos.engine.variants.draw_fives import NAMES

    return 4 if name in NAMES else None


def _bot_chooser() -> Any:
    """A chooser backed by amigos.bots' "normal" player (imported here: `--bots` is optional)."""
    from amigos.bots.registry import find_bot
    from amigos.engine.state import HandState
    from amigos.engine.view import seat_view

    bot = find_bot("normal")

    def choose(state: HandState, rng: random.Random) -> Any:
        return bot.choose(seat_view(state, state.to_move), rng)

    return choose
