"""The adapter that seats the `dominoes` package's sampling player at our Amigos tables."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("dominoes")

from amigos.bots.reference import DominoesPabBot, to_game
from amigos.bots.runner import play_hand
from amigos.engine import Family
from amigos.engine.view import seat_view
from tests.bots.helpers import deal, random_position


@pytest.mark.parametrize("seed", range(6))
def test_the_rebuilt_game_matches_the_view(seed: int) -> None:
    state = random_position("amigos-200", None, random.Random(seed), steps=3 + seed)
    view = seat_view(state, state.to_move)
    game = to_game(view)
    assert game.turn == view.seat
    assert [len(hand) for hand in game.hands] == list(view.hand_sizes)
    ends = view.line.open_ends()
    assert (game.board.left_end(), game.board.right_end()) == (ends[0], ends[1])
    # The passes the package infers missing suits from are the ones the view shows.
    missing = game.missing_values()
    voids = view.void_suits()
    for other in range(4):
        assert missing[other] == set(voids[other])
    mine = {
        (d.first, d.second) if d.first >= d.second else (d.second, d.first) for d in game.hands[view.seat]
    }
    assert mine == {(t.high, t.low) for t in view.hand}


def test_the_reference_bot_plays_legal_amigos_hands() -> None:
    bot = DominoesPabBot(sample_size=2, start_move=14)
    for seed in range(2):
        state = deal(
            __import__("amigos.engine", fromlist=["find_variant"]).find_variant("amigos-100"),
            random.Random(seed),
        )
        assert state.variant.family is Family.AMIGOS
        run = play_hand(state, [bot] * 4, [random.Random(seed * 4 + s) for s in range(4)])
        assert run.state.is_over


def test_the_reference_bot_refuses_other_families() -> None:
    state = random_position("cuban-1v1", None, random.Random(1), steps=1)
    view = seat_view(state, state.to_move)
    if len(view.legal_actions()) > 1:
        with pytest.raises(ValueError):
            DominoesPabBot().choose(view, random.Random(0))
