"""The Cuban family: double-nine, 10 tiles each, 2v2 or 1v1, the rest set aside; target 150."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..tiles import Tile
from .base import Family, Scoring, Variant

CUBAN_TARGET = 150
#: A starting hand with at least this many doubles may ask for a reshuffle.
RESHUFFLE_DOUBLES = 5


def _cuban(name: str, players: int) -> Variant:
    return Variant(
        name=name,
        family=Family.CUBAN,
        scoring=Scoring.CUBAN,
        max_pip=9,
        players=players,
        hand_size=10,
        partnership=players == 4,
        spinner=False,
        draws=False,
        target=CUBAN_TARGET,
    )


CUBAN_2V2 = _cuban("cuban-2v2", 4)
CUBAN_1V1 = _cuban("cuban-1v1", 2)

CUBAN_VARIANTS: tuple[Variant, ...] = (CUBAN_2V2, CUBAN_1V1)


def reshuffle_seats(hands: Sequence[Iterable[Tile]]) -> tuple[int, ...]:
    """Seats whose starting hand holds enough doubles to ask for a reshuffle."""
    return tuple(
        seat
        for seat, hand in enumerate(hands)
        if sum(1 for tile in hand if tile.is_double) >= RESHUFFLE_DOUBLES
    )


def lead_draw_winner(drawn: Sequence[Tile]) -> int | None:
    """Who leads the first hand after each seat drew ``drawn[seat]`` from the set-aside tiles.

    The highest pip count leads; None when the highest count is shared (those players draw again).
    """
    best = max(tile.pips for tile in drawn)
    leaders = [seat for seat, tile in enumerate(drawn) if tile.pips == best]
    return leaders[0] if len(leaders) == 1 else None
