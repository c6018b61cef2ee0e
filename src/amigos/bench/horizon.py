"""`amigos bench horizon [--quick] [--json] [--deals N] [--seeds S ...]`: the horizon's estimate.

The hard level searches a Cuban 2v2 world 12 tiles deep and scores the positions there by an
estimate of the hand's award (``amigos.academy.two_ended.HorizonEstimate``). This benchmark
measures how close each estimate comes to the truth, and refits Cuban's:

* it plays ``--deals`` deals of each seed with the normal level on every seat, and keeps about
  half of the positions, at random, that follow a play and hold 12 to 26 tiles in the hands
  (where the horizon falls in Cuban's middle game), each with its exact value for the side that
  has just played (the compact solver to the end of the hand);
* it prints the mean squared error against those values of an estimate of 0, of
  ``PIPS_ESTIMATE`` (Amigos') and of ``CUBAN_ESTIMATE``;
* it fits the weights again by least squares on every position (the chance is linear in the
  features, so the award is too: ordinary normal equations, solved here without numpy), rounded
  to the integers the estimate uses; ``CUBAN_ESTIMATE`` is that fit for ``--seeds 11 12 --deals
  1500``. With several seeds it also fits each seed alone and gives that fit's error on the
  other seeds' positions, which says whether a fit learnt the game or its seed.

``--quick`` plays 8 deals of one seed: it checks that everything runs; its figures mean nothing.
Only processor time matters here and it is not the point; ``machine_loop_ns`` is printed as in
every benchmark.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from amigos.academy.solve import compact_position, rules_for
from amigos.academy.two_ended import (
    CUBAN_ESTIMATE,
    ESTIMATE_FEATURES,
    PIPS_ESTIMATE,
    HorizonEstimate,
    TwoEndedSolver,
)
from amigos.bench.machine import machine_loop_ns
from amigos.bots.arena import deal_state
from amigos.bots.normal import NormalBot
from amigos.engine import find_variant
from amigos.engine.view import seat_view

#: The tiles in the hands of the positions kept (a Cuban 2v2 horizon, 12 tiles below 28 to 38).
FEWEST, MOST = 12, 26
#: Each position is solved within this many nodes (a 26-tile Cuban position needs far fewer).
NODES = 3_000_000


@dataclass(frozen=True)
class Sample:
    """One position: the features of ``ESTIMATE_FEATURES``, the two sides' pips, the exact value
    for the side that has just played."""

    features: tuple[int, ...]
    mine: int
    theirs: int
    value: int


def samples(seed: int, deals: int) -> list[Sample]:
    """The kept positions of ``deals`` deals of ``seed`` (see the module docstring)."""
    variant = find_variant("cuban-2v2")
    normal = NormalBot()
    found: list[Sample] = []
    for index in range(deals):
        state = deal_state(variant, seed, index)
        rngs = [random.Random(f"x:{seed}:{index}:{seat}") for seat in range(variant.players)]
        keep = random.Random(f"pick:{seed}:{index}")
        while not state.is_over:
            seat = state.to_move
            actions = state.legal_actions()
            chosen = actions[0] if len(actions) == 1 else normal.choose(seat_view(state, seat), rngs[seat])
            held = len(state.hands[seat])
            state = state.apply(chosen, seat)
            if state.is_over:
                break
            position = compact_position(state)
            in_hands = sum(hand.bit_count() for hand in position.hands)
            if not FEWEST <= in_hands <= MOST or position.ends is None or len(state.hands[seat]) == held:
                continue  # not a horizon's position, or a pass
            if keep.random() > 0.5:
                continue  # about half are kept: neighbours are much alike
            solver = TwoEndedSolver(rules_for(variant, state.tie_winner), node_budget=NODES)
            value = -solver.value(position)  # the value is the next seat's: the other side's
            hands = list(position.hands)
            a, b = position.ends
            mine, theirs = solver.side_pips(hands, seat)
            features = tuple(solver.estimate_features(hands, seat, a, b))
            found.append(Sample(features, mine, theirs, value))
    return found


def squared_error(estimator: HorizonEstimate | None, found: Sequence[Sample]) -> float:
    """The mean squared error of ``estimator`` (None: an estimate of 0) over ``found``."""
    if not found:
        return 0.0
    total = 0
    for sample in found:
        guess = 0 if estimator is None else estimator.award(sample.features, sample.mine, sample.theirs)
        total += (guess - sample.value) ** 2
    return total / len(found)


def fit(found: Sequence[Sample]) -> HorizonEstimate:
    """Least-squares weights: the award is (mine + theirs) * chance - mine, linear in the weights.

    The normal equations are solved by Gaussian elimination with partial pivoting; a feature that
    never varies (the tie feature in a seed without tied blocks, say) gets weight 0.
    """
    size = len(ESTIMATE_FEATURES)
    matrix = [[0.0] * size for _ in range(size)]
    vector = [0.0] * size
    for sample in found:
        scale = sample.mine + sample.theirs
        row = [scale * feature for feature in sample.features]
        target = sample.value + sample.mine
        for i in range(size):
            vector[i] += row[i] * target
            for j in range(size):
                matrix[i][j] += row[i] * row[j]
    weights = _solve(matrix, vector)
    return HorizonEstimate(tuple(round(10_000 * weight) for weight in weights), PIPS_ESTIMATE.lowest)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    pivots: list[int] = []
    row = 0
    for column in range(size):
        best = max(range(row, size), key=lambda r: abs(rows[r][column]), default=None)
        if best is None or abs(rows[best][column]) < 1e-9:
            continue  # a feature that never varies: its weight stays 0
        rows[row], rows[best] = rows[best], rows[row]
        for other in range(size):
            if other != row and rows[other][column]:
                factor = rows[other][column] / rows[row][column]
                rows[other] = [x - factor * y for x, y in zip(rows[other], rows[row], strict=True)]
        pivots.append(column)
        row += 1
    weights = [0.0] * size
    for index, column in enumerate(pivots):
        weights[column] = rows[index][size] / rows[index][column]
    return weights


def run(seeds: Sequence[int], deals: int) -> dict[str, Any]:
    by_seed = {seed: samples(seed, deals) for seed in seeds}
    every = [sample for found in by_seed.values() for sample in found]
    # Each seed's own fit, judged on the other seeds' positions: whether the fit is the seed's.
    cross = {}
    if len(seeds) > 1:
        for seed in seeds:
            others = [sample for other in seeds if other != seed for sample in by_seed[other]]
            cross[str(seed)] = round(squared_error(fit(by_seed[seed]), others), 1)
    refit = fit(every)
    return {
        "machine_loop_ns": round(machine_loop_ns(), 1),
        "seeds": list(seeds),
        "deals_per_seed": deals,
        "positions": len(every),
        "mse": {
            "zero": round(squared_error(None, every), 1),
            "pips_estimate": round(squared_error(PIPS_ESTIMATE, every), 1),
            "cuban_estimate": round(squared_error(CUBAN_ESTIMATE, every), 1),
        },
        "refit": list(refit.weights),
        "refit_mse": round(squared_error(refit, every), 1),
        "fitted_on_one_seed_mse_on_the_others": cross,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="amigos bench horizon", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 deals of one seed: checks that it runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--deals", type=int, default=300, help="deals per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12])
    args = parser.parse_args(list(argv) if argv is not None else None)
    seeds, deals = ([args.seeds[0]], 8) if args.quick else (args.seeds, args.deals)
    out = run(seeds, deals)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"machine_loop_ns: {out['machine_loop_ns']}")
    print(f"{out['positions']} positions of {deals} deals of seeds {seeds}")
    for name, error in out["mse"].items():
        print(f"mean squared error, {name}: {error}")
    print(f"refit on them all: {dict(zip(ESTIMATE_FEATURES, out['refit'], strict=True))}")
    print(f"its mean squared error: {out['refit_mse']}")
    for seed, error in out["fitted_on_one_seed_mse_on_the_others"].items():
        print(f"fitted on seed {seed} alone, its error on the other seeds: {error}")
    return 0
