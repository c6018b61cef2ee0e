"""The draw and fives family: double-six, 2-4 players each for themselves, boneyard, spinner.

Four scorings share the same play: Draw (points only at the end of a hand), All Fives, All Threes
and Fives and Threes (points also during play), each to 100, 250 or 500.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..deal import Deal
from ..outcome import HandResult
from ..tiles import Tile
from .base import Family, Scoring, Variant

TARGETS: tuple[int, ...] = (100, 250, 500)
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)


class DrawVariant(Variant):
    """The Draw game, and what the fives games share with it: each player for themselves; the
    holder of the highest double (else the heaviest tile) leads the first hand, then the lead
    passes to the next seat; the winner of a hand scores everyone else's pips less their own."""

    __slots__ = ()

    deal_decides_first_leader = True

    def award(self, side_remaining: Sequence[int], winner: int) -> int:
        """The other players' pips minus the winner's own, rounded to :attr:`rounding`."""
        own = side_remaining[winner]
        return round_award(sum(side_remaining) - own - own, self.rounding)

    def pick_first_leader(self, deal: Deal, rng: random.Random) -> int | None:
        """None: the first deal names the leader (see :meth:`first_leader_of`)."""
        return None

    def first_leader_of(self, hands: Sequence[Iterable[Tile]]) -> int:
        """The holder of the highest double, else of the heaviest tile (see :func:`first_leader`)."""
        return first_leader(hands)

    def sheet_cells(self, result: HandResult, hands_won: Sequence[int]) -> tuple[str, ...]:
        """Every player's points of the hand, since everyone may score during play."""
        return tuple(str(points) for points in result.points)


class AllFivesVariant(DrawVariant):
    """All Fives (Muggins): a play scores the open ends' total when it is a multiple of five."""

    __slots__ = ()

    scores_during_play = True
    rounding = 5

    def play_score(self, open_count: int) -> int:
        """The open ends' total when it is a positive multiple of five."""
        return open_count if open_count > 0 and open_count % 5 == 0 else 0


class AllThreesVariant(DrawVariant):
    """All Threes: as All Fives, with multiples of three."""

    __slots__ = ()

    scores_during_play = True
    rounding = 3

    def play_score(self, open_count: int) -> int:
        """The open ends' total when it is a positive multiple of three."""
        return open_count if open_count > 0 and open_count % 3 == 0 else 0


class FivesAndThreesVariant(DrawVariant):
    """Fives and Threes: a play scores when the total is a multiple of five or of three; awards
    are rounded to five."""

    __slots__ = ()

    scores_during_play = True
    rounding = 5

    def play_score(self, open_count: int) -> int:
        """The open ends' total when it is a positive multiple of five or of three."""
        return open_count if open_count > 0 and (open_count % 5 == 0 or open_count % 3 == 0) else 0


SCORINGS: tuple[tuple[str, Scoring, type[DrawVariant]], ...] = (
    ("draw", Scoring.DRAW, DrawVariant),
    ("all-fives", Scoring.ALL_FIVES, AllFivesVariant),
    ("all-threes", Scoring.ALL_THREES, AllThreesVariant),
    ("fives-and-threes", Scoring.FIVES_AND_THREES, FivesAndThreesVariant),
)

NAMES: tuple[str, ...] = tuple(f"{prefix}-{target}" for prefix, _, _ in SCORINGS for target in TARGETS)


def hand_size_for(players: int) -> int:
    """7 tiles each for two players, 5 each for three or four (the spec's table is missing)."""
    return 7 if players == 2 else 5


def draw_variant(name: str, players: int) -> Variant:
    """The variant ``name`` (e.g. ``"all-fives-250"``) for ``players`` players."""
    for prefix, scoring, cls in SCORINGS:
        for target in TARGETS:
            if name == f"{prefix}-{target}":
                return cls(
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
