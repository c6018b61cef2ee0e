"""Depth-limited search for the draw and fives games (spinner line, boneyard).

These games are for 2 to 4 players, each for themselves, with a four-armed
line and a boneyard, so the compact two-ended solver does not apply.  This
search works directly on the engine's ``HandState`` (which also draws for a
seat automatically), using the full information of the state it is given:
every hand and the boneyard in draw order.

What it computes (and guarantees).  The value of a position is a *margin* for
one side (the "root" side, the side to move at the root): the points that side
gains from here to the end of the hand (points scored during play plus the
end-of-hand award) minus what its rivals gain: by default the largest gain of
any other side (``rivals="best"``: how far ahead of the strongest rival), or
their mean gain (``rivals="mean"``: how far ahead of the field, which the hard
level plays for at tables of three or four, each for themselves).  With two
sides both are the same.  Search is
*paranoid*: the root side maximizes the margin and every other seat minimizes
it, as if all opponents played together against the root side.  Alpha-beta
prunes, so values are exactly those of full minimax on the same tree.

* Within the horizon the values are exact for that model: if every line of
  play from an action ends the hand within ``depth`` actions, the returned
  value is the exact paranoid value of that action.  With two players the
  paranoid value is the true minimax value, so with ``depth=None`` (no
  horizon) the search is an exact perfect-information solver.
* Beyond the horizon a position is scored by ``evaluate``: the margin gained
  so far plus a quarter of the pip difference between the other sides (their
  mean remaining pips) and the root side (fewer pips in hand is better at the
  end of a hand).  That leaf score is a heuristic, not a bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from amigos.academy.two_ended import BudgetExceeded
from amigos.engine import Action, HandState, Play, pips

PIP_WEIGHT = 0.25

#: Whom a margin is measured against: the other side that gained most, or the other sides' mean.
Rivals = Literal["best", "mean"]


@dataclass
class SpinnerSearch:
    """Paranoid alpha-beta on ``HandState`` to a depth (in actions), with an optional node budget."""

    depth: int | None = 4
    node_budget: int | None = None
    nodes: int = 0
    rivals: Rivals = "best"

    def action_values(self, state: HandState) -> dict[Action, float]:
        """The value of every legal action of the seat to move, for that seat's side."""
        root_side = state.variant.team_of(state.to_move)
        base = state.play_points
        out: dict[Action, float] = {}
        for action in _ordered(state):
            child = state.apply(action, state.to_move)
            remaining = None if self.depth is None else self.depth - 1
            out[action] = self._search(child, root_side, base, remaining, -float("inf"), float("inf"))
        return out

    def evaluate(self, state: HandState, root_side: int, base: tuple[int, ...], final: bool) -> float:
        """The margin gained by ``root_side`` since the root (plus the pip term if not ``final``)."""
        variant = state.variant
        gains = [state.play_points[side] - base[side] for side in range(variant.sides)]
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            gains[outcome.winner] += outcome.points
        others = [gain for side, gain in enumerate(gains) if side != root_side]
        rivals = max(others) if self.rivals == "best" else sum(others) / len(others)
        margin = float(gains[root_side] - rivals)
        if final:
            return margin
        own = sum(pips(state.hands[s]) for s in range(variant.players) if variant.team_of(s) == root_side)
        rest = [pips(state.hands[s]) for s in range(variant.players) if variant.team_of(s) != root_side]
        return margin + PIP_WEIGHT * (sum(rest) / len(rest) - own)

    def _search(
        self,
        state: HandState,
        root_side: int,
        base: tuple[int, ...],
        depth: int | None,
        alpha: float,
        beta: float,
    ) -> float:
        self.nodes += 1
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise BudgetExceeded
        if state.is_over:
            return self.evaluate(state, root_side, base, final=True)
        if depth is not None and depth <= 0:
            return self.evaluate(state, root_side, base, final=False)
        maximizing = state.variant.team_of(state.to_move) == root_side
        deeper = None if depth is None else depth - 1
        best = -float("inf") if maximizing else float("inf")
        for action in _ordered(state):
            value = self._search(state.apply(action, state.to_move), root_side, base, deeper, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def _ordered(state: HandState) -> list[Action]:
    """Heavier tiles first: usually the better play, so cut-offs come early."""
    actions = list(state.legal_actions())
    actions.sort(key=lambda action: -action.tile.pips if isinstance(action, Play) else 0)
    return actions
