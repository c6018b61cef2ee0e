"""``solve(state)`` agrees with a brute-force minimax that uses only the engine.

The brute force applies every legal action with ``HandState.apply`` and scores
finished hands from ``state.outcome`` (the engine's own counting), so it checks
the solver's compact encoding, its move mapping and its scoring rules against
the rules engine, on small endgames reached by random legal play.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.academy.solve import action_costs, is_two_ended, solve
from amigos.academy.spinner_search import SpinnerSearch
from amigos.engine import HandState, find_variant, tile_set
from amigos.engine.variants.base import Family

TWO_ENDED = ("amigos-100", "amigos-200", "amigos-hands", "cuban-2v2", "cuban-1v1")


def _margin(state: HandState, side: int) -> int:
    """End-of-hand award as a margin for ``side`` (plus points scored during play since the start)."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return outcome.points if outcome.winner == side else -outcome.points


def brute(state: HandState, side: int) -> int:
    if state.is_over:
        return _margin(state, side)
    values = [brute(state.apply(action, state.to_move), side) for action in state.legal_actions()]
    if state.variant.team_of(state.to_move) == side:
        return max(values)
    return min(values)


def endgame(name: str, rng: random.Random, left: int, players: int | None = None) -> HandState:
    """A random deal played at random until at most ``left`` tiles remain in the hands, or until
    the next action would end the hand (``players``: the draw and fives games' table size)."""
    variant = find_variant(name, players)
    tiles = list(tile_set(variant.max_pip))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[s * size : (s + 1) * size] for s in range(variant.players)]
    tie_winner = rng.randrange(2) if variant.family is Family.CUBAN else None
    leader = rng.randrange(variant.players)
    state = HandState.start(variant, hands, leader, tiles[variant.players * size :], tie_winner)
    while sum(len(h) for h in state.hands) > left:
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))], state.to_move)
        if following.is_over:
            return state
        state = following
    return state


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TWO_ENDED), st.randoms(), st.integers(3, 9))
def test_two_ended_values_match_engine_brute_force(name: str, rng: random.Random, left: int) -> None:
    state = endgame(name, rng, left)
    assert is_two_ended(state.variant)
    side = state.variant.team_of(state.to_move)
    values = solve(state)
    assert set(values) == set(state.legal_actions())
    for action, value in values.items():
        assert value == brute(state.apply(action, state.to_move), side), action


def test_every_first_lead_of_a_full_amigos_deal_is_valued() -> None:
    state = endgame("amigos-100", random.Random(5), 28)
    values = solve(state)
    assert len(values) == 7
    assert all(-200 < value < 200 for value in values.values())


def _spinner_brute(state: HandState, side: int, base: tuple[int, ...]) -> float:
    if state.is_over:
        return SpinnerSearch(depth=None).evaluate(state, side, base, final=True)
    values = [_spinner_brute(state.apply(a, state.to_move), side, base) for a in state.legal_actions()]
    return max(values) if state.variant.team_of(state.to_move) == side else min(values)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(("draw-100", "all-fives-100", "all-threes-250")), st.randoms())
def test_unbounded_spinner_search_is_exact_for_two_players(name: str, rng: random.Random) -> None:
    variant = find_variant(name, 2)
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    state = HandState.start(variant, [tiles[:7], tiles[7:14]], rng.randrange(2), tiles[14:])
    while len(state.hands[0]) + len(state.hands[1]) + len(state.boneyard) > 9 and not state.is_over:
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))], state.to_move)
        if following.is_over:
            break
        state = following
    side = state.to_move
    values = SpinnerSearch(depth=None).action_values(state)
    for action, value in values.items():
        assert value == _spinner_brute(state.apply(action, state.to_move), side, state.play_points)


