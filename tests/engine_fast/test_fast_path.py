"""The bitmask fast path must play exactly the hands the readable HandState plays.

Each test deals a hand, lets the fast path play it with a traced choice sequence, then replays the
same moves through `HandState` (by record notation, so the fast path's end value becomes the `@v`
the readable engine checks) and compares, move by move, the number of legal choices, the seat to
move, passes, and finally the outcome.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import HandState, Tile, fast, find_variant, pips

AMIGOS_200 = find_variant("amigos-200")


def _tiles_of(mask: int) -> list[Tile]:
    return [Tile.of(*fast.TILES[index]) for index in fast.indices(mask)]


def _replay_trace(hands: list[int], leader: int, trace: list[fast.TraceStep]) -> HandState:
    state = HandState.start(AMIGOS_200, [_tiles_of(mask) for mask in hands], leader)
    for seat, tile, laid_on, choices in trace:
        assert state.to_move == seat
        assert len(state.legal_actions()) == choices
        if tile is None:
            text = "pass"
        else:
            high, low = fast.TILES[tile]
            text = f"{high}-{low}" if laid_on is None else f"{high}-{low}@{laid_on}"
        state = state.apply(state.parse_move(text), state.to_move)
    return state


def _check_hand(dealing: random.Random, playing: random.Random) -> tuple[str, int | None, int]:
    hands = fast.deal_masks(list(range(28)), dealing.random)
    leader = dealing.randrange(4)
    trace: list[fast.TraceStep] = []
    again = copy.copy(playing)
    result = fast.play_hand(hands, leader, playing.random, trace)
    # The untraced run makes the same random draws, so it must give the same outcome.
    assert fast.play_hand(hands, leader, again.random) == result
    state = _replay_trace(hands, leader, trace)
    outcome = state.outcome
    assert outcome is not None, "the fast path stopped before the readable hand ended"
    assert (outcome.end.value, outcome.winner, outcome.points) == result
    return result


def test_thousands_of_hands_match_the_readable_engine() -> None:
    ends = {fast.DOMINO: 0, fast.BLOCK: 0, fast.TIED_BLOCK: 0}
    for seed in range(3000):
        end, _winner, _points = _check_hand(random.Random(seed), random.Random(seed + 1))
        ends[end] += 1
    # the sample must reach every kind of hand end, or the comparison proves little
    assert all(count > 0 for count in ends.values()), ends


@settings(max_examples=200, deadline=None)
# The deal shrinks (hypothesis draws each choice); the playing generator is a true random that
# hypothesis seeds and replays, because the check copies it to replay the same draws untraced.
@given(st.randoms(), st.randoms(use_true_random=True))
def test_any_deal_matches_the_readable_engine(dealing: random.Random, playing: random.Random) -> None:
    _check_hand(dealing, playing)


def test_deal_gives_each_seat_seven_distinct_tiles() -> None:
    hands = fast.deal_masks(list(range(28)), random.Random(7).random)
    assert [mask.bit_count() for mask in hands] == [7, 7, 7, 7]
    assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 28) - 1


def test_masks_tables_agree_with_the_tiles() -> None:
    everything = (1 << 28) - 1
    assert fast.pips(everything) == pips(Tile.of(*tile) for tile in fast.TILES) == 168
    assert fast.indices(everything) == tuple(range(28))
    for suit in range(7):
        assert sorted(fast.TILES[i] for i in fast.indices(fast.SUIT_MASK[suit])) == sorted(
            tile for tile in fast.TILES if suit in tile
        )
    assert fast.mask_of([(4, 6), (6, 4)]) == fast.mask_of([(6, 4)])


def test_random_match_reaches_the_target() -> None:
    rng = random.Random(11)
    for _ in range(50):
        winner, team0, team1 = fast.random_match(rng)
        assert (team0, team1)[winner] >= 200
        assert (team0, team1)[1 - winner] < 200


def test_deals_spread_every_tile_evenly_over_the_seats() -> None:
    """Chi-square over tile x seat counts (fixed seed): the random-key sort deals uniformly."""
    deals = 8000
    rng = random.Random(2026)
    order = list(range(28))
    counts = [[0] * 4 for _ in range(28)]
    for _ in range(deals):
        for seat, mask in enumerate(fast.deal_masks(order, rng.random)):
            for tile in fast.indices(mask):
                counts[tile][seat] += 1
    expected = deals / 4
    chi_square = sum((count - expected) ** 2 / expected for row in counts for count in row)
    # 28 * 3 = 84 degrees of freedom: the 99.9th percentile is about 130.
    assert chi_square < 130, chi_square
