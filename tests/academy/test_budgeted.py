"""Every Academy search has a node budget: a position too big for an exact answer (a Cuban first
lead: five CPU-minutes and 6 GB without one) gets the depth-limited answer, flagged as such."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.academy import budgeted
from amigos.academy.budgeted import MAX_DEPTH, solve_within
from amigos.academy.solve import solve
from amigos.academy.spinner_search import SpinnerSearch
from amigos.engine import HandState, Variant, find_variant, tile_set
from tests.academy.test_solve_engine import TWO_ENDED, endgame


def cuban_first_lead(rng: random.Random) -> HandState:
    """A whole Cuban 2v2 deal before its first tile: 40 tiles in the hands."""
    return endgame("cuban-2v2", rng, 40)


SEARCHES: list[SpinnerSearch] = []


@dataclass
class Counting(SpinnerSearch):
    """The depth-limited search, remembering each search (to add up their nodes independently)."""

    def __post_init__(self) -> None:
        SEARCHES.append(self)


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_cuban_first_lead_stops_within_its_budget_with_a_flagged_estimate(rng: random.Random) -> None:
    state = cuban_first_lead(rng)
    assert sum(len(hand) for hand in state.hands) == 40
    SEARCHES.clear()
    original = budgeted.SpinnerSearch
    budgeted.SpinnerSearch = Counting  # type: ignore[misc]
    try:
        answer = solve_within(state, exact_nodes=20_000, estimate_nodes=3_000)
    finally:
        budgeted.SpinnerSearch = original  # type: ignore[misc]
    assert not answer.exact and answer.limited
    assert answer.depth is not None and 1 <= answer.depth < MAX_DEPTH
    assert set(answer.values) == set(state.legal_actions())
    estimate_nodes = sum(search.nodes for search in SEARCHES)
    # The exact attempt stops one node past its budget; the estimate one past its own (the search
    # that overran) at most, plus depth 1's one node per legal action.
    assert answer.nodes - estimate_nodes == 20_001
    assert estimate_nodes <= 3_000 + 1 + len(state.legal_actions()) + 1


def test_the_default_budgets_give_a_cuban_first_lead_a_depth_limited_answer() -> None:
    state = cuban_first_lead(random.Random(3))
    answer = solve_within(state)
    assert not answer.exact and answer.limited and answer.depth is not None and answer.depth >= 6
    assert answer.nodes <= budgeted.EXACT_NODES + budgeted.ESTIMATE_NODES + 2 + len(answer.values)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(TWO_ENDED), st.randoms(), st.integers(3, 10))
def test_a_position_that_fits_the_budget_gets_the_exact_values(
    name: str, rng: random.Random, left: int
) -> None:
    state = endgame(name, rng, left)
    answer = solve_within(state)
    assert answer.exact and not answer.limited and answer.depth is None
    assert answer.values == solve(state)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(("draw-100", "all-fives-100")), st.integers(2, 4), st.randoms())
def test_the_draw_games_keep_depth_four_when_it_fits(name: str, players: int, rng: random.Random) -> None:
    variant = find_variant(name, players)
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[s * size : (s + 1) * size] for s in range(players)]
    state = HandState.start(variant, hands, rng.randrange(players), tiles[players * size :])
    answer = solve_within(state)
    # A whole hand is too big for the exact attempt, which only games of two sides make.
    assert not answer.exact and answer.limited == (variant.sides == 2)
    if answer.depth == 4:
        assert answer.values == SpinnerSearch(depth=4).action_values(state)
    tight = solve_within(state, estimate_nodes=5)
    assert tight.depth is not None and tight.depth < 4 and set(tight.values) == set(answer.values)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(TWO_ENDED), st.randoms(), st.integers(4, 40), st.integers(1, 3_000), st.integers(1, 500)
)
def test_any_position_stays_within_its_budgets(
    name: str, rng: random.Random, left: int, exact_nodes: int, estimate_nodes: int
) -> None:
    state = endgame(name, rng, left)
    answer = solve_within(state, exact_nodes=exact_nodes, estimate_nodes=estimate_nodes)
    legal = state.legal_actions()
    assert set(answer.values) == set(legal)
    assert answer.nodes <= exact_nodes + 1 + estimate_nodes + 1 + len(legal) + 1
    if answer.exact:
        assert answer.values == solve(state) and answer.nodes <= exact_nodes
    else:
        assert answer.limited and answer.depth is not None and answer.depth >= 1


SPINNER_GAMES = [(name, players) for name in ("draw-100", "all-fives-100") for players in (2, 3, 4)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SPINNER_GAMES), st.randoms(), st.integers(1, 5))
def test_a_small_draw_or_fives_endgame_between_two_sides_gets_exact_values(
    game: tuple[str, int], rng: random.Random, left: int
) -> None:
    name, players = game
    variant = find_variant(name, players)
    state = spinner_endgame(variant, rng, left)
    answer = solve_within(state)
    search = SpinnerSearch(depth=None)
    if variant.sides != 2:
        assert not answer.exact  # the paranoid value of three sides or more is a model, not exact
        return
    values = search.action_values(state)
    if search.nodes <= budgeted.SPINNER_EXACT_NODES:
        assert answer.exact and answer.depth is None and not answer.limited
        assert answer.values == values and answer.nodes == search.nodes
    else:
        assert not answer.exact and answer.limited


def test_an_exact_attempt_that_does_not_fit_says_so_and_counts_its_nodes() -> None:
    variant = find_variant("draw-100", 2)
    state = spinner_endgame(variant, random.Random(5), 14)
    answer = solve_within(state, spinner_exact_nodes=50)
    assert not answer.exact and answer.limited and answer.depth is not None
    assert answer.nodes > 51


def spinner_endgame(variant: Variant, rng: random.Random, left: int) -> HandState:
    """A draw or fives deal played at random until at most ``left`` tiles remain in the hands."""
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[s * size : (s + 1) * size] for s in range(variant.players)]
    state = HandState.start(variant, hands, rng.randrange(variant.players), tiles[variant.players * size :])
    while sum(len(h) for h in state.hands) > left:
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))], state.to_move)
        if following.is_over:
            return state
        state = following
    return state
