"""Inference from a seat's view and the sampling of hidden worlds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.bots.knowledge import BONEYARD, Knowledge, infer, sample_world
from amigos.engine import Arm, HandState, Pass, Play, Tile, find_variant
from amigos.engine.view import seat_view
from tests.bots.helpers import VARIANTS, random_position


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.randoms(), st.integers(0, 30), st.randoms())
def test_sampled_worlds_respect_sizes_voids_and_the_unseen_tiles(
    case: tuple[str, int | None], play: random.Random, steps: int, sampling: random.Random
) -> None:
    state = random_position(*case, play, steps=steps)
    seat = state.to_move
    view = seat_view(state, seat)
    knowledge = infer(view)
    world = sample_world(knowledge, sampling)
    dealt = [tile for tiles in world.values() for tile in tiles]
    assert sorted(dealt) == sorted(view.unseen_tiles())
    for slot, tiles in world.items():
        assert len(tiles) == knowledge.sizes[slot]
        void = knowledge.voids.get(slot, frozenset())
        assert not any(t.high in void or t.low in void for t in tiles)
    # The real deal is consistent with what the seat inferred.
    for other in range(state.variant.players):
        if other != seat:
            void = knowledge.voids[other]
            assert not any(t.high in void or t.low in void for t in state.hands[other])
    # The determinized world matches the view in everything public.
    others = {slot: tiles for slot, tiles in world.items() if slot != BONEYARD}
    assert seat_view(view.determinize(others, world[BONEYARD]), seat) == view


def test_a_pass_proves_the_seat_lacks_both_ends() -> None:
    variant = find_variant("amigos-100")
    t = Tile.of
    hands = [
        [t(6, 6), t(6, 5), t(5, 5), t(4, 1), t(3, 0), t(2, 2), t(1, 0)],
        [t(0, 0), t(2, 0), t(2, 1), t(3, 1), t(4, 0), t(1, 1), t(3, 2)],
        [t(6, 4), t(4, 4), t(5, 4), t(6, 3), t(5, 3), t(4, 3), t(3, 3)],
        [t(6, 2), t(6, 1), t(6, 0), t(5, 2), t(5, 1), t(5, 0), t(4, 2)],
    ]
    state = HandState.start(variant, hands, 0).apply(Play(t(6, 6)), 0)
    assert state.legal_actions() == (Pass(),)  # seat 1 holds no 6
    state = state.apply(Pass(), state.to_move)
    knowledge = infer(seat_view(state, 2))
    assert knowledge.voids[1] == frozenset({6})
    assert knowledge.voids[3] == frozenset()
    state = state.apply(Play(t(6, 4), Arm.UP), state.to_move)
    knowledge = infer(seat_view(state, 0))
    assert 6 in knowledge.voids[1]


def test_draws_restart_what_is_known_about_a_seat() -> None:
    """After a draw only the ends the seat drew on are certain about its whole hand."""
    for seed in range(200):
        state = random_position("draw-100", 2, random.Random(seed), steps=12)
        draws = [e for e in state.history if type(e).__name__ == "DrawEvent"]
        if not draws:
            continue
        for seat in range(2):
            knowledge = infer(seat_view(state, seat))
            other = 1 - seat
            void = knowledge.voids[other]
            assert not any(t.high in void or t.low in void for t in state.hands[other])


def _one_by_one(knowledge: Knowledge, rng: random.Random) -> dict[int, list[Tile]]:
    """The rule ``sample_world`` stands for, written plainly: shuffle, most constrained first, each
    tile to a slot with room in proportion to that room. It has no augmenting path: where a draw
    would need one it raises ``LookupError`` and the example stops there."""
    tiles = list(knowledge.unseen)
    rng.shuffle(tiles)
    tiles.sort(key=lambda tile: len(knowledge.allowed(tile)))
    room = dict(knowledge.sizes)
    held: dict[int, list[Tile]] = {slot: [] for slot in room}
    for tile in tiles:
        free = [slot for slot in knowledge.allowed(tile) if room[slot] > 0]
        if not free:
            raise LookupError("an augmenting path is needed")
        pick = rng.random() * sum(room[slot] for slot in free)
        for slot in free:
            pick -= room[slot]
            if pick < 0:
                break
        held[slot].append(tile)
        room[slot] -= 1
    return held


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.randoms(use_true_random=False),
    st.integers(0, 30),
    st.randoms(use_true_random=True),  # a real generator, whose state can be copied to a twin
)
def test_sampling_deals_exactly_as_one_by_one(
    case: tuple[str, int | None], play: random.Random, steps: int, sampling: random.Random
) -> None:
    """``sample_world`` deals the tiles no void rules out by a shorter road; its worlds, and the
    generator's draws, are exactly the plain rule's, so every seeded figure stays reproducible."""
    state = random_position(*case, play, steps=steps)
    knowledge = infer(seat_view(state, state.to_move))
    twin = random.Random()
    for _ in range(3):
        twin.setstate(sampling.getstate())
        try:
            expected = _one_by_one(knowledge, twin)
        except LookupError:
            return
        assert sample_world(knowledge, sampling) == expected
        assert sampling.getstate() == twin.getstate()
