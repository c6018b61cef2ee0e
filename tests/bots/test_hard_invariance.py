"""The hard bot's choice depends on the view and the random generator only.

Exchanging the hidden tiles of the other seats (and the boneyard) for any
others consistent with the view must not change what it plays: it cannot see
them.  The alternative worlds are made by swapping hidden tiles between hidden
places wherever the view allows it (a tile never goes to a seat known to lack
one of its suits), which keeps every size and every pass consistent.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.bots.hard import HardBot, HardSettings
from amigos.bots.normal import NormalBot
from amigos.engine import HandState, Tile
from amigos.engine.view import SeatView, seat_view
from tests.bots.helpers import VARIANTS, random_position

QUICK_HARD = HardSettings(early_nodes=6_000, late_nodes=4_000, max_worlds=5, min_worlds=1, spinner_worlds=3)


def exchanged(state: HandState, view: SeatView, swaps: list[tuple[int, int]]) -> HandState:
    """Another world the seat cannot tell apart: hidden tiles swapped between hidden places."""
    seat = view.seat
    assert seat is not None
    voids = view.void_suits()
    places: dict[int, list[Tile]] = {s: sorted(state.hands[s]) for s in range(len(state.hands)) if s != seat}
    places[-1] = list(state.boneyard)
    keys = sorted(places)

    def fits(tile: Tile, place: int) -> bool:
        void = voids.get(place, frozenset())
        return tile.high not in void and tile.low not in void

    for first, second in swaps:
        p, q = keys[first % len(keys)], keys[second % len(keys)]
        if p == q or not places[p] or not places[q]:
            continue
        i, j = first % len(places[p]), second % len(places[q])
        x, y = places[p][i], places[q][j]
        if fits(x, q) and fits(y, p):
            places[p][i], places[q][j] = y, x
    others = {s: tiles for s, tiles in places.items() if s != -1}
    return view.determinize(others, places[-1])


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.integers(0, 10_000),
    st.integers(1, 14),
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=30),
    st.integers(0, 2**32 - 1),
)
def test_hard_choice_is_identical_when_hidden_tiles_are_exchanged(
    case: tuple[str, int | None], seed: int, steps: int, swaps: list[tuple[int, int]], rng_seed: int
) -> None:
    state = random_position(*case, seed=seed, steps=steps)
    seat = state.to_move
    view = seat_view(state, seat)
    if len(view.legal_actions()) < 2:
        return
    other_world = exchanged(state, view, swaps)
    other_view = seat_view(other_world, seat)
    assert other_view == view
    for bot in (HardBot(QUICK_HARD), NormalBot()):
        first = bot.choose(view, random.Random(rng_seed))
        second = bot.choose(other_view, random.Random(rng_seed))
        assert first == second


def test_exchanging_really_changes_the_hidden_hands() -> None:
    """Guard for the test above: the swaps do produce a different world in ordinary positions."""
    changed = 0
    for seed in range(20):
        state = random_position("amigos-100", None, seed=seed, steps=3)
        view = seat_view(state, state.to_move)
        other = exchanged(state, view, [(i, i * 7 + 3) for i in range(20)])
        changed += other.hands != state.hands
    assert changed >= 15
