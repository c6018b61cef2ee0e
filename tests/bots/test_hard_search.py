"""The hard and expert levels search every decision, from the hand's first tile (issue 41, items 2,
3 and 5): no rules of thumb decide a lead; the values they compare are for exactly the legal
actions; and the worlds they search are built from the seat's view alone."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from amigos.academy.spinner_search import SpinnerSearch
from amigos.academy.two_ended import Position, TwoEndedSolver
from amigos.bots.hard import CUBAN_1V1_SETTINGS, CUBAN_SETTINGS, EXPERT_SETTINGS, HardBot, HardSettings
from amigos.bots.knowledge import infer
from amigos.engine import Action, HandState, Play
from amigos.engine.view import SeatView, seat_view
from tests.bots.helpers import VARIANTS, random_position
from tests.bots.test_hard_invariance import exchanged, first_choice_through_the_runner

#: Enough nodes to solve two worlds of an Amigos lead exactly (about half a million each).
LEAD_SEARCH = HardSettings(lead_nodes=1_400_000, max_worlds=2, min_worlds=1)
#: Small budgets: every path of the search (exact worlds, shallow worlds, spinner worlds to the end
#: and to a depth), a fraction of the time.
QUICK = HardSettings(
    # every world exact or shallow, as before the horizon became the default (its path has its own
    # settings or tests)
    exact_tiles=34,
    horizon_depth=0,
    lead_nodes=8_000,
    early_nodes=6_000,
    late_nodes=4_000,
    max_worlds=4,
    min_worlds=1,
    shallow_worlds=3,
    shallow_nodes=1_500,
    exact_nodes=300,
    spinner_worlds=2,
    spinner_nodes=1_500,
    group_worlds=2,
    group_depth=4,
    group_nodes=1_500,
)


class NoRulesOfThumb:
    """Stands in for the normal level inside a hard bot: asked to decide, it fails the test.

    Its scores (the tie-break between actions of exactly equal value) are still allowed."""

    def __init__(self) -> None:
        from amigos.bots.normal import NormalBot

        self._normal = NormalBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        raise AssertionError("the hard level fell back to the normal level's rules")

    def scores(self, view: SeatView) -> dict[Action, float]:
        return self._normal.scores(view)


def strict(settings_: HardSettings) -> HardBot:
    bot = HardBot(settings_)
    bot._heuristic = NoRulesOfThumb()  # type: ignore[assignment]
    return bot


@contextmanager
def recording(cls: type, method: str) -> Iterator[list[tuple[Any, ...]]]:
    """Record the arguments of every call of ``cls.method`` (it still runs)."""
    calls: list[tuple[Any, ...]] = []
    original = getattr(cls, method)

    def spy(self: Any, *args: Any) -> Any:
        calls.append(args)
        return original(self, *args)

    with mock.patch.object(cls, method, spy):
        yield calls


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_hard_solves_worlds_at_the_first_lead_of_an_amigos_hand(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["amigos-100", "amigos-200", "amigos-hands"]))
    state = random_position(name, None, data.draw(st.randoms()), steps=0)
    assert state.line.is_empty
    view = seat_view(state, state.to_move)
    with recording(TwoEndedSolver, "action_values") as calls:
        action = strict(LEAD_SEARCH).choose(view, data.draw(st.randoms(use_true_random=True)))
    assert action in state.legal_actions()
    leads = [args[0] for args in calls if isinstance(args[0], Position) and args[0].ends is None]
    assert leads, "no world of the lead was searched"
    # The worlds searched hold the seat's own tiles and as many tiles per seat as the real deal.
    for position in leads:
        assert [bin(hand).count("1") for hand in position.hands] == [len(hand) for hand in state.hands]


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_the_shallow_search_decides_cubans_opening_when_it_is_on(data: st.DataObject) -> None:
    """Cuban 2v2's first tiles (40 tiles in the hands) are beyond any exact world; with
    ``shallow_worlds`` set a determinized search decides there, not the rules of thumb."""
    state = random_position("cuban-2v2", None, data.draw(st.randoms()), steps=data.draw(st.integers(0, 3)))
    assume(len(state.legal_actions()) >= 2)
    view = seat_view(state, state.to_move)
    with recording(SpinnerSearch, "action_values") as calls:
        action = strict(QUICK).choose(view, data.draw(st.randoms(use_true_random=True)))
    assert action in state.legal_actions()
    assert calls, "no world was searched"


def _horizons_of_first_decision(
    variant: str, data: st.DataObject
) -> tuple[list[int], int, Action, HandState]:
    """The horizons of the solvers the default hard bot makes for one decision of a hand's first
    tiles of ``variant`` (0: searched to the end), with the tiles in the hands."""
    state = random_position(variant, None, data.draw(st.randoms()), steps=data.draw(st.integers(0, 3)))
    assume(len(state.legal_actions()) >= 2)
    view = seat_view(state, state.to_move)
    bot = HardBot()
    bot._heuristic = NoRulesOfThumb()  # type: ignore[assignment]
    horizons: list[int] = []
    original = TwoEndedSolver.__post_init__

    def spy(self: TwoEndedSolver) -> None:
        horizons.append(getattr(self, "horizon", 0))
        original(self)

    with mock.patch.object(TwoEndedSolver, "__post_init__", spy):
        action = bot.choose(view, data.draw(st.randoms(use_true_random=True)))
    return horizons, sum(len(hand) for hand in state.hands), action, state


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_the_default_hard_bot_searches_cubans_opening(data: st.DataObject) -> None:
    """Regression (issue 41): Cuban 2v2's first tiles (40 tiles in the hands) are beyond any exact
    world within the budgets, and the default hard level used to hand them to the normal level's
    rules (so it played like normal for most of a Cuban hand). Now each world is searched
    ``horizon_depth`` tiles deep, to the position's horizon, and the search decides."""
    horizons, in_hands, action, state = _horizons_of_first_decision("cuban-2v2", data)
    assert action in state.legal_actions()
    assert horizons == [in_hands - CUBAN_SETTINGS.horizon_depth]


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_an_amigos_100_hands_first_tiles_are_searched_to_a_horizon(data: st.DataObject) -> None:
    """amigos-100 scores the losers' pips, which the horizon's estimate models: with more than
    ``exact_tiles`` in the hands each world is searched ``horizon_depth`` tiles deep."""
    horizons, in_hands, action, state = _horizons_of_first_decision("amigos-100", data)
    assert action in state.legal_actions()
    assert in_hands > HardSettings().exact_tiles
    assert horizons == [in_hands - HardSettings().horizon_depth]