def _rivals_brute(state: HandState, side: int, base: tuple[int, ...], search: SpinnerSearch) -> float:
    """Paranoid minimax by enumeration, each finished hand scored by ``search``'s own margin."""
    if state.is_over:
        return search.evaluate(state, side, base, final=True)
    values = [_rivals_brute(state.apply(a, state.to_move), side, base, search) for a in state.legal_actions()]
    return max(values) if state.variant.team_of(state.to_move) == side else min(values)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(("draw-100", "all-fives-100", "fives-and-threes-100")), st.randoms(), st.integers(8, 11)
)
def test_a_margin_against_the_field_is_the_gain_less_the_others_mean(
    name: str, rng: random.Random, left: int
) -> None:
    """At four, each for themselves, ``rivals="mean"`` measures a margin against the other seats'
    mean gain, ``"best"`` against the largest; searched to the end, each is exactly the paranoid
    minimax of its own margin, and an ended hand's margins follow the definitions."""
    state = endgame(name, rng, left, players=4)
    side = state.variant.team_of(state.to_move)
    for rivals in ("best", "mean"):
        search = SpinnerSearch(depth=None, rivals=rivals)
        values = search.action_values(state)
        assert set(values) == set(state.legal_actions())
        for action, value in values.items():
            child = state.apply(action, state.to_move)
            assert value == _rivals_brute(child, side, state.play_points, search), (rivals, action)
    ended = state
    while not ended.is_over:
        ended = ended.apply(ended.legal_actions()[0], ended.to_move)
    gains = [ended.play_points[s] - state.play_points[s] for s in range(4)]
    outcome = ended.outcome
    assert outcome is not None
    if outcome.winner is not None:
        gains[outcome.winner] += outcome.points
    others = [gain for s, gain in enumerate(gains) if s != side]
    mean = SpinnerSearch(rivals="mean").evaluate(ended, side, state.play_points, final=True)
    best = SpinnerSearch(rivals="best").evaluate(ended, side, state.play_points, final=True)
    assert mean == gains[side] - sum(others) / 3
    assert best == gains[side] - max(others) <= mean


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(("draw-100", "all-fives-100")), st.randoms())
def test_with_two_players_both_rivals_are_the_same(name: str, rng: random.Random) -> None:
    variant = find_variant(name, 2)
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    state = HandState.start(variant, [tiles[:7], tiles[7:14]], rng.randrange(2), tiles[14:])
    for _ in range(rng.randrange(8)):
        following = state.apply(rng.choice(state.legal_actions()), state.to_move)
        if following.is_over:
            break
        state = following
    best = SpinnerSearch(depth=3, rivals="best").action_values(state)
    assert SpinnerSearch(depth=3, rivals="mean").action_values(state) == best


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(TWO_ENDED), st.randoms(), st.integers(4, 10))
def test_action_costs_are_the_distance_to_the_best_value(name: str, rng: random.Random, left: int) -> None:
    state = endgame(name, rng, left)
    values = solve(state)
    costs = action_costs(state, values)
    assert set(costs) == set(values)
    assert min(costs.values()) == 0
    best = max(values.values())
    assert all(costs[action] == best - values[action] >= 0 for action in values)
    assert action_costs(state) == costs


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(("draw-100", "all-fives-100", "fives-and-threes-250")), st.randoms())
def test_a_horizon_beyond_the_end_of_the_hand_changes_nothing(name: str, rng: random.Random) -> None:
    """With the boneyard empty and few tiles left, a deep enough horizon is the exact search."""
    variant = find_variant(name, 2)
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    state = HandState.start(variant, [tiles[:7], tiles[7:14]], rng.randrange(2), tiles[14:])
    while (state.boneyard or len(state.hands[0]) + len(state.hands[1]) > 5) and not state.is_over:
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))], state.to_move)
        if following.is_over:
            return
        state = following
    if state.is_over:
        return
    # Each action lays a tile or passes, and two passes in a row cannot happen before the end.
    horizon = 2 * (len(state.hands[0]) + len(state.hands[1])) + 2
    assert SpinnerSearch(depth=horizon).action_values(state) == SpinnerSearch(depth=None).action_values(state)
