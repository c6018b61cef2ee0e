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

A second model (:class:`FollowModel`) scores each past play as the normal level's rules of thumb
would have, the rules good players follow: heavy tiles and doubles first, ends left in suits the
seat can follow, its partner's suits, its opponents' voids. The parts of that score that do not
depend on the hidden tiles (the suits the partner showed or lacked and the opponents' voids, as
the table stood when the seat played) are read from the public history once (``PastChoice.
suit_bonus``); the rest is scored in each world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from amigos.academy.compact import tile_set_for
from amigos.bots.knowledge import shown_suits
from amigos.bots.weights import Weights, suit_bonus
from amigos.engine import Line, PassEvent, PlayEvent, Tile
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
    #: For each suit, what the normal level's rules add for an end of that suit left showing, as
    #: the table stood when the seat played: its partner's suits and voids, its opponents' voids
    #: (`suit_bonus`). Public, so the same in every world; empty: none.
    suit_bonus: tuple[float, ...] = ()


def past_choices(view: SeatView, weights: Weights | None = None) -> list[PastChoice]:
    """Every play by another seat, with what is needed to weigh it in a world (its `suit_bonus`
    under the normal level's ``weights``). For games without a boneyard: a pass proves a void for
    the rest of the hand."""
    weights = weights or Weights()
    variant = view.variant
    voids: dict[int, set[int]] = {seat: set() for seat in range(variant.players)}
    shown: dict[int, set[int]] = {seat: set() for seat in range(variant.players)}
    plays: list[tuple[int, tuple[int, ...], Tile, tuple[int, ...], tuple[float, ...]]] = []
    line = Line.empty(variant.spinner)
    for event in view.history:
        if isinstance(event, PassEvent):
            voids[event.seat].update(event.ends)
        elif isinstance(event, PlayEvent):
            seat = event.seat
            bonus = suit_bonus(variant, seat, voids, shown, weights) if seat != view.seat else ()
            ends = line.open_ends()
            line = line.lay(event.play)
            plays.append((seat, ends, event.play.tile, line.open_ends(), bonus))
            shown[seat].update(shown_suits(event.play, line))
    out = []
    for index, (seat, ends, tile, after, bonus) in enumerate(plays):
        if seat == view.seat:
            continue
        later = frozenset(t for s, _, t, _, _ in plays[index + 1 :] if s == seat)
        out.append(PastChoice(seat, ends, tile, later, after, bonus))
    return out


@lru_cache(maxsize=8)
def _weights(beta: float) -> tuple[float, ...]:
    """``exp(beta * pips)`` for every pip count a tile can have (0..18): computed once, read often."""
    return tuple(math.exp(beta * pips) for pips in range(19))


