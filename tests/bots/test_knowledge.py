"""Inference from a seat's view and the sampling of hidden worlds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

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


def _split_frequencies(
    knowledge: Knowledge, draw: Callable[[], dict[int, list[Tile]]], times: int
) -> Counter[tuple[tuple[Tile, ...], ...]]:
    """How often each split of the unseen tiles among the slots came out of ``times`` draws."""
    splits: Counter[tuple[tuple[Tile, ...], ...]] = Counter()
    for _ in range(times):
        world = draw()
        splits[tuple(tuple(sorted(world[slot])) for slot in knowledge.sizes)] += 1
    return splits


def test_the_tiles_no_void_rules_out_are_dealt_as_one_by_one() -> None:
    """``sample_world`` deals the tiles that may go anywhere at once; one by one, each to a slot in
    proportion to its room, is the rule it stands for. Both are sampled many times from fixed
    generators (a frequency comparison, so the draws are not hypothesis'): the splits come out
    equally often, within 0.04 in total variation (a biased cut of the shuffled tiles, such as
    filling the slots in a fixed order from tiles left sorted, is off by far more)."""
    t = Tile.of
    unseen = (t(0, 0), t(1, 0), t(1, 1), t(2, 0), t(2, 1), t(2, 2), t(3, 3))
    # Seat 1 lacks 2s: the 2s go first, to seat 3 or the set-aside tiles; the rest may go anywhere.
    knowledge = Knowledge(0, unseen, {1: 2, 3: 2, BONEYARD: 3}, {1: frozenset({2}), 3: frozenset()})

    def one_by_one(rng: random.Random) -> dict[int, list[Tile]]:
        room = dict(knowledge.sizes)
        held: dict[int, list[Tile]] = {slot: [] for slot in room}
        tiles = sorted(unseen, key=lambda tile: (len(knowledge.allowed(tile)), rng.random()))
        for tile in tiles:
            free = [slot for slot in knowledge.allowed(tile) if room[slot] > 0]
            slot = rng.choices(free, weights=[room[s] for s in free])[0]
            held[slot].append(tile)
            room[slot] -= 1
        return held

    times = 40_000
    fast_rng, slow_rng = random.Random(1), random.Random(2)
    fast = _split_frequencies(knowledge, lambda: sample_world(knowledge, fast_rng), times)
    slow = _split_frequencies(knowledge, lambda: one_by_one(slow_rng), times)
    for split in fast:
        for slot, tiles in zip(knowledge.sizes, split, strict=True):
            assert not any(
                tile.high in knowledge.voids.get(slot, ()) or tile.low in knowledge.voids.get(slot, ())
                for tile in tiles
            )
    distance = sum(abs(fast[split] - slow[split]) for split in set(fast) | set(slow)) / (2 * times)
    assert distance < 0.04
