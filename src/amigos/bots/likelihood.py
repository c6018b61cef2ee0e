"""How likely the plays seen so far are in a sampled world: inference from plays, not only passes.

Voids (``amigos.bots.knowledge``) say what a seat cannot hold.  Plays say more,
softly: players lay heavy tiles early, so a seat that laid a 2-1 when the 6-5
would also have fitted probably did not hold the 6-5.  Each sampled world is
weighted by the probability of the plays actually seen, under a simple model
of the other players: at each of its turns a seat picks among the tiles that
fitted with probability proportional to ``exp(beta * pips)``.  Only the part of
that probability that depends on the hidden tiles matters, so a world is
scored by, for each past play of another seat, the softmax probability of the
laid tile among the tiles that seat held then and that fitted the ends.

What a seat held at an earlier turn is known from the world: its hand now,
plus every tile it laid since.  This holds in games without a boneyard (Amigos,
Cuban); with drawing, earlier hands are unknown and no weighting is done.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from amigos.engine import Line, PlayEvent, Tile
from amigos.engine.view import SeatView

BETA = 0.3  # preference per pip of the model of other players


@dataclass(frozen=True)
class PastChoice:
    """A play by another seat: the ends it faced, the tile it laid, and what it laid afterwards."""

    seat: int
    ends: tuple[int, ...]  # empty for the lead: any tile fitted
    laid: Tile
    later: frozenset[Tile]  # tiles the seat laid after this one (it held them then)


def past_choices(view: SeatView) -> list[PastChoice]:
    """Every play by another seat, with what is needed to weigh it in a world."""
    plays: list[tuple[int, tuple[int, ...], Tile]] = []
    line = Line.empty(view.variant.spinner)
    for event in view.history:
        if isinstance(event, PlayEvent):
            plays.append((event.seat, line.open_ends(), event.play.tile))
            play = event.play
            line = line.lay(play)
    out = []
    for index, (seat, ends, tile) in enumerate(plays):
        if seat == view.seat:
            continue
        later = frozenset(t for s, _, t in plays[index + 1 :] if s == seat)
        out.append(PastChoice(seat, ends, tile, later))
    return out


@lru_cache(maxsize=8)
def _weights(beta: float) -> tuple[float, ...]:
    """``exp(beta * pips)`` for every pip count a tile can have (0..18): computed once, read often."""
    return tuple(math.exp(beta * pips) for pips in range(19))


def log_likelihood(choices: list[PastChoice], world: dict[int, list[Tile]], beta: float = BETA) -> float:
    """Log-probability (up to a constant) of the plays seen, if the hidden hands are ``world``.

    This runs once per sampled world in every decision of the hard level, so the weights come
    from a table and a tile fits when either half shows one of the ends.
    """
    weight = _weights(beta)
    total = 0.0
    for choice in choices:
        held = [*world.get(choice.seat, ()), *choice.later, choice.laid]
        ends = choice.ends
        if ends:
            norm = sum(weight[t.pips] for t in held if t.high in ends or t.low in ends)
        else:
            norm = sum(weight[t.pips] for t in held)
        total += beta * choice.laid.pips - math.log(norm)
    return total
