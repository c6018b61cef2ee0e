"""Bot against bot in duplicate format: every deal is played twice with the sides swapped.

Luck of the deal is the largest source of noise in dominoes.  Playing each deal
twice, once with A holding one side's tiles and once with B holding them, makes
the deal's luck cancel in the pair, so small differences in skill show up in
far fewer hands.  The 95% interval is computed over deals (each deal's pair of
hands is one paired observation), not over hands, because the two hands of a
deal are not independent.

Deals are reproducible: deal ``i`` of seed ``s`` is always the same shuffle,
and every seat's random generator is derived from (seed, deal, seat), so deal
``i`` gives the same result whether a run starts at deal 0 or at deal ``i``
(``ArenaConfig.first_deal``): a long run can be played in parts and joined.
The leader of deal ``i`` is seat ``i % players`` (the lead rotates as in a
match); in Cuban the leader's side wins a tied block (the first-hand rule).
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from amigos.bots.base import Bot
from amigos.bots.registry import find_bot
from amigos.bots.runner import play_hand
from amigos.engine import HandState, Variant, find_variant, tile_set


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: bots, variant, deals ``first_deal`` to ``first_deal + deals - 1``, seed, processes."""

    a: str
    b: str
    variant: str = "amigos-100"
    players: int | None = None
    deals: int = 100
    seed: int = 0
    workers: int = 1
    first_deal: int = 0

    def indices(self) -> range:
        """The deals this run plays."""
        return range(self.first_deal, self.first_deal + self.deals)

    def resolve(self) -> Variant:
        variant = find_variant(self.variant, self.players)
        if variant.players == 3:
            raise ValueError("the arena seats two bots on alternate seats: use 2 or 4 players")
        return variant


@dataclass
class DealResult:
    """Both games of one deal, from A's side."""

    index: int
    margins: tuple[int, int]  # A's points minus B's points in each game
    decided: int  # games with a winner
    won: int  # games A's side won
    # A's choices: (tiles on the table, processor ms, wall ms)
    decisions: list[tuple[int, float, float]] = field(default_factory=list)

    @property
    def per_hand(self) -> float:
        """A's margin a hand over the deal's two games: the deal's one paired figure."""
        return (self.margins[0] + self.margins[1]) / 2

    def to_json(self) -> str:
        """One line of a deal log (see ``run_arena``'s ``on_deal`` and ``read_deal_log``)."""
        return json.dumps(
            {
                "index": self.index,
                "margins": list(self.margins),
                "decided": self.decided,
                "won": self.won,
                "decisions": [list(d) for d in self.decisions],
            }
        )

    @classmethod
    def from_json(cls, line: str) -> DealResult:
        data = json.loads(line)
        first, second = data["margins"]
        decisions = [(int(laid), float(cpu), float(wall)) for laid, cpu, wall in data["decisions"]]
        return cls(
            int(data["index"]), (int(first), int(second)), int(data["decided"]), int(data["won"]), decisions
        )


def read_deal_log(lines: Iterable[str]) -> list[DealResult]:
    """The deals of a log written one JSON line per deal, sorted by deal (a cut-off last line is skipped)."""
    results: dict[int, DealResult] = {}
    for line in lines:
        if not line.strip():
            continue
        try:
            result = DealResult.from_json(line)
        except (ValueError, KeyError, TypeError):
            continue  # the run was stopped while writing this line
        results[result.index] = result
    return [results[index] for index in sorted(results)]


def deal_state(variant: Variant, seed: int, index: int) -> HandState:
    """The starting state of deal ``index`` of ``seed``."""
    rng = random.Random(f"deal:{seed}:{index}")
    tiles = list(tile_set(variant.max_pip))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(variant.players)]
    leader = index % variant.players
    tie_winner = variant.tie_winner_for(leader, None)  # each deal is played as a first hand
    return HandState.start(variant, hands, leader, tiles[variant.players * size :], tie_winner=tie_winner)


def a_sides(variant: Variant, swapped: bool) -> set[int]:
    """The scoring sides A controls: side 0 (even seats) first, then the other side."""
    parity = 1 if swapped else 0
    return {variant.team_of(seat) for seat in range(variant.players) if seat % 2 == parity}


def play_deal(config: ArenaConfig, bots: tuple[Bot, Bot], index: int) -> DealResult:
    """Play deal ``index`` twice, A on the even seats and then on the odd seats."""
    variant = config.resolve()
    margins: list[int] = []
    decided = won = 0
    decisions: list[tuple[int, float, float]] = []
    for swapped in (False, True):
        parity = 1 if swapped else 0
        seats = [bots[0] if seat % 2 == parity else bots[1] for seat in range(variant.players)]
        # A seat's generator depends on the deal and the seat, not on who sits there: then arena(A, B)
        # is exactly arena(B, A) negated, and a bot against itself nets out every deal.
        rngs = [random.Random(f"bot:{config.seed}:{index}:{seat}") for seat in range(variant.players)]
        run = play_hand(deal_state(variant, config.seed, index), seats, rngs)
        outcome = run.state.outcome
        assert outcome is not None
        mine = a_sides(variant, swapped)
        points = list(run.state.play_points)
        if outcome.winner is not None:
            points[outcome.winner] += outcome.points
            decided += 1
            won += outcome.winner in mine
        margins.append(
            sum(p for side, p in enumerate(points) if side in mine)
            - sum(p for side, p in enumerate(points) if side not in mine)
        )
        decisions.extend(
            (d.laid, d.cpu_seconds * 1000, d.seconds * 1000) for d in run.decisions if d.seat % 2 == parity
        )
    return DealResult(index, (margins[0], margins[1]), decided, won, decisions)


