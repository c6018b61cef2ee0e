"""``solve_within(state)``: the Academy's answer for a position, within a node budget.

The exact solver of the two-ended games answers most positions in well under a second, but the
first lead of a Cuban hand (40 tiles in the hands) took it five minutes and six gigabytes. A
site answers every visitor, so every search here has a budget counted in nodes, never in
seconds: the same position always gets the same answer, on any machine.

* Two-ended games (Amigos, Cuban): the exact solver runs with ``exact_nodes``. When that budget
  runs out, its table is dropped and the answer comes from the depth-limited search
  (``SpinnerSearch`` on the engine's state) deepened one action at a time while
  ``estimate_nodes`` lasts; the deepest search that finished is the answer, flagged as not exact
  with its depth. Every Amigos first lead measured needs at most 600,000 nodes, so Amigos
  answers stay exact.
* Draw and fives games between two sides (one against one, or partners): first the same search
  without a horizon within ``spinner_exact_nodes``, which is exact when it finishes (with two
  sides its paranoid value is the true minimax value): the end of a hand, where a mistake is
  easiest to see, gets exact values. When it does not finish (flagged ``limited``, like a
  two-ended position too big), and always with three or four sides each for themselves (where the
  paranoid value is only a model), the depth-limited search as before (depth 4), deepened from
  depth 1 so that a position too wide for depth 4 within the budget still gets the deepest answer
  that fits.

The transposition table holds at most one entry per node searched, so ``exact_nodes`` also bounds
the memory of a search (about 190 bytes an entry: 800,000 nodes, some 150 MB).
"""

from __future__ import annotations

from dataclasses import dataclass

from amigos.academy.solve import is_two_ended, rules_for, solve
from amigos.academy.spinner_search import SpinnerSearch
from amigos.academy.two_ended import BudgetExceeded, TwoEndedSolver
from amigos.engine import Action, HandState

#: Nodes of the exact two-ended search (about 1.2 s and 150 MB on one core of the bench machine).
EXACT_NODES = 800_000
#: Nodes of the depth-limited search, over all its depths (about 1.5 s on the same core).
ESTIMATE_NODES = 60_000
#: Nodes of the exact (no horizon) search of a draw or fives game between two sides, tried first
#: (about 0.2 s on the bench machine's core).
SPINNER_EXACT_NODES = 8_000
#: The depth the draw and fives games are searched to (as before the budgets).
SPINNER_DEPTH = 4
#: The deepest a fallback search of a two-ended game goes (a hand of 55 tiles has fewer actions).
MAX_DEPTH = 60


@dataclass(frozen=True, slots=True)
class Answer:
    """The value of every legal action, and how it was found."""

    values: dict[Action, int | float]
    exact: bool  # the exact solver's values (False: a depth-limited estimate)
    depth: int | None  # the depth of the estimate (None when exact)
    nodes: int  # every node searched for this answer, the abandoned exact attempt included
    limited: bool = False  # an exact search was tried and ran out of budget (a position too big)


def solve_within(
    state: HandState,
    *,
    exact_nodes: int = EXACT_NODES,
    estimate_nodes: int = ESTIMATE_NODES,
    spinner_exact_nodes: int = SPINNER_EXACT_NODES,
) -> Answer:
    """The Academy's values at ``state`` within the budgets (see the module docstring)."""
    if state.is_over:
        return Answer({}, True, None, 0)
    if not is_two_ended(state.variant):
        tried = 0
        if state.variant.sides == 2:
            exact = SpinnerSearch(depth=None, node_budget=spinner_exact_nodes)
            try:
                return Answer(dict(exact.action_values(state)), True, None, exact.nodes)
            except BudgetExceeded:
                tried = exact.nodes
        values, depth, nodes = _deepening(state, estimate_nodes, SPINNER_DEPTH)
        return Answer(values, False, depth, tried + nodes, limited=tried > 0)
    solver = TwoEndedSolver(rules_for(state.variant, state.tie_winner), node_budget=exact_nodes)
    try:
        return Answer(solve(state, solver=solver), True, None, solver.stats.nodes)
    except BudgetExceeded:
        spent = solver.stats.nodes
    del solver  # its table is the memory of the search: let it go before the next one
    values, depth, nodes = _deepening(state, estimate_nodes, MAX_DEPTH)
    return Answer(values, False, depth, spent + nodes, limited=True)


def _deepening(state: HandState, budget: int, max_depth: int) -> tuple[dict[Action, int | float], int, int]:
    """The deepest depth-limited values that fit ``budget`` nodes in all, with that depth and the
    nodes spent. Depth 1 (one node per legal action) is always searched, whatever the budget."""
    first = SpinnerSearch(depth=1)
    best: dict[Action, int | float] = dict(first.action_values(state))
    spent = first.nodes
    reached = 1
    for depth in range(2, max_depth + 1):
        search = SpinnerSearch(depth=depth, node_budget=budget - spent)
        try:
            values = search.action_values(state)
        except BudgetExceeded:
            spent += search.nodes
            break
        spent += search.nodes
        best, reached = dict(values), depth
    return best, reached, spent
