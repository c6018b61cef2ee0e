"""Invariants of every hand of every variant: conservation, legality, refusals, hidden tiles."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import (
    Arm,
    DrawEvent,
    HandState,
    IllegalAction,
    Pass,
    Play,
    Tile,
    Variant,
    seat_view,
    spectator_view,
    tile_set,
)
from amigos.engine.codec import view_json
from amigos.engine.state import Action, PlayEvent, legal_actions_for

from .strategies import playout, variants


def all_tiles(state: HandState) -> list[Tile]:
    return [tile for hand in state.hands for tile in hand] + list(state.line.tiles) + list(state.boneyard)


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms())
def test_tiles_are_conserved(variant: Variant, rng: random.Random) -> None:
    for state in playout(variant, rng):
        assert sorted(all_tiles(state)) == list(tile_set(variant.max_pip))


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms())
def test_every_legal_action_applies_and_the_hand_ends(variant: Variant, rng: random.Random) -> None:
    states = playout(variant, rng)
    for state in states[:-1]:
        actions = state.legal_actions()
        assert actions
        assert len(set(actions)) == len(actions)
        for action in actions:
            after = state.apply(action, state.to_move)
            assert after.history[: len(state.history)] == state.history
    final = states[-1]
    assert final.outcome is not None
    assert final.legal_actions() == ()
    assert len(final.play_points) == variant.sides


def candidate_actions(state: HandState, data: st.DataObject) -> list[Play | Pass]:
    tiles = list(tile_set(state.variant.max_pip))
    arms: list[Arm | None] = [None, *Arm]
    found: list[Play | Pass] = [Pass()]
    for _ in range(12):
        tile = data.draw(st.sampled_from(tiles))
        arm = data.draw(st.sampled_from(arms))
        lead_left = data.draw(st.sampled_from([None, tile.high, tile.low]))
        found.append(Play(tile, arm, lead_left))
    return found


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms(), st.data())
def test_other_actions_are_refused_and_change_nothing(
    variant: Variant, rng: random.Random, data: st.DataObject
) -> None:
    states = playout(variant, rng)
    index = data.draw(st.integers(min_value=0, max_value=len(states) - 1))
    state = states[index]
    legal = set(state.legal_actions())
    snapshot = (state.hands, state.line, state.boneyard, state.history, state.to_move, state.play_points)
    for action in candidate_actions(state, data):
        if action in legal:
            continue
        try:
            state.apply(action, state.to_move)
        except IllegalAction as error:
            assert error.reason and "\n" not in error.reason
        else:
            raise AssertionError(f"{action} was accepted but is not legal")
        assert (
            state.hands,
            state.line,
            state.boneyard,
            state.history,
            state.to_move,
            state.play_points,
        ) == snapshot
    if not state.is_over:
        wrong_seat = (state.to_move + 1) % variant.players
        try:
            state.apply(state.legal_actions()[0], seat=wrong_seat)
        except IllegalAction as error:
            assert error.reason == "not your turn"
        else:
            raise AssertionError("played out of turn")


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms())
def test_notation_round_trips(variant: Variant, rng: random.Random) -> None:
    for state in playout(variant, rng)[:-1]:
        for action in state.legal_actions():
            assert state.parse_move(state.move_notation(action)) == action


@settings(max_examples=50, deadline=None)
@given(variants, st.randoms())
def test_a_seat_never_sees_hidden_tiles(variant: Variant, rng: random.Random) -> None:
    for state in playout(variant, rng):
        for seat in range(variant.players):
            view = seat_view(state, seat)
            hidden = set(state.boneyard).union(
                *(state.hands[other] for other in range(variant.players) if other != seat)
            )
            assert view.hand == state.hands[seat]
            assert not (view.hand & hidden)
            assert view.revealed is None
            for event in view.history:
                if isinstance(event, DrawEvent) and event.seat != seat:
                    assert event.tile is None
            text = json.dumps(view_json(view))
            for tile in hidden:
                assert f'"{tile}"' not in text
                assert f'"{tile.low}-{tile.high}"' not in text
        spectator = json.dumps(view_json(spectator_view(state)))
        for hand in state.hands:
            for tile in hand:
                assert f'"{tile}"' not in spectator


@settings(max_examples=40, deadline=None)
@given(variants, st.randoms())
def test_fives_points_are_what_the_plays_scored(variant: Variant, rng: random.Random) -> None:
    final = playout(variant, rng)[-1]
    totals = [0] * variant.sides
    for event in final.history:
        if isinstance(event, PlayEvent):
            totals[variant.team_of(event.seat)] += event.points
            if event.points:
                assert variant.scores_during_play
    assert tuple(totals) == final.play_points


@given(variants, st.randoms(use_true_random=False))
def test_closing_actions_are_the_plays_that_block_at_once(variant: Variant, rng: random.Random) -> None:
    """The quick answer (from the line alone, used by the turn clock) agrees with playing each move."""
    from amigos.engine import HandEnd, Play

    for state in playout(variant, rng)[:-1]:
        slow = []
        for action in state.legal_actions():
            if isinstance(action, Play):
                outcome = state.apply(action, state.to_move).outcome
                if outcome is not None and outcome.end is not HandEnd.DOMINO:
                    slow.append(action)
        assert state.closing_actions() == tuple(slow)


@given(variants, st.randoms(use_true_random=False))
def test_the_ends_after_a_play_are_those_of_the_line_it_makes(variant: Variant, rng: random.Random) -> None:
    """`Line.ends_after` (which skips building the line where it can) says what laying says, in
    the same order, for every legal play of every state: leads, doubles and spinners included."""
    from amigos.engine import Play

    for state in playout(variant, rng)[:-1]:
        for action in state.legal_actions():
            if isinstance(action, Play):
                assert state.line.ends_after(action) == state.line.lay(action).open_ends()


def rules_answer(state: HandState) -> tuple[Action, ...]:
    """The legal actions of ``state`` worked out afresh from the rules, without the state's own."""
    if state.is_over:
        return ()
    return legal_actions_for(state.variant, state.line, state.hands[state.to_move])


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms())
def test_a_states_kept_legal_actions_are_always_its_own(variant: Variant, rng: random.Random) -> None:
    """`legal_actions` keeps its answer on the state (a live table asks several times a turn): the
    kept answer is what the rules give for that state, a successor never inherits it, and a state
    that has answered stays equal, with the same hash, to one that has not."""
    for state in playout(variant, rng):
        fresh = replace(state)
        asked = state.legal_actions()
        assert state.legal_actions() is asked
        assert asked == rules_answer(state)
        assert fresh == state and hash(fresh) == hash(state)
        assert fresh.legal_actions() == asked
        if asked:
            after = state.apply(asked[0], state.to_move)
            assert after.legal_actions() == rules_answer(after)
