"""How a finished hand ends and is scored: the values, and the one function that fills them in.

Kept apart from the hand state so that the steps of counting read in one place; what differs
between games (the award, whether a block or a tied block has a winner) is asked of the variant.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .tiles import Tile, pips

if TYPE_CHECKING:  # the variants read this module's values, so it only names theirs in hints
    from .variants import Variant

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "end": self.end.value,
            "winner": self.winner,
            "points": self.points,
            "closer": self.closer,
            "remaining": list(self.remaining),
            "side_remaining": list(self.side_remaining),
            "capicua": self.capicua,
            "viajera": self.viajera,
        }


def score_hand(
    variant: Variant,
    hands: Sequence[frozenset[Tile]],
    domino: bool,
    closer: int,
    tie_winner: int | None = None,
    capicua: bool = False,
) -> HandOutcome:
    """Score a hand that ended with a domino by ``closer`` (``domino=True``) or a block made by
    ``closer``'s play."""
    remaining = tuple(pips(hand) for hand in hands)
    side_remaining = tuple(
        sum(remaining[seat] for seat in variant.seats_of(side)) for side in range(variant.sides)
    )
    if domino:
        end: HandEnd = HandEnd.DOMINO
        winner: int | None = variant.team_of(closer)
    else:
        end, winner = _block_winner(variant, side_remaining, tie_winner)
    points = 0 if winner is None else variant.award(side_remaining, winner)
    if end is not HandEnd.DOMINO and not variant.blocks_score:
        winner, points = None, 0
    return HandOutcome(
        end=end,
        winner=winner,
        points=points,
        closer=closer,
        remaining=remaining,
        side_remaining=side_remaining,
        capicua=capicua and domino,
    )


def _block_winner(
    variant: Variant, side_remaining: tuple[int, ...], tie_winner: int | None
) -> tuple[HandEnd, int | None]:
    lowest = min(side_remaining)
    best = [side for side, count in enumerate(side_remaining) if count == lowest]
    if len(best) == 1:
        return HandEnd.BLOCK, best[0]
    if variant.breaks_tied_blocks and tie_winner is not None:
        return HandEnd.BLOCK, tie_winner
    return HandEnd.TIED_BLOCK, None


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
