"""Weighing sampled worlds by the plays seen (inference from plays)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.bots.knowledge import infer, sample_world
from amigos.bots.likelihood import FollowModel, PipsModel, log_likelihood, past_choices
from amigos.engine import Arm, HandState, Play, Tile, find_variant
from amigos.engine.view import seat_view
from tests.bots.helpers import random_position

t = Tile.of


def _state() -> HandState:
    variant = find_variant("amigos-100")
    hands = [
        [t(6, 6), t(6, 5), t(5, 5), t(4, 1), t(3, 0), t(2, 2), t(1, 0)],
        [t(6, 4), t(2, 0), t(2, 1), t(3, 1), t(4, 0), t(1, 1), t(3, 2)],
        [t(0, 0), t(4, 4), t(5, 4), t(6, 3), t(5, 3), t(4, 3), t(3, 3)],
        [t(6, 2), t(6, 1), t(6, 0), t(5, 2), t(5, 1), t(5, 0), t(4, 2)],
    ]
    state = HandState.start(variant, hands, 0)
    state = state.apply(Play(t(6, 6)), state.to_move)  # seat 0 leads the double six
    state = state.apply(Play(t(6, 4), Arm.UP), state.to_move)  # seat 1 lays its only six
    return state.apply(Play(t(6, 3), Arm.DOWN), state.to_move)  # seat 2: the 6-3, which is its only six too


def test_past_choices_are_the_other_seats_plays_with_the_ends_they_faced() -> None:
    view = seat_view(_state(), 3)
    choices = past_choices(view)
    assert [(c.seat, c.ends, c.laid) for c in choices] == [
        (0, (), t(6, 6)),
        (1, (6, 6), t(6, 4)),
        (2, (4, 6), t(6, 3)),
    ]
    assert all(c.later == frozenset() for c in choices)


def test_a_world_where_a_heavier_fitting_tile_was_passed_over_is_less_likely() -> None:
    view = seat_view(_state(), 3)
    choices = past_choices(view)
    unseen = sorted(view.unseen_tiles())
    # Seat 2 laid the 6-3 facing a 4 and a 6. In one world it also held the 5-4 (heavier, fitting
    # the 4 end); in the other the 5-4 is with seat 1 and seat 2 held only light tiles besides.
    light = [x for x in unseen if x.pips <= 4 and not x.has(4) and not x.has(6)]
    heavy_world = {
        2: [t(5, 4), *light[:5]],
        1: [x for x in unseen if x != t(5, 4) and x not in light[:5]][:6],
    }
    light_world = {
        2: light[:6],
        1: [t(5, 4), *[x for x in unseen if x != t(5, 4) and x not in light[:6]][:5]],
    }
    assert log_likelihood(choices, light_world) > log_likelihood(choices, heavy_world)


def test_tiles_that_did_not_fit_tell_nothing() -> None:
    """Seat 1 faced two sixes: whether it also held the 5-4 or the 1-0 (neither fits) is no evidence."""
    view = seat_view(_state(), 3)
    choices = [c for c in past_choices(view) if c.seat == 1]
    assert log_likelihood(choices, {1: [t(5, 4)]}) == log_likelihood(choices, {1: [t(2, 1)]})
    # Holding another six when it laid the 6-4 is: a heavier six makes the 6-4 less likely.
    assert log_likelihood(choices, {1: [t(6, 5)]}) < log_likelihood(choices, {1: [t(6, 0)]})


def test_the_follow_model_also_passes_over_heavier_tiles_reluctantly() -> None:
    """The "follow" model keeps the pips model's first lesson: a heavier fitting tile left in hand
    makes the light play less likely."""
    view = seat_view(_state(), 3)
    choices = [c for c in past_choices(view) if c.seat == 1]
    model = FollowModel(choices, view.variant.max_pip)
    assert model.log_likelihood({1: [t(6, 5)]}) < model.log_likelihood({1: [t(6, 0)]})


def test_the_follow_model_reads_long_suits_from_the_ends_left_showing() -> None:
    """Seat 1 faced two sixes and laid the 6-4, leaving a 4 showing: a regular player does that when
    it can follow the 4. A world in which it still holds fours explains the play better than one in
    which it holds none, even though no four fitted the sixes (the pips model cannot tell)."""
    view = seat_view(_state(), 3)
    choices = [c for c in past_choices(view) if c.seat == 1]
    assert set(choices[0].after) == {4, 6}
    model = FollowModel(choices, view.variant.max_pip)
    fours = {1: [t(4, 0), t(4, 2), t(6, 0)]}
    none = {1: [t(2, 0), t(2, 1), t(6, 0)]}
    assert model.log_likelihood(fours) > model.log_likelihood(none)
    assert log_likelihood(choices, fours) == log_likelihood(choices, none)


def test_the_follow_model_is_a_probability_of_the_plays_seen() -> None:
    """With one past play, the likelihood is the softmax share of the laid tile: below 1, and exactly
    1 when the laid tile was the only play that fitted."""
    view = seat_view(_state(), 3)
    choices = [c for c in past_choices(view) if c.seat == 1]
    model = FollowModel(choices, view.variant.max_pip)
    assert model.log_likelihood({1: [t(2, 0)]}) == 0.0  # the 6-4 was its only six
    assert model.log_likelihood({1: [t(6, 0)]}) < 0.0


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(("amigos-100", "cuban-2v2", "cuban-1v1")),
    st.randoms(use_true_random=False),
    st.integers(0, 40),
    st.sampled_from((0.0, 0.15, 0.3, 0.6)),
)
def test_the_pips_model_built_once_weighs_every_world_as_log_likelihood(
    name: str, rng: random.Random, steps: int, beta: float
) -> None:
    """The hard level weighs hundreds of worlds a decision with ``PipsModel``; its figure is the
    reference function's, for every play seen (leads, doubles, ends alike or not) and world."""
    state = random_position(name, None, rng, steps=steps)
    view = seat_view(state, state.to_move)
    choices = past_choices(view)
    model = PipsModel(choices, beta)
    knowledge = infer(view)
    for _ in range(3):
        world = sample_world(knowledge, rng)
        assert model.log_likelihood(world) == pytest.approx(log_likelihood(choices, world, beta), abs=1e-9)
