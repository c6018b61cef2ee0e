"""How a finished hand and a match end: plain values.

The counting that fills them in is `Variant.score_hand`, since each step of it is a question the
variant answers. This module imports no variant, so the variants can read these values at run time
without an import cycle.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

#: Points in a single hand that make it a "viajera" (Cuban name; recorded, not scored extra).
VIAJERA_POINTS = 100


class HandEnd(enum.Enum):
    """How a hand ended: a player went out (dominada), nobody could play (cierre), or a block
    with nobody winning (cierre empatado)."""

    DOMINO = "domino"
    BLOCK = "block"
    TIED_BLOCK = "tied-block"

    def __str__(self) -> str:
        return self.value


class Termination(enum.Enum):
    """How a match ended: it reached its target, or it stopped unfinished because a player
    abandoned it or was suspended (only matches ended by target count for statistics and rating).
    """

    TARGET = "target"
    ABANDONMENT = "abandonment"
    SUSPENSION = "suspension"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """The result of a finished hand.

    ``winner`` is a side (team in partnerships, seat otherwise) or None; ``points`` is the
    end-of-hand award to the winner (1 per domino in juegos ganados; excludes points scored during
    play in the fives games); ``closer`` is the seat whose play went out or made the block;
    ``remaining`` the pips left per seat and ``side_remaining`` per side; ``capicua`` whether the
    last tile of a domino could have gone on either end.
    """

    end: HandEnd
    winner: int | None
    points: int
    closer: int | None
    remaining: tuple[int, ...]
    side_remaining: tuple[int, ...]
    capicua: bool = False

    @property
    def viajera(self) -> bool:
        """One hand worth 100 points or more."""
        return self.points >= VIAJERA_POINTS


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand of a match."""

    leader: int
    outcome: HandOutcome
    play_points: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        """What each side scored in this hand: points during play plus the end-of-hand award."""
        scored = list(self.play_points)
        if self.outcome.winner is not None:
            scored[self.outcome.winner] += self.outcome.points
        return tuple(scored)
