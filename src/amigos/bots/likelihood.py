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

from amigos.academy.compact import tile_set_for
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
    after: tuple[int, ...] = ()  # the open ends once it was laid


def past_choices(view: SeatView) -> list[PastChoice]:
    """Every play by another seat, with what is needed to weigh it in a world."""
    plays: list[tuple[int, tuple[int, ...], Tile, tuple[int, ...]]] = []
    line = Line.empty(view.variant.spinner)
    for event in view.history:
        if isinstance(event, PlayEvent):
            ends = line.open_ends()
            line = line.lay(event.play)
            plays.append((event.seat, ends, event.play.tile, line.open_ends()))
    out = []
    for index, (seat, ends, tile, after) in enumerate(plays):
        if seat == view.seat:
            continue
        later = frozenset(t for s, _, t, _ in plays[index + 1 :] if s == seat)
        out.append(PastChoice(seat, ends, tile, later, after))
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


#: The "follow" model's weights, the normal level's own (``amigos.bots.normal.Weights``): pips, a
#: double's bonus, and per end left showing the tiles of that suit still held (at most three).
FOLLOW_BETA = 0.3
_DOUBLE = 3.0
_FOLLOW = 1.5


@dataclass(frozen=True)
class _Compiled:
    """A past choice as masks of the compact tile set, ready to be weighed in many worlds."""

    seat: int
    fixed: int  # the laid tile and every tile the seat laid later: held then in any world
    fits: int  # mask of the tiles that fitted the ends it faced (every tile for the lead)
    ends: tuple[int, ...]
    laid: int  # index of the tile laid
    after: int  # mask of the suits showing once it was laid


class FollowModel:
    """The plays seen, weighed with the rules of thumb a regular player follows.

    The pips-only model above says "heavy tiles go first"; a regular player also keeps long suits:
    of two tiles it could lay, it prefers the one that leaves ends it can follow (the normal level
    scores exactly that). So a seat that laid a tile leaving a 3 showing probably holds more 3s,
    and a world in which it held none explains the play less well. Each play by another seat is
    scored like the normal level scores it, from what that seat held then in the world (its hand
    now plus everything it laid since): pips, a bonus for a double, and for each end left showing
    the seat's remaining tiles of that suit (at most three); the model picks among the fitting
    plays with probability proportional to ``exp(beta * score)``. Built once per decision
    (the choices as bit masks), then called once per sampled world.

    Measured, it made the hard level weaker than the pips model against normal (docs/bots.md):
    it is kept as an option (``HardSettings.play_model``), off, for a better-fitted model later.
    """

    def __init__(self, choices: list[PastChoice], max_pip: int, beta: float = FOLLOW_BETA) -> None:
        self.tiles = tiles = tile_set_for(max_pip)
        self.beta = beta
        everything = (1 << tiles.size) - 1
        self.choices: list[_Compiled] = []
        for choice in choices:
            fits = everything
            if choice.ends:
                fits = 0
                for end in set(choice.ends):
                    fits |= tiles.suit_masks[end]
            fixed = tiles.mask_of(choice.later) | tiles.mask_of([choice.laid])
            after = 0
            for end in set(choice.after):
                after |= 1 << end
            laid = tiles.tile_index(choice.laid.high, choice.laid.low)
            self.choices.append(_Compiled(choice.seat, fixed, fits, tuple(choice.ends), laid, after))
        self._options: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}

    def _outcomes(self, ends: tuple[int, ...], index: int) -> tuple[int, ...]:
        """The distinct sets of suits (as masks) left showing when tile ``index`` is laid on ``ends``."""
        key = (ends, index)
        found = self._options.get(key)
        if found is None:
            high, low = self.tiles.halves[index]
            if not ends:
                found = ((1 << high) | (1 << low),)
            else:
                outs: list[int] = []
                a, b = ends
                for here, there in ((a, b), (b, a)):
                    if here in (high, low):
                        other = low if high == here else high
                        mask = (1 << other) | (1 << there)
                        if mask not in outs:
                            outs.append(mask)
                found = tuple(outs)
            self._options[key] = found
        return found

    def _score(self, index: int, rest: int, showing: int) -> float:
        tiles = self.tiles
        high, low = tiles.halves[index]
        score = tiles.pips[index] + (_DOUBLE if high == low else 0.0)
        suits = tiles.suit_masks
        while showing:
            bit = showing & -showing
            showing ^= bit
            score += _FOLLOW * min(3, (rest & suits[bit.bit_length() - 1]).bit_count())
        return score

    def log_likelihood(self, world: dict[int, list[Tile]]) -> float:
        """Log-probability (up to a constant) of the plays seen, if the hidden hands are ``world``."""
        tiles = self.tiles
        masks: dict[int, int] = {}
        beta = self.beta
        total = 0.0
        for choice in self.choices:
            hand = masks.get(choice.seat)
            if hand is None:
                hand = masks[choice.seat] = tiles.mask_of(world.get(choice.seat, ()))
            held = hand | choice.fixed
            fitting = held & choice.fits
            observed = beta * self._score(choice.laid, held ^ (1 << choice.laid), choice.after)
            scores = []
            while fitting:
                bit = fitting & -fitting
                fitting ^= bit
                index = bit.bit_length() - 1
                rest = held ^ bit
                for showing in self._outcomes(choice.ends, index):
                    scores.append(beta * self._score(index, rest, showing))
            top = max(scores)
            total += observed - top - math.log(sum(math.exp(s - top) for s in scores))
        return total
