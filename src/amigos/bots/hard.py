"""The hard level: sample the hidden hands, solve each sample, take the best weighted average.

This is perfect-information Monte Carlo: the bot reads what the view proves
about the hidden tiles (hand sizes, and the suits each seat passed or drew on,
see ``amigos.bots.knowledge``), deals the unseen tiles at random in ways that
fit that knowledge, and for each such world asks the Academy's solver for the
value of every legal action.  In Amigos and Cuban each world is weighted by how
likely it makes the plays already seen (``amigos.bots.likelihood``); the action
with the best weighted average value wins.

Time is bounded by a *node budget* per decision, not by the clock, so the
choice depends only on the view and the random generator: the same view and
the same generator state always give the same action, on any machine, and no
hidden tile can influence it (the bot never sees one).  The budgets are sized
so that a decision takes well under the goal times on one core (see
docs/bots.md for the measured figures).

* Two-ended games (Amigos, Cuban): each world is solved exactly by the compact
  solver, sharing one transposition table across the worlds of a decision.
  The lead (first tile of the hand) is the normal level's choice: no world of
  27 unknown tiles can be solved exactly inside the budget.  When the budget
  runs out before ``min_worlds`` worlds were solved the decision also falls
  back to the normal level.
* Draw and fives games: each world (hidden hands and boneyard order) is built
  with ``SeatView.determinize`` and searched by the depth-limited
  ``SpinnerSearch``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from amigos.academy.compact import tile_set_for
from amigos.academy.solve import compact_move, is_two_ended, rules_for
from amigos.academy.spinner_search import SpinnerSearch
from amigos.academy.two_ended import BudgetExceeded, Move, Position, TwoEndedSolver
from amigos.bots.base import options
from amigos.bots.knowledge import BONEYARD, Knowledge, infer, sample_world
from amigos.bots.likelihood import log_likelihood, past_choices
from amigos.bots.normal import NormalBot
from amigos.engine import Action, Play
from amigos.engine.view import SeatView


@dataclass(frozen=True)
class HardSettings:
    """Budgets of the hard level (nodes of search per decision, number of sampled worlds)."""

    early_nodes: int = 110_000  # decisions before the 8th tile (fewer than 7 tiles on the table)
    late_nodes: int = 8_000  # from the 8th tile on (12,000 gave p95 54 ms on one quiet core: over 50)
    max_worlds: int = 40
    min_worlds: int = 3
    play_inference: bool = True  # weight worlds by the likelihood of the plays seen
    spinner_depth: int = 4
    spinner_worlds: int = 12
    spinner_nodes: int = 12_000


class HardBot:
    """Perfect-information Monte Carlo over the Academy's solvers (see the module docstring)."""

    name = "hard"

    def __init__(self, settings: HardSettings | None = None) -> None:
        self.settings = settings or HardSettings()
        self._fallback = NormalBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = options(view)
        if len(actions) == 1:
            return actions[0]
        if view.line.is_empty:
            return self._fallback.choose(view, rng)
        knowledge = infer(view)
        if is_two_ended(view.variant):
            totals = self._two_ended_totals(view, knowledge, actions, rng)
        else:
            totals = self._spinner_totals(view, knowledge, rng)
        if totals is None:
            return self._fallback.choose(view, rng)
        best = max(totals.values())
        top = [action for action in actions if totals.get(action, -float("inf")) >= best - 1e-9]
        if len(top) == 1:
            return top[0]
        # Equal values: let the normal level's rules of thumb break the tie.
        heuristic = self._fallback.scores(view)
        return max(top, key=lambda action: heuristic.get(action, 0.0))

    def _two_ended_totals(
        self, view: SeatView, knowledge: Knowledge, actions: list[Action], rng: random.Random
    ) -> dict[Action, float] | None:
        settings = self.settings
        variant = view.variant
        seat = view.seat
        assert seat is not None
        laid = len(view.line.placements)
        budget = settings.early_nodes if laid < 7 else settings.late_nodes
        solver = TwoEndedSolver(rules_for(variant, view.tie_winner), node_budget=budget)
        moves: dict[Action, Move] = {
            action: compact_move(view.line, action, variant.max_pip)
            for action in actions
            if isinstance(action, Play)
        }
        tiles = tile_set_for(variant.max_pip)
        own = tiles.mask_of(view.hand)
        a, b = view.line.open_ends()
        choices = past_choices(view) if settings.play_inference else []
        solved: list[tuple[float, dict[Move, int]]] = []
        for _ in range(settings.max_worlds):
            world = sample_world(knowledge, rng)
            hands = tuple(
                own if other == seat else tiles.mask_of(world[other]) for other in range(variant.players)
            )
            try:
                values = solver.action_values(Position(hands, (a, b), seat))
            except BudgetExceeded:
                break
            solved.append((log_likelihood(choices, world), values))
        if len(solved) < settings.min_worlds:
            return None
        # Weight each world by how well it explains the plays seen (see amigos.bots.likelihood).
        top = max(weight for weight, _ in solved)
        weights = [math.exp(weight - top) for weight, _ in solved]
        norm = sum(weights)
        return {
            action: sum(w * values[move] for w, (_, values) in zip(weights, solved, strict=True)) / norm
            for action, move in moves.items()
        }

    def _spinner_totals(
        self, view: SeatView, knowledge: Knowledge, rng: random.Random
    ) -> dict[Action, float] | None:
        settings = self.settings
        totals: dict[Action, float] = {}
        solved = 0
        for _ in range(settings.spinner_worlds):
            world = sample_world(knowledge, rng)
            others = {slot: tiles for slot, tiles in world.items() if slot != BONEYARD}
            state = view.determinize(others, world.get(BONEYARD, []))
            search = SpinnerSearch(depth=settings.spinner_depth, node_budget=settings.spinner_nodes)
            try:
                values = search.action_values(state)
            except BudgetExceeded:
                continue
            for action, value in values.items():
                totals[action] = totals.get(action, 0.0) + value
            solved += 1
        if solved == 0:
            return None
        return {action: total / solved for action, total in totals.items()}