@settings(max_examples=4, deadline=None)
@given(st.data(), st.sampled_from(["amigos-200", "amigos-hands"]))
def test_the_scorings_the_estimate_does_not_model_are_searched_to_the_end(
    data: st.DataObject, variant: str
) -> None:
    """amigos-200 scores every pip and amigos-hands one a domino: an estimate of the losers' pips
    at a horizon would be on another scale than the exact values, so their worlds are searched to
    the end from the first tile, as before the horizon."""
    horizons, in_hands, action, state = _horizons_of_first_decision(variant, data)
    assert action in state.legal_actions()
    assert in_hands > HardSettings().exact_tiles
    assert horizons == [0]


def _legal_totals(bot: HardBot, view: SeatView, rng: random.Random) -> dict[Action, float] | None:
    """The values the bot compares, by the path its ``choose`` takes for this view."""
    knowledge = infer(view)
    actions = list(view.legal_actions())
    settings_ = bot.settings
    if view.variant.draws or view.variant.spinner:
        budget = settings_.spinner_budget(view.variant.players)
        return bot._determinized_totals(
            view,
            knowledge,
            rng,
            worlds=budget.worlds,
            exact_nodes=budget.exact_nodes,
            depth=budget.depth,
            nodes=budget.nodes,
            shared=False,
            rivals=budget.rivals,
        )
    return bot._two_ended_totals(view, knowledge, actions, rng, settings_) or bot._determinized_totals(
        view,
        knowledge,
        rng,
        worlds=settings_.shallow_worlds,
        exact_nodes=0,
        depth=settings_.shallow_depth,
        nodes=settings_.shallow_nodes,
        shared=True,
        rivals=settings_.spinner_rivals,
    )


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_search_values_exactly_the_legal_actions_and_plays_one(data: st.DataObject) -> None:
    case = data.draw(st.sampled_from(VARIANTS))
    state = random_position(*case, data.draw(st.randoms()), steps=data.draw(st.integers(0, 20)))
    legal = state.legal_actions()
    assume(len(legal) >= 2)
    view = seat_view(state, state.to_move)
    rng = data.draw(st.randoms(use_true_random=True))
    bot = HardBot(QUICK)
    totals = _legal_totals(bot, view, copy.copy(rng))
    if totals is not None:
        plays = {action for action in legal if isinstance(action, Play)}
        # Every play is valued, nothing illegal is, and every value is a number.
        assert plays <= set(totals) <= set(legal)
        assert all(math.isfinite(value) for value in totals.values())
    assert bot.choose(view, copy.copy(rng)) in legal


