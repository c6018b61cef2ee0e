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
from amigos.bots.knowledge import BONEYARD, Knowledge, infer
from amigos.bots.weights import Weights
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
        context = _Context.build(view, knowledge)
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
            score += w.follow * min(3, sum(1 for t in rest if t.has(end)))
            if end in context.partner_suits:
                score += w.partner_suit
            if end in context.partner_voids:
                score -= w.partner_void
            if end in context.next_voids:
                score += w.next_opponent_void
            if end in context.other_voids:
                score += w.other_opponent_void
        if view.variant.scores_during_play:
            score += w.scored * view.variant.play_score(line.count())
            score -= w.threat * _best_reply_score(view, line)
        if _surely_blocked(view, knowledge, line, rest):
            mine = pips(rest) + context.partner_pips
            score += w.block if mine < context.opponent_pips else -w.block
        return score


@dataclass(frozen=True)
class _Context:
    partner_suits: frozenset[int]
    partner_voids: frozenset[int]
    next_voids: frozenset[int]
    other_voids: frozenset[int]
    partner_pips: float
    opponent_pips: float

    @staticmethod
    def build(view: SeatView, knowledge: Knowledge) -> _Context:
        variant = view.variant
        seat = knowledge.seat
        players = variant.players
        partners = [s for s in range(players) if s != seat and variant.team_of(s) == variant.team_of(seat)]
        opponents = [s for s in range(players) if variant.team_of(s) != variant.team_of(seat)]
        nxt = (seat + 1) % players
        partner_suits: set[int] = set()
        partner_voids: set[int] = set()
        for partner in partners:
            partner_suits |= _laid_suits(view, partner)
            partner_voids |= knowledge.voids.get(partner, frozenset())
        other_voids: set[int] = set()
        for opponent in opponents:
            if opponent != nxt:
                other_voids |= knowledge.voids.get(opponent, frozenset())
        next_voids = knowledge.voids.get(nxt, frozenset()) if nxt in opponents else frozenset()
        return _Context(
            partner_suits=frozenset(partner_suits - partner_voids),
            partner_voids=frozenset(partner_voids),
            next_voids=frozenset(next_voids),
            other_voids=frozenset(other_voids),
            partner_pips=sum(expected_pips(knowledge, p) for p in partners),
            opponent_pips=max((expected_pips(knowledge, o) for o in opponents), default=0.0)
            if not variant.partnership
            else sum(expected_pips(knowledge, o) for o in opponents),
        )


def _laid_suits(view: SeatView, seat: int) -> set[int]:
    """Suits ``seat`` showed by its plays: the outer half of each tile it laid (both halves of a lead)."""
    suits: set[int] = set()
    line = Line.empty(view.variant.spinner)
    for event in view.history:
        if not isinstance(event, PlayEvent):
            continue
        play = event.play
        line = line.lay(play)
        if event.seat == seat:
            if play.arm is None:
                suits.update((play.tile.high, play.tile.low))
            else:
                suits.add(line.placements[-1].outer)
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