def log_likelihood(choices: list[PastChoice], world: dict[int, list[Tile]], beta: float = BETA) -> float:
    """Log-probability (up to a constant) of the plays seen, if the hidden hands are ``world``.

    The model stated plainly, play by play: the hard level runs ``PipsModel``, which works out
    the same figure faster when many worlds are weighed against the same plays, and is tested
    against this function.
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


class PipsModel:
    """``log_likelihood``'s model, built once per decision and then called once per sampled world.

    A decision of the hard level may weigh hundreds of worlds against the same plays, and most of
    what ``log_likelihood`` works out again for each is the same in all of them: the tiles a seat
    laid then and later, and the laid tile's own weight. Here those are summed once per play; a
    world only adds, per seat, the weight of each tile it holds under each suit, from which the
    weight of the tiles fitting any two ends follows (the two suits' sums, less the one tile that
    carries both). The result is ``log_likelihood``'s, but for rounding.
    """

    def __init__(self, choices: Sequence[PastChoice], beta: float = BETA) -> None:
        self._weight = weight = _weights(beta)
        self._seats = sorted({choice.seat for choice in choices})
        # Per play: its seat, the distinct ends it faced (none for the lead), the weight of the
        # tiles it surely held then that fitted, and the log-weight of the tile it laid.
        self._plays: list[tuple[int, tuple[int, ...], float, float]] = []
        for choice in choices:
            ends = choice.ends
            fixed = (*choice.later, choice.laid)
            known = sum(weight[t.pips] for t in fixed if not ends or t.high in ends or t.low in ends)
            self._plays.append((choice.seat, tuple(sorted(set(ends))), known, beta * choice.laid.pips))

    def log_likelihood(self, world: dict[int, list[Tile]]) -> float:
        """Log-probability (up to a constant) of the plays seen, if the hidden hands are ``world``."""
        weight = self._weight
        # Per seat: the weight of its whole hand, of its tiles of each suit, and its tiles by halves.
        whole: dict[int, float] = {}
        by_suit: dict[int, dict[int, float]] = {}
        pairs: dict[int, dict[tuple[int, int], float]] = {}
        for seat in self._seats:
            total = 0.0
            suits: dict[int, float] = {}
            held: dict[tuple[int, int], float] = {}
            for tile in world.get(seat, ()):
                w = weight[tile.pips]
                total += w
                suits[tile.high] = suits.get(tile.high, 0.0) + w
                if tile.low != tile.high:
                    suits[tile.low] = suits.get(tile.low, 0.0) + w
                held[(tile.high, tile.low)] = w
            whole[seat], by_suit[seat], pairs[seat] = total, suits, held
        result = 0.0
        for seat, ends, known, laid in self._plays:
            if not ends:
                norm = whole[seat]
            elif len(ends) == 1:
                norm = by_suit[seat].get(ends[0], 0.0)
            else:
                low, high = ends
                suits = by_suit[seat]
                norm = suits.get(low, 0.0) + suits.get(high, 0.0) - pairs[seat].get((high, low), 0.0)
            result += laid - math.log(norm + known)
        return result


#: The "follow" model's temperature: how sharply a seat is expected to pick the play the normal
#: level's rules score best (its weights are the normal level's own, ``amigos.bots.weights.Weights``).
FOLLOW_BETA = 1.0


@dataclass(frozen=True)
class _Compiled:
    """A past choice as masks of the compact tile set, ready to be weighed in many worlds."""

    seat: int
    fixed: int  # the laid tile and every tile the seat laid later: held then in any world
    fits: int  # mask of the tiles that fitted the ends it faced (every tile for the lead)
    ends: tuple[int, ...]
    laid: int  # index of the tile laid
    after: int  # mask of the suits showing once it was laid
    bonus: tuple[float, ...]  # the choice's `PastChoice.suit_bonus`, one per suit (zeros: none)


class FollowModel:
    """The plays seen, weighed with the rules of thumb a regular player follows.

    The pips-only model above says "heavy tiles go first"; a regular player also keeps long suits,
    plays to its partner and against its opponents' voids (the normal level scores exactly that).
    So a seat that laid a tile leaving a 3 showing probably holds more 3s, and a world in which it
    held none explains the play less well. Each play by another seat is scored like the normal
    level scores it, from what that seat held then in the world (its hand now plus everything it
    laid since): pips, a bonus for a double, for each end left showing the seat's remaining tiles
    of that suit (at most three) and the public part of that end's worth (``PastChoice.
    suit_bonus``); the model picks among the fitting plays with probability proportional to
    ``exp(beta * score)``. Built once per decision (the choices as bit masks), then called once
    per sampled world.

    The hard level reads its opponents with it and its partner with the pips model
    (``HardSettings.play_model = "opponents"``). Without the public part, and on every seat, it
    measured weaker than the pips model (docs/bots.md).
    """

    def __init__(
        self,
        choices: list[PastChoice],
        max_pip: int,
        beta: float = FOLLOW_BETA,
        weights: Weights | None = None,
    ) -> None:
        self.tiles = tiles = tile_set_for(max_pip)
        self.beta = beta
        self.weights = weights or Weights()
        nothing = (0.0,) * (max_pip + 1)
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
            bonus = choice.suit_bonus or nothing
            self.choices.append(_Compiled(choice.seat, fixed, fits, tuple(choice.ends), laid, after, bonus))
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

    def _score(self, index: int, rest: int, showing: int, bonus: tuple[float, ...]) -> float:
        """The normal level's score of laying tile ``index`` with ``rest`` left in the hand and the
        suits ``showing`` (a mask) then open, without its blocking term (a play that surely closes
        the hand is rare, and its worth needs the seat's estimate of every hand's pips)."""
        tiles = self.tiles
        weights = self.weights
        high, low = tiles.halves[index]
        score = weights.pips * tiles.pips[index] + (weights.double if high == low else 0.0)
        suits = tiles.suit_masks
        follow = weights.follow
        while showing:
            bit = showing & -showing
            showing ^= bit
            suit = bit.bit_length() - 1
            score += follow * min(3, (rest & suits[suit]).bit_count()) + bonus[suit]
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
            bonus = choice.bonus
            observed = beta * self._score(choice.laid, held ^ (1 << choice.laid), choice.after, bonus)
            scores = []
            while fitting:
                bit = fitting & -fitting
                fitting ^= bit
                index = bit.bit_length() - 1
                rest = held ^ bit
                for showing in self._outcomes(choice.ends, index):
                    scores.append(beta * self._score(index, rest, showing, bonus))
            top = max(scores)
            total += observed - top - math.log(sum(math.exp(s - top) for s in scores))
        return total


def relative_weights(log_weights: Sequence[float]) -> list[float]:
    """Log-weights as weights relative to the heaviest (which weighs 1): exponentiated after the
    largest is taken off, so a log-weight far below zero underflows to 0 instead of every weight
    overflowing or vanishing together."""
    top = max(log_weights)
    return [math.exp(weight - top) for weight in log_weights]


def systematic_resample(log_weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices into ``log_weights``, drawn in proportion to their weights by systematic
    resampling: one uniform offset, then ``count`` evenly spaced points through the cumulated
    weights. Each index is drawn the floor or the ceiling of its expected number of times
    (``count`` times its share), so a heavy world is solved about as often as its weight says
    and a light one is seldom drawn, with less noise than ``count`` independent draws."""
    if not log_weights or count <= 0:
        return []
    weights = relative_weights(log_weights)
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    drawn: list[int] = []
    index, reached = 0, weights[0]
    last = len(weights) - 1
    for _ in range(count):
        while point >= reached and index < last:
            index += 1
            reached += weights[index]
        drawn.append(index)
        point += step
    return drawn
