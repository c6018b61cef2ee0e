"""The compiled kernel against the pure-Python search it mirrors.

The kernel must visit the same nodes as the Python search, not merely find the same values: node
budgets (the hard bot's, the Academy's) are counted in nodes, and a budgeted answer must not depend
on whether the machine had a C compiler. So every test compares the value of every action and the
node count, on positions drawn with ``st.data()`` (thousands of them over the tests), reused
tables and budgets that run out mid-search included.

The kernel is built by ``pip install`` (``make test`` installs the project first); these tests
fail, rather than skip, when it is missing, so a broken build cannot go unnoticed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.academy import two_ended
from amigos.academy.compact import tile_set_for
from amigos.academy.solve import compact_position, rules_for
from amigos.academy.two_ended import (
    CUBAN_ESTIMATE,
    ESTIMATE_FEATURES,
    PIPS_ESTIMATE,
    BudgetExceeded,
    HandScoring,
    HorizonEstimate,
    Move,
    Position,
    TwoEndedRules,
    TwoEndedSolver,
)
from amigos.engine import find_variant
from amigos.engine.deal import deal_from_key
from amigos.engine.match import Match
from amigos.engine.simulate import seeded_key


def _rules(data: st.DataObject) -> TwoEndedRules:
    return TwoEndedRules(
        data.draw(st.sampled_from([6, 9]), label="max_pip"),
        data.draw(st.sampled_from([2, 4]), label="players"),
        data.draw(st.sampled_from(list(HandScoring)), label="scoring"),
        data.draw(st.sampled_from([None, 0, 1]), label="tie_winner"),
    )


def _position(data: st.DataObject, rules: TwoEndedRules, most: int) -> Position:
    """Hands of up to ``most`` tiles each (possibly uneven, possibly empty but the mover's), ends
    drawn freely (a lead when None), any seat to move."""
    size = tile_set_for(rules.max_pip).size
    order = data.draw(st.permutations(range(size)), label="shuffle")
    hands = []
    taken = 0
    for _ in range(rules.players):
        count = data.draw(st.integers(0, most), label="hand size")
        hands.append(sum(1 << i for i in order[taken : taken + count]))
        taken += count
    seat = data.draw(st.integers(0, rules.players - 1), label="to move")
    if hands[seat] == 0:
        hands[seat] = 1 << order[taken]
    ends: tuple[int, int] | None = None
    if data.draw(st.booleans(), label="ends"):
        ends = tuple(sorted(data.draw(st.tuples(*[st.integers(0, rules.max_pip)] * 2), label="ends")))  # type: ignore[assignment]
    return Position(tuple(hands), ends, seat)


def _both(rules: TwoEndedRules, budget: int | None = None) -> tuple[TwoEndedSolver, TwoEndedSolver]:
    return (
        TwoEndedSolver(rules, node_budget=budget, compiled=False),
        TwoEndedSolver(rules, node_budget=budget, compiled=True),
    )


def _action_values(solver: TwoEndedSolver, position: Position) -> dict[Move, int] | str:
    try:
        return solver.action_values(position)
    except BudgetExceeded:
        return "budget exceeded"


def test_this_installation_has_the_kernel() -> None:
    assert two_ended.COMPILED, "the C kernel is not built: run `pip install -e .` (needs a C compiler)"
    assert TwoEndedSolver(TwoEndedRules(6, 4, HandScoring.LOSERS)).compiled


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_every_action_value_and_node_count_matches_the_python_search(data: st.DataObject) -> None:
    rules = _rules(data)
    position = _position(data, rules, data.draw(st.integers(1, 5), label="most"))
    python, compiled = _both(rules)
    assert compiled.action_values(position) == python.action_values(position)
    assert compiled.stats.nodes == python.stats.nodes
    if position.ends is not None:
        assert compiled.value(position) == python.value(position)
        assert compiled.stats.nodes == python.stats.nodes


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_a_horizon_gives_the_same_values_and_nodes_in_both(data: st.DataObject) -> None:
    """The depth-limited search (``horizon``: plays leaving at most that many tiles in the hands are
    scored by ``estimate``) is mirrored by the kernel too, estimates and shared tables included."""
    rules = _rules(data)
    horizon = data.draw(st.integers(1, 16), label="horizon")
    estimator = HorizonEstimate(
        tuple(data.draw(st.lists(st.integers(-3_000, 6_000), min_size=15, max_size=15), label="weights")),
        data.draw(st.integers(0, 5_000), label="lowest"),
    )
    python = TwoEndedSolver(rules, compiled=False, horizon=horizon, estimator=estimator)
    compiled = TwoEndedSolver(rules, compiled=True, horizon=horizon, estimator=estimator)
    for _ in range(data.draw(st.integers(1, 3), label="positions")):
        position = _position(data, rules, data.draw(st.integers(1, 6), label="most"))
        assert compiled.action_values(position) == python.action_values(position)
        assert compiled.stats.nodes == python.stats.nodes


def test_a_horizon_scores_the_positions_it_reaches_by_the_estimate() -> None:
    """With a horizon above every position's tile count, each play that does not end the hand is
    worth exactly ``estimate`` of the hands it leaves, and no node below the root is searched."""
    rules = TwoEndedRules(9, 4, HandScoring.LOSERS, 0)
    tiles = tile_set_for(9)
    hands = (
        tiles.mask_of([(9, 9), (9, 5), (4, 1)]),
        tiles.mask_of([(8, 2), (3, 3)]),
        tiles.mask_of([(7, 0), (6, 6), (2, 2)]),
        tiles.mask_of([(5, 0), (1, 0)]),
    )
    position = Position(hands, (9, 4), 0)
    for compiled in (False, True):
        solver = TwoEndedSolver(rules, compiled=compiled, horizon=40)
        values = solver.action_values(position)
        assert solver.stats.nodes == 0
        for move, value in values.items():
            left = list(hands)
            left[0] ^= 1 << move.tile
            assert value == solver.estimate(left, 0, *move.ends_after)
    # (9, 9) laid: side 0 holds 19 + 23 pips, side 1 holds 16 + 6; the shortest hands of both sides
    # hold 2 tiles, so side 0 wins with a chance of 45%: (45 * 22 - 55 * 42) // 100 = -14 (floored).
    left = [hands[0] ^ (1 << tiles.tile_index(9, 9)), *hands[1:]]
    assert TwoEndedSolver(rules, horizon=40).estimate(left, 0, 9, 4) == -14


def test_each_feature_of_the_estimate_reads_what_it_says() -> None:
    """The features of one position, worked out by hand, and Cuban's estimate of it, in both searches."""
    rules = TwoEndedRules(9, 4, HandScoring.LOSERS, 1)
    tiles = tile_set_for(9)
    hands = [
        tiles.mask_of([(5, 1), (3, 3)]),  # seat 0 has just played (9, 0) on the 9; (5, 1) fits the 5
        tiles.mask_of([(9, 5), (8, 8), (7, 2)]),  # next: one tile fits
        tiles.mask_of([(6, 6), (4, 4), (2, 1), (1, 1)]),  # partner: none fits
        tiles.mask_of([(5, 5), (6, 0)]),  # other: both fit
    ]
    solver = TwoEndedSolver(rules, horizon=40, estimator=CUBAN_ESTIMATE)
    features = dict(zip(ESTIMATE_FEATURES, solver.estimate_features(hands, 0, 0, 5), strict=True))
    assert features == {
        "even": 1,
        "tempo": 2 - 2,
        "next_can": 1,
        "other_can": 1,
        "partner_can": 0,
        "own_can": 1,
        "next_fits": 1,
        "other_fits": 2,
        "partner_fits": 0,
        "own_fits": 1,
        "own_minus_next_tiles": 2 - 3,
        "partner_minus_other_tiles": 4 - 2,
        "pip_lead": (39 + 16) - (12 + 25),
        "tie": 0,  # side 1 wins a tied block
        "doubles": 4 - 2,
    }
    chance = sum(w * f for w, f in zip(CUBAN_ESTIMATE.weights, features.values(), strict=True))
    chance = max(CUBAN_ESTIMATE.lowest, min(10_000 - CUBAN_ESTIMATE.lowest, chance))
    assert solver.estimate(hands, 0, 0, 5) == (chance * 55 - (10_000 - chance) * 37) // 10_000
    # Before that play: each of seat 0's plays is scored by the estimate, the same in the kernel.
    before = Position((hands[0] | tiles.mask_of([(9, 0)]), *hands[1:]), (9, 5), 0)
    for compiled in (False, True):
        searched = TwoEndedSolver(rules, compiled=compiled, horizon=40, estimator=CUBAN_ESTIMATE)
        values = searched.action_values(before)
        assert len(values) == 2 and searched.stats.nodes == 0
        for move, value in values.items():
            left = [before.hands[0] ^ (1 << move.tile), *before.hands[1:]]
            assert value == solver.estimate(left, 0, *move.ends_after)


def test_an_estimate_needs_one_weight_per_feature() -> None:
    with pytest.raises(ValueError, match="weights"):
        HorizonEstimate((4_500,))
    with pytest.raises(ValueError, match="lowest"):
        HorizonEstimate(PIPS_ESTIMATE.weights, lowest=6_000)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_valuing_only_some_plays_gives_their_exact_values(data: st.DataObject) -> None:
    """``action_values(only=...)`` (the hard level's "search only the best few plays") answers exactly
    those plays, each with the value the full call gives it, in both searches."""
    rules = _rules(data)
    position = _position(data, rules, data.draw(st.integers(1, 5), label="most"))
    everything = TwoEndedSolver(rules, compiled=False).action_values(position)
    chosen = (
        set(data.draw(st.lists(st.sampled_from(sorted(everything)), unique=True), label="only"))
        if everything
        else set()
    )
    for compiled in (False, True):
        some = TwoEndedSolver(rules, compiled=compiled).action_values(position, chosen)
        assert some == {move: everything[move] for move in chosen}


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_a_budget_runs_out_at_the_same_node_in_both(data: st.DataObject) -> None:
    """A shared table over several positions (as the hard bot's worlds) and a budget that may run
    out in any of them: both searches answer the same positions and stop at the same node."""
    rules = _rules(data)
    budget = data.draw(st.integers(1, 4_000), label="budget")
    python, compiled = _both(rules, budget)
    for _ in range(data.draw(st.integers(1, 4), label="positions")):
        position = _position(data, rules, 4)
        expected = _action_values(python, position)
        assert _action_values(compiled, position) == expected
        assert compiled.stats.nodes == python.stats.nodes
        if expected == "budget exceeded":
            assert python.stats.nodes == budget + 1
            break


@settings(max_examples=5, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_whole_amigos_first_lead_matches(rng: random.Random) -> None:
    """The Academy's largest exact search: 28 tiles in the hands, every play of the lead."""
    variant = find_variant("amigos-100")
    deal = deal_from_key(seeded_key(rng), variant)
    state = Match.new(variant, ("A", "B", "C", "D"), rng.randrange(4)).start_hand(deal)
    python, compiled = _both(rules_for(variant, state.tie_winner))
    position = compact_position(state)
    assert compiled.action_values(position) == python.action_values(position)
    assert compiled.stats.nodes == python.stats.nodes


def test_bad_input_to_the_kernel_is_refused() -> None:
    solver = TwoEndedSolver(TwoEndedRules(6, 4, HandScoring.LOSERS))
    kernel = solver._kernel
    assert kernel is not None
    with pytest.raises(ValueError, match="one hand per seat"):
        kernel.search((1, 2), 0, 0, 0, -10, 10, 0, 100)
    with pytest.raises(ValueError, match="outside the set"):
        kernel.search((1 << 40, 2, 4, 8), 0, 0, 0, -10, 10, 0, 100)
    with pytest.raises(ValueError, match="ends"):
        kernel.search((1, 2, 4, 8), 5, 2, 0, -10, 10, 0, 100)
    assert kernel.entries == 0


def test_without_the_kernel_the_solver_falls_back_to_python() -> None:
    """A machine without a compiler installs without the kernel: the solver still answers, in Python,
    and asking for the kernel explicitly is a clear error."""
    script = """
import sys
sys.modules["amigos.academy._two_ended_kernel"] = None  # as if the build had been skipped
from amigos.academy.two_ended import COMPILED, HandScoring, Position, TwoEndedRules, TwoEndedSolver
rules = TwoEndedRules(6, 4, HandScoring.LOSERS)
solver = TwoEndedSolver(rules)
assert not COMPILED and not solver.compiled
print(solver.value(Position((1 << 27, 1 << 26, 1 << 25, 1 << 24), (6, 6), 0)))
try:
    TwoEndedSolver(rules, compiled=True)
except RuntimeError as error:
    print(error)
"""
    source = str(Path(two_ended.__file__).resolve().parents[2])  # this checkout's src, not another
    env = {**os.environ, "PYTHONPATH": source}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    value, error = done.stdout.splitlines()
    expected = TwoEndedSolver(TwoEndedRules(6, 4, HandScoring.LOSERS), compiled=False)
    assert int(value) == expected.value(Position((1 << 27, 1 << 26, 1 << 25, 1 << 24), (6, 6), 0))
    assert "not built" in error
