"""The Cuban family: double-nine, 10 tiles each, 2v2 or 1v1, the rest set aside; target 150.

What sets it apart: the winner of a hand leads the next; a block with tied pips still has a
winner; a player dealt five doubles may ask for a new deal; the first leader is the seat that
draws the heaviest of the set-aside tiles.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..deal import Deal
from ..outcome import HandEnd, HandOutcome, HandResult
from ..tiles import Tile
from .base import Family, LeadDraw, Scoring, Variant

CUBAN_TARGET = 150
#: A starting hand with at least this many doubles may ask for a reshuffle.
RESHUFFLE_DOUBLES = 5


class CubanVariant(Variant):
    """Cuban dominoes, in pairs (2v2) or one against one (1v1): the first leader is the seat that
    drew the heaviest set-aside tile, and afterwards the seat that won the previous hand leads; a
    block with tied pips goes to the first leader's side in the first hand and to the previous
    hand's winner afterwards."""

    __slots__ = ()

    breaks_tied_blocks = True
    allows_reshuffle = True
    draws_for_first_lead = True
    offers_expert = False

    def pick_first_leader(self, deal: Deal, rng: random.Random) -> int | None:
        """Each seat draws one of the set-aside tiles; the heaviest leads (see
        :func:`draw_for_lead`)."""
        return draw_for_lead(deal.boneyard, self.players, rng)

    def first_lead_draw(self, deal: Deal, rng: random.Random) -> LeadDraw | None:
        """The draw for the first lead from ``deal``'s set-aside tiles, every tile drawn shown
        (see :func:`lead_draw`)."""
        return lead_draw(deal.boneyard, self.players, rng)

    def next_leader(self, last: HandResult) -> int:
        """The seat that won the last hand leads (see :func:`cuban_next_leader`)."""
        return cuban_next_leader(self, last.outcome)

    def tie_winner_for(self, leader: int, last: HandResult | None) -> int | None:
        """A tied block goes to the first leader's side in the first hand, and afterwards to the
        side that won the previous hand (None if that hand had no winner)."""
        if last is None:
            return self.team_of(leader)
        return last.outcome.winner

    def reshuffle_seats(self, hands: Sequence[Iterable[Tile]]) -> tuple[int, ...]:
        """Seats dealt at least :data:`RESHUFFLE_DOUBLES` doubles."""
        return reshuffle_seats(hands)


def _cuban(name: str, players: int) -> Variant:
    return CubanVariant(
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


def draw_for_lead(set_aside: Sequence[Tile], players: int, rng: random.Random) -> int:
    """Each seat draws a set-aside tile; the heaviest leads; tied players draw again."""
    return lead_draw(set_aside, players, rng).leader


def lead_draw(set_aside: Sequence[Tile], players: int, rng: random.Random) -> LeadDraw:
    """Each seat draws a set-aside tile; the heaviest leads; tied players draw again (each round
    from the whole set-aside pile, the tiles going back). Every tile drawn is kept, in order, so
    the players can be shown the draw and check it."""
    contenders = list(range(players))
    draws: list[tuple[int, Tile]] = []
    while True:
        drawn = rng.sample(list(set_aside), len(contenders))
        draws.extend(zip(contenders, drawn, strict=True))
        winner = lead_draw_winner(drawn)
        if winner is not None:
            return LeadDraw(leader=contenders[winner], draws=tuple(draws))
        best = max(tile.pips for tile in drawn)
        contenders = [seat for seat, tile in zip(contenders, drawn, strict=True) if tile.pips == best]


def cuban_next_leader(variant: Variant, outcome: HandOutcome) -> int:
    """The seat that won the previous hand leads the next.

    After a domino that is the seat that went out. After a block the winning side's seat with the
    fewest pips left leads (in 1v1 simply the winner); equal pips go to the seat that would have
    played first after the block.
    """
    if outcome.end is HandEnd.DOMINO and outcome.closer is not None:
        return outcome.closer
    winner = outcome.winner if outcome.winner is not None else 0
    players = variant.players
    closer = outcome.closer if outcome.closer is not None else 0
    order = [(closer + step) % players for step in range(1, players + 1)]
    candidates = [seat for seat in order if variant.team_of(seat) == winner]
    return min(candidates, key=lambda seat: (outcome.remaining[seat], order.index(seat)))