def _play_chunk(config: ArenaConfig, indices: Sequence[int]) -> list[DealResult]:
    bots = (find_bot(config.a), find_bot(config.b))
    return [play_deal(config, bots, index) for index in indices]


def run_arena(config: ArenaConfig, on_deal: Callable[[DealResult], None] | None = None) -> list[DealResult]:
    """Play every deal, spread over ``config.workers`` processes (1: in this process).

    ``on_deal`` is called with each result as soon as it is in this process: after every deal
    with one process, after every chunk of deals with several.
    """
    config.resolve()
    indices = list(config.indices())
    workers = max(1, config.workers)
    results: list[DealResult] = []
    if workers == 1:
        bots = (find_bot(config.a), find_bot(config.b))
        for index in indices:
            result = play_deal(config, bots, index)
            results.append(result)
            if on_deal is not None:
                on_deal(result)
        return results
    chunks = [indices[start :: workers * 4] for start in range(workers * 4)]
    chunks = [chunk for chunk in chunks if chunk]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(_play_chunk, [config] * len(chunks), chunks):
            results.extend(part)
            if on_deal is not None:
                for result in part:
                    on_deal(result)
    results.sort(key=lambda result: result.index)
    return results


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile by nearest rank (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, math.ceil(fraction * len(ordered)) - 1)
    return ordered[rank]


def mean_and_half_interval(per_deal: Sequence[float]) -> tuple[float, float]:
    """The mean of one figure a deal and the half-width of its 95% interval (normal
    approximation; 0 and 0 for no deals, a zero width for one)."""
    if not per_deal:
        return 0.0, 0.0
    mean = sum(per_deal) / len(per_deal)
    spread = statistics.stdev(per_deal) if len(per_deal) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(per_deal))


def summarize(config: ArenaConfig, results: Sequence[DealResult]) -> dict[str, Any]:
    """The arena's figures, from A's side (see docs/bots.md for their exact meaning)."""
    hands = 2 * len(results)
    mean, half = mean_and_half_interval([r.per_hand for r in results])
    decided = sum(r.decided for r in results)
    won = sum(r.won for r in results)
    times = [ms for r in results for _, ms, _ in r.decisions]
    late = [ms for r in results for laid, ms, _ in r.decisions if laid >= 7]
    wall = [ms for r in results for _, _, ms in r.decisions]
    return {
        "a": config.a,
        "b": config.b,
        "variant": config.variant,
        "players": config.resolve().players,
        "deals": len(results),
        "hands": hands,
        "points_per_hand": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "hands_won_pct": round(100 * won / decided, 2) if decided else 0.0,
        "decided_hands": decided,
        "decision_ms": {
            "p50": round(percentile(times, 0.5), 2),
            "p95": round(percentile(times, 0.95), 2),
            "count": len(times),
        },
        "decision_ms_from_8th_tile": {
            "p50": round(percentile(late, 0.5), 2),
            "p95": round(percentile(late, 0.95), 2),
            "count": len(late),
        },
        "decision_wall_ms": {
            "p50": round(percentile(wall, 0.5), 2),
            "p95": round(percentile(wall, 0.95), 2),
        },
        "seed": config.seed,
        "first_deal": min((r.index for r in results), default=config.first_deal),
    }


def paired_difference(first: Sequence[DealResult], second: Sequence[DealResult]) -> dict[str, Any]:
    """How many points a hand bot A gained in ``first`` over bot A in ``second``, deal by deal.

    Two runs of the same variant and seed play the same deals, so the difference of a deal's
    two means cancels the deal's luck, as the duplicate format does for the two bots of one run;
    this is how a change to a level is judged against the level before it (run the arena with
    ``--log`` before and after, then ``amigos arena-compare``). Only the deals both runs played
    count; none in common is a ``ValueError``.
    """
    mine = {result.index: result for result in first}
    theirs = {result.index: result for result in second}
    common = sorted(mine.keys() & theirs.keys())
    if not common:
        raise ValueError("the two runs have no deal in common")
    first_figures = [mine[index].per_hand for index in common]
    second_figures = [theirs[index].per_hand for index in common]
    mean, half = mean_and_half_interval([a - b for a, b in zip(first_figures, second_figures, strict=True)])
    return {
        "deals": len(common),
        "first_points_per_hand": round(sum(first_figures) / len(common), 3),
        "second_points_per_hand": round(sum(second_figures) / len(common), 3),
        "difference": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
    }


def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1
