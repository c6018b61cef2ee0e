"""The draw and fives family: double-six, 2-4 players each for themselves, boneyard, spinner.

Four scorings share the same play: Draw (points only at the end of a hand), All Fives, All Threes
and Fives and Threes (points also during play), each to 100, 250 or 500.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..tiles import Tile
from .base import Family, Scoring, Variant

TARGETS: tuple[int, ...] = (100, 250, 500)
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)

SCORINGS: tuple[tuple[str, Scoring], ...] = (
    ("draw", Scoring.DRAW),
    ("all-fives", Scoring.ALL_FIVES),
    ("all-threes", Scoring.ALL_THREES),
    ("fives-and-threes", Scoring.FIVES_AND_THREES),
)

NAMES: tuple[str, ...] = tuple(f"{prefix}-{target}" for prefix, _ in SCORINGS for target in TARGETS)


def hand_size_for(players: int) -> int:
    """7 tiles each for two players, 5 each for three or four (the spec's table is missing)."""
    return 7 if players == 2 else 5


def draw_variant(name: str, players: int) -> Variant:
    """The variant ``name`` (e.g. ``"all-fives-250"``) for ``players`` players."""
    for prefix, scoring in SCORINGS:
        for target in TARGETS:
            if name == f"{prefix}-{target}":
                return Variant(
                    name=name,
                    family=Family.DRAW,
                    scoring=scoring,
                    max_pip=6,
                    players=players,
                    hand_size=hand_size_for(players),
                    partnership=False,
                    spinner=True,
                    draws=True,
                    target=target,
                )
    raise ValueError(name)


def play_score(scoring: Scoring, open_count: int) -> int:
    """Points for laying a tile that leaves ``open_count`` on the open ends."""
    if open_count <= 0:
        return 0
    fives = open_count % 5 == 0
    threes = open_count % 3 == 0
    if (
        (scoring is Scoring.ALL_FIVES and fives)
        or (scoring is Scoring.ALL_THREES and threes)
        or (scoring is Scoring.FIVES_AND_THREES and (fives or threes))
    ):
        return open_count
    return 0


def round_award(amount: int, step: int) -> int:
    """Round to the nearest multiple of ``step``.

    With whole pips and an odd step (5 or 3) there is never an exact half-way case, so "nearest"
    is always unambiguous; a half-way case (even steps, unused) would round up.
    """
    if step <= 1:
        return amount
    return ((2 * amount + step) // (2 * step)) * step


def first_leader(hands: Sequence[Iterable[Tile]]) -> int:
    """Who leads the first hand: the holder of the highest double, else of the heaviest tile.

    Among tiles of equal pips (no double held), the one with the higher top half counts as higher.
    """
    best_seat = 0
    best_key: tuple[int, int, int] | None = None
    for seat, hand in enumerate(hands):
        for tile in hand:
            key = (1 if tile.is_double else 0, tile.pips, tile.high)
            if best_key is None or key > best_key:
                best_key, best_seat = key, seat
    return best_seat
