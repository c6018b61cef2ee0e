"""What a variant is: the rule family, the scoring, the set and the seating."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Family(enum.Enum):
    """The three rule families played online (Recreo keeps score for the Amigos family)."""

    AMIGOS = "amigos"
    CUBAN = "cuban"
    DRAW = "draw"


class Scoring(enum.Enum):
    """How points are counted, at the end of a hand and (fives games) during play."""

    AMIGOS_100 = "amigos-100"
    AMIGOS_200 = "amigos-200"
    HANDS_WON = "hands-won"
    CUBAN = "cuban"
    DRAW = "draw"
    ALL_FIVES = "all-fives"
    ALL_THREES = "all-threes"
    FIVES_AND_THREES = "fives-and-threes"


class UnknownVariant(ValueError):
    """A variant name (or player count) that no rule family knows."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A playable variant, named as in match records (``"amigos-200"``, ``"all-fives-250"``).

    ``target`` is None for juegos ganados, whose end is decided by hands won (at least 4, lead 2).
    """

    name: str
    family: Family
    scoring: Scoring
    max_pip: int
    players: int
    hand_size: int
    partnership: bool
    spinner: bool
    draws: bool
    target: int | None

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 teams in partnership games, one per player otherwise."""
        return 2 if self.partnership else self.players

    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat``: partners sit opposite (seats 0+2 and 1+3)."""
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``."""
        return tuple(seat for seat in range(self.players) if self.team_of(seat) == side)

    @property
    def set_size(self) -> int:
        """Tiles in the set (28 for double-six, 55 for double-nine)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def boneyard_size(self) -> int:
        """Tiles left after the deal: the draw pile, or Cuban's set-aside tiles."""
        return self.set_size - self.players * self.hand_size

    @property
    def scores_during_play(self) -> bool:
        """Whether laying a tile can score (the fives and threes games)."""
        return self.scoring in (Scoring.ALL_FIVES, Scoring.ALL_THREES, Scoring.FIVES_AND_THREES)

    @property
    def rounding(self) -> int:
        """End-of-hand awards are rounded to the nearest multiple of this (1: not rounded)."""
        if self.scoring in (Scoring.ALL_FIVES, Scoring.FIVES_AND_THREES):
            return 5
        if self.scoring is Scoring.ALL_THREES:
            return 3
        return 1

    def __str__(self) -> str:
        return self.name
