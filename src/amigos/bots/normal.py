"""The normal level: the rules of thumb good players use, one look ahead.

Every legal play is scored by a weighted sum of what good players weigh:

* lay heavy tiles early (fewer pips left if the hand blocks or an opponent goes out),
  doubles a little earlier still (a double fits only one suit, so it gets stuck);
* keep long suits: prefer leaving ends in suits we still hold, so we can follow;
* play to the partner: prefer showing the suits the partner laid, never the
  suits the partner passed on;
* make the opponents pass: prefer showing the suits an opponent passed on,
  most of all the one who plays next;
* block when ahead in pips: a play that surely closes the hand is taken when our
  side should hold fewer pips than the other side, and avoided otherwise;
* score during play in the fives and threes games, and avoid handing the next
  seat an easy score.

Ties are broken by the random generator, so the bot is reproducible from (view, rng).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from amigos.bots.base import options
from amigos.bots.knowledge import BONEYARD, Knowledge, infer, shown_suits
from amigos.bots.weights import Weights, suit_bonus
from amigos.engine import Action, Line, Play, PlayEvent, Tile, pips
from amigos.engine.view import SeatView


def after(line: Line, play: Play) -> Line:
    """The line once ``play`` is laid."""
    return line.lay(play)


def expected_pips(knowledge: Knowledge, seat: int) -> float:
    """Pips a hidden seat holds on average if the unseen tiles were spread by hand size."""
    total_size = sum(knowledge.sizes.values())
    if total_size == 0:
        return 0.0
    return pips(knowledge.unseen) * knowledge.sizes.get(seat, 0) / total_size


class NormalBot:
    """Scores each legal play by the good players' rules of thumb and takes the best."""

    name = "normal"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = options(view)
        if len(actions) == 1:
            return actions[0]
        scores = self.scores(view)
        best = max(scores.values())
        top = [action for action in actions if scores[action] >= best - 1e-9]
        return top[rng.randrange(len(top))]

    def scores(self, view: SeatView) -> dict[Action, float]:
        """The heuristic score of every legal play (higher is better)."""
        knowledge = infer(view)
        context = _Context.build(view, knowledge, self.weights)
        return {
            action: self._score(view, knowledge, context, action)
            for action in view.legal_actions()
            if isinstance(action, Play)
        }

    def _score(self, view: SeatView, knowledge: Knowledge, context: _Context, play: Play) -> float:
        w = self.weights
        tile = play.tile
        line = after(view.line, play)
        ends = set(line.open_ends())
        rest = view.hand - {tile}
        score = w.pips * tile.pips + (w.double if tile.is_double else 0.0)
        for end in ends:
            score += w.follow * min(3, sum(1 for t in rest if t.has(end))) + context.suit_bonus[end]
        if view.variant.scores_during_play:
            score += w.scored * view.variant.play_score(line.count())
            score -= w.threat * _best_reply_score(view, line)
        if _surely_blocked(view, knowledge, line, rest):
            mine = pips(rest) + context.partner_pips
            score += w.block if mine < context.opponent_pips else -w.block
        return score


@dataclass(frozen=True)
class _Context:
    #: What an end of each suit adds to a play's score: partner's suits and voids, opponents'
    #: voids (`amigos.bots.weights.suit_bonus`, which the hard level's model of players reads too).
    suit_bonus: tuple[float, ...]
    partner_pips: float
    opponent_pips: float

    @staticmethod
    def build(view: SeatView, knowledge: Knowledge, weights: Weights) -> _Context:
        variant = view.variant
        seat = knowledge.seat
        players = variant.players
        partners = [s for s in range(players) if s != seat and variant.team_of(s) == variant.team_of(seat)]
        opponents = [s for s in range(players) if variant.team_of(s) != variant.team_of(seat)]
        shown = {partner: _laid_suits(view, partner) for partner in partners}
        return _Context(
            suit_bonus=suit_bonus(variant, seat, knowledge.voids, shown, weights),
            partner_pips=sum(expected_pips(knowledge, p) for p in partners),
            opponent_pips=max((expected_pips(knowledge, o) for o in opponents), default=0.0)
            if not variant.partnership
            else sum(expected_pips(knowledge, o) for o in opponents),
        )


def _laid_suits(view: SeatView, seat: int) -> set[int]:
    """Suits ``seat`` showed by its plays (`shown_suits`)."""
    suits: set[int] = set()
    line = Line.empty(view.variant.spinner)
    for event in view.history:
        if not isinstance(event, PlayEvent):
            continue
        line = line.lay(event.play)
        if event.seat == seat:
            suits.update(shown_suits(event.play, line))
    return suits


def _surely_blocked(view: SeatView, knowledge: Knowledge, line: Line, rest: frozenset[Tile]) -> bool:
    """Whether no tile that could still be laid matches the ends after this play."""
    if view.variant.draws and knowledge.sizes.get(BONEYARD, 0) > 0:
        return False
    if not rest:
        return False  # that play goes out: a domino, not a block
    ends = line.open_ends()
    live = [t for t in knowledge.unseen if any(t.has(e) for e in ends)]
    return not live and not any(t.has(e) for t in rest for e in ends)


def _best_reply_score(view: SeatView, line: Line) -> int:
    """The most the next seat could score in reply, if it held any unseen tile that fits."""
    best = 0
    unseen = view.unseen_tiles()
    for arm, value in zip(line.open_arms(), line.open_ends(), strict=True):
        for tile in unseen:
            if tile.has(value):
                try:
                    reply = line.place(tile, arm)
                except ValueError:
                    continue
                best = max(best, view.variant.play_score(reply.count()))
    return best