@settings(max_examples=4, deadline=None)
@given(st.randoms(), st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=5, max_size=30))
def test_the_lead_search_chooses_the_same_in_worlds_the_seat_cannot_tell_apart(
    dealing: random.Random, swaps: list[tuple[int, int]]
) -> None:
    """The exact worlds of a lead are sampled from the view: swapping the other seats' real tiles
    changes nothing (a bot that read them would follow them, as the peeker test shows)."""
    state = random_position("amigos-100", None, dealing, steps=0)
    other = exchanged(state, seat_view(state, state.to_move), swaps)
    assume(other.hands != state.hands)
    rng = random.Random(0)
    here = first_choice_through_the_runner(state, HardBot(LEAD_SEARCH), copy.copy(rng))
    there = first_choice_through_the_runner(other, HardBot(LEAD_SEARCH), copy.copy(rng))
    assert here == there


def test_a_bot_that_reads_the_real_hands_is_caught_by_the_lead_comparison() -> None:
    """Guard for the test above: a hard bot handed the real hands (behind the view) follows them."""

    class Cheat(HardBot):
        def __init__(self, real: dict[int, HandState]) -> None:
            super().__init__(LEAD_SEARCH)
            self.real = real

        def choose(self, view: SeatView, rng: random.Random) -> Action:
            state = self.real[0]
            following = (state.to_move + 1) % state.variant.players
            actions = view.legal_actions()
            return actions[sum(t.high * 7 + t.low for t in state.hands[following]) % len(actions)]

    differ = 0
    for n in range(12):
        state = random_position("amigos-100", None, random.Random(n), steps=0)
        other = exchanged(state, seat_view(state, state.to_move), [(i, i * 5 + 1) for i in range(25)])
        here = first_choice_through_the_runner(state, Cheat({0: state}), random.Random(0))
        there = first_choice_through_the_runner(other, Cheat({0: other}), random.Random(0))
        differ += here != there
    assert differ >= 4


def test_expert_searches_more_than_hard() -> None:
    hard = HardSettings()
    for field in (
        "lead_nodes",
        "early_nodes",
        "late_nodes",
        "exact_nodes",
        "spinner_worlds",
        "group_worlds",
    ):
        assert getattr(EXPERT_SETTINGS, field) > getattr(hard, field), field


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_only_three_or_four_players_search_the_draw_and_fives_games_to_the_end(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([2, 3, 4]))
    name = data.draw(st.sampled_from(["draw-100", "all-fives-100"]))
    state = random_position(name, players, data.draw(st.randoms()), steps=data.draw(st.integers(0, 12)))
    assume(len(state.legal_actions()) >= 2)
    depths: list[int | None] = []
    original = SpinnerSearch.action_values

    def spy(self: SpinnerSearch, position: HandState) -> dict[Action, float]:
        depths.append(self.depth)
        return original(self, position)

    small = HardSettings(
        exact_nodes=300, spinner_worlds=2, spinner_nodes=1_500, group_worlds=2, group_nodes=1_500
    )
    bot = HardBot(small)
    with mock.patch.object(SpinnerSearch, "action_values", spy):
        bot.choose(seat_view(state, state.to_move), data.draw(st.randoms(use_true_random=True)))
    assert depths
    assert (depths[0] is None) == (players >= 3)
    # A world not searched to the end: a whole round and the seat's next tile with three or four
    # players (`group_depth`), one round between two (`spinner_depth`).
    limited = {depth for depth in depths if depth is not None}
    assert limited <= {small.group_depth if players >= 3 else small.spinner_depth}
    assert small.group_depth != small.spinner_depth


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_the_default_hard_bot_keeps_cubans_own_budgets(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["cuban-2v2", "cuban-1v1", "amigos-100"]))
    state = random_position(name, None, data.draw(st.randoms()), steps=data.draw(st.integers(1, 24)))
    assume(len(state.legal_actions()) >= 2)
    budgets: list[int | None] = []
    original = TwoEndedSolver.__post_init__

    def spy(self: TwoEndedSolver) -> None:
        budgets.append(self.node_budget)
        original(self)

    with mock.patch.object(TwoEndedSolver, "__post_init__", spy):
        HardBot().choose(seat_view(state, state.to_move), data.draw(st.randoms(use_true_random=True)))
    expected = {"cuban-2v2": CUBAN_SETTINGS, "cuban-1v1": CUBAN_1V1_SETTINGS}.get(name, HardSettings())
    laid = len(state.line.placements)
    # A decision with too many tiles in the hands for an exact world builds no solver at all.
    for budget in budgets:
        assert budget == (expected.early_nodes if laid < 7 else expected.late_nodes)
