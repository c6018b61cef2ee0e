"""`amigos bench engine [--quick] [--json]`: how fast the engine plays random Amigos hands.

Measures, on one core and in one run:

- ``hands_per_second``: complete random-legal four-player amigos-200 hands (deal included) played
  by the bitmask fast path (`amigos.engine.fast`);
- ``reference_hands_per_second``: the same measure for the PyPI package `dominoes` (the `bench`
  extra), whose `Game` plays the same partnership game; null when it is not installed;
- ``matches_per_second``: complete amigos-200 matches to 200, through the fast path
  (``matches_via`` says so); ``readable_hands_per_second`` and ``readable_matches_per_second``: the
  same through the readable `HandState` / `Match` API that tables and replays use;
- ``machine_loop_ns``: one turn of a plain Python loop, taken before the measure, so that figures
  of different days can be compared (the same machine's speed moves by a third within hours).

Counts are fixed (not durations) so every run does the same work; --quick keeps the whole run well
under 20 seconds. Figures depend on the machine: tests check the shape of the output, never times.
"""

from __future__ import annotations

import importlib
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from amigos.bench.machine import machine_loop_ns
from amigos.bench.options import quick_and_json
from amigos.engine import Deal, HandState, Match, fast, find_variant, tile_set

#: (fast hands, reference hands, fast matches, readable hands, readable matches) per mode.
COUNTS: dict[str, tuple[int, int, int, int, int]] = {
    "full": (300_000, 30_000, 10_000, 3_000, 100),
    "quick": (60_000, 6_000, 1_000, 300, 10),
}
#: The fast path and the reference are measured alternately in this many rounds (each a third of
#: the count) and the best round of each is kept, so a busy neighbour on the machine skews both alike.
ROUNDS = 3


def fast_hands(count: int, seed: int) -> None:
    rng = random.Random(seed)
    order = list(range(len(fast.TILES)))
    deal, play, rand = fast.deal_masks, fast.play_hand, rng.random
    for _ in range(count):
        play(deal(order, rand), int(rand() * 4), rand)


def fast_matches(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        fast.random_match(rng)


def readable_hands(count: int, seed: int) -> None:
    rng = random.Random(seed)
    variant = find_variant("amigos-200")
    tiles = list(tile_set(6))
    for _ in range(count):
        rng.shuffle(tiles)
        hands = [tiles[seat * 7 : seat * 7 + 7] for seat in range(4)]
        state = HandState.start(variant, hands, rng.randrange(4))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()), state.to_move)


def readable_matches(count: int, seed: int) -> None:
    rng = random.Random(seed)
    variant = find_variant("amigos-200")
    tiles = list(tile_set(6))
    for _ in range(count):
        match = Match.new(variant, ["a", "b", "c", "d"], rng.randrange(4))
        while not match.is_over:
            rng.shuffle(tiles)
            deal = Deal(hands=tuple(tuple(tiles[seat * 7 : seat * 7 + 7]) for seat in range(4)), boneyard=())
            state = match.start_hand(deal)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()), state.to_move)
            match = match.finish_hand(state)


def reference_hands(count: int, seed: int) -> bool:
    """Random hands with the `dominoes` package; False when it is not installed.

    Its `Game` deals with the global `random` module, so the global state is seeded for the run
    and restored afterwards.
    """
    try:
        dominoes: Any = importlib.import_module("dominoes")
    except ImportError:
        return False
    saved = random.getstate()
    random.seed(seed)
    try:
        choice, randrange = random.choice, random.randrange
        for _ in range(count):
            game = dominoes.Game.new(starting_player=randrange(4))
            while game.result is None:
                game.make_move(*choice(game.valid_moves))
    finally:
        random.setstate(saved)
    return True


def _rate(work: Callable[[int, int], object], count: int, seed: int = 1) -> tuple[float, object]:
    started = time.perf_counter()
    result = work(count, seed)
    elapsed = time.perf_counter() - started
    return count / elapsed if elapsed > 0 else float("inf"), result


def measure(quick: bool) -> dict[str, Any]:
    n_fast, n_reference, n_matches, n_readable, n_readable_matches = COUNTS["quick" if quick else "full"]
    loop_ns = machine_loop_ns()
    hands_rate = reference_rate = 0.0
    installed: object = False
    for round_number in range(ROUNDS):
        rate, _ = _rate(fast_hands, n_fast // ROUNDS, seed=round_number)
        hands_rate = max(hands_rate, rate)
        rate, installed = _rate(reference_hands, n_reference // ROUNDS, seed=round_number)
        reference_rate = max(reference_rate, rate)
    matches_rate, _ = _rate(fast_matches, n_matches)
    readable_rate, _ = _rate(readable_hands, n_readable)
    readable_matches_rate, _ = _rate(readable_matches, n_readable_matches)
    reference = round(reference_rate, 1) if installed else None
    return {
        "hands_per_second": round(hands_rate, 1),
        "reference_hands_per_second": reference,
        "matches_per_second": round(matches_rate, 1),
        "speedup": round(hands_rate / reference_rate, 2) if installed else None,
        "matches_via": "fast path (amigos.engine.fast)",
        "readable_hands_per_second": round(readable_rate, 1),
        "readable_matches_per_second": round(readable_matches_rate, 2),
        "reference": "dominoes==6.1.0 (PyPI)" if installed else None,
        "quick": quick,
        "counts": {
            "hands": n_fast,
            "reference_hands": n_reference if installed else 0,
            "matches": n_matches,
            "readable_hands": n_readable,
            "readable_matches": n_readable_matches,
        },
        "python": platform.python_version(),
        "machine_loop_ns": loop_ns,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = quick_and_json("amigos bench engine", __doc__, argv)
    figures = measure(args.quick)
    if figures["reference_hands_per_second"] is None:
        print(
            "amigos bench engine: the reference package `dominoes` is not installed "
            "(pip install dominoes==6.1.0); reference_hands_per_second is null",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"fast path, random amigos-200 hands:   {figures['hands_per_second']:>12,.0f} /s")
    reference = figures["reference_hands_per_second"]
    if reference is not None:
        print(f"reference (dominoes), same hands:     {reference:>12,.0f} /s")
        print(f"speedup:                              {figures['speedup']:>12.2f} x")
    print(f"fast path, amigos-200 matches:        {figures['matches_per_second']:>12,.0f} /s")
    print(f"readable HandState, same hands:       {figures['readable_hands_per_second']:>12,.0f} /s")
    print(f"readable Match, same matches:         {figures['readable_matches_per_second']:>12,.2f} /s")
    print(f"machine_loop_ns (the machine's speed): {figures['machine_loop_ns']:>11.1f}")
    print(json.dumps(figures))
    return 0
