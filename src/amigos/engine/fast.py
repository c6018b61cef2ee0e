"""A fast path for random playouts of Amigos hands (double-six, four players, no boneyard).

The readable `HandState` is the reference for the rules; it builds an immutable object per move,
which is right for tables, records and views but too slow for searching and benchmarking, where
millions of random hands are played. Here a hand is four integers, one bitmask of tiles per seat
over the 28 tiles, and the line is just its two open-end values. Every rule used below (legal
tiles, the two placements of a tile that fits both ends with different values, the domino, the
block as soon as nobody can lay, the 200-counting award) is the one `HandState` applies; the tests
in tests/engine_fast replay the same deals and choices through `HandState` and compare.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

#: The 28 double-six tiles as (high, low); a tile's index is its bit in a hand mask.
TILES: Final[tuple[tuple[int, int], ...]] = tuple((high, low) for high in range(7) for low in range(high + 1))

DOMINO: Final = "domino"
BLOCK: Final = "block"
TIED_BLOCK: Final = "tied-block"

#: (end, winning team or None, points) of a finished hand.
FastOutcome = tuple[str, int | None, int]
#: One step of a traced hand: (seat, tile index or None for a pass, open-end value laid on or None
#: for the lead and passes, number of distinct legal choices the seat had).
TraceStep = tuple[int, int | None, int | None, int]

_BIT: Final = tuple(1 << index for index in range(len(TILES)))


def _suit_masks() -> tuple[int, ...]:
    masks = [0] * 7
    for index, (high, low) in enumerate(TILES):
        masks[high] |= _BIT[index]
        masks[low] |= _BIT[index]
    return tuple(masks)


#: Tiles holding each suit.
SUIT_MASK: Final = _suit_masks()
# Tiles that fit a line whose open ends are (left, right), indexed left * 7 + right.
_FITS: Final = tuple(SUIT_MASK[left] | SUIT_MASK[right] for left in range(7) for right in range(7))
# The tile {left, right} when left != right (it fits both ends with two different results), else 0.
_PAIR: Final = tuple(
    _BIT[TILES.index((max(left, right), min(left, right)))] if left != right else 0
    for left in range(7)
    for right in range(7)
)


def _placements(prefer_right: bool) -> tuple[int, ...]:
    """Open ends (left * 7 + right) after laying tile i on ends e, indexed i * 49 + e (-1: no fit).

    A tile is laid on the left end when it fits there, else on the right; with `prefer_right` it
    goes on the right end whenever it fits there (the second choice for a tile fitting both ends).
    """
    table = []
    for high, low in TILES:
        for left in range(7):
            for right in range(7):
                on_left = left in (high, low)
                on_right = right in (high, low)
                if on_right and (prefer_right or not on_left):
                    table.append(left * 7 + (low if right == high else high))
                elif on_left:
                    table.append((low if left == high else high) * 7 + right)
                else:
                    table.append(-1)
    return tuple(table)


_PLACE: Final = _placements(prefer_right=False)
_PLACE_RIGHT: Final = _placements(prefer_right=True)

# Lookup tables over 7-bit slices of a mask: the tile indices and the pip sum of each slice.
_SLICES: Final = 4
_INDICES: Final = tuple(
    tuple(tuple(7 * part + bit for bit in range(7) if chunk >> bit & 1) for chunk in range(128))
    for part in range(_SLICES)
)
_PIPS: Final = tuple(
    tuple(sum(sum(TILES[7 * part + bit]) for bit in range(7) if chunk >> bit & 1) for chunk in range(128))
    for part in range(_SLICES)
)
_I0, _I1, _I2, _I3 = _INDICES
_P0, _P1, _P2, _P3 = _PIPS


def indices(mask: int) -> tuple[int, ...]:
    """Tile indices present in `mask`, in index order."""
    return _I0[mask & 127] + _I1[mask >> 7 & 127] + _I2[mask >> 14 & 127] + _I3[mask >> 21]


def pips(mask: int) -> int:
    """Total pips of the tiles in `mask`."""
    return _P0[mask & 127] + _P1[mask >> 7 & 127] + _P2[mask >> 14 & 127] + _P3[mask >> 21]


def mask_of(tiles: Sequence[tuple[int, int]]) -> int:
    """Bitmask of tiles given as pairs of halves in either order."""
    mask = 0
    for first, second in tiles:
        mask |= _BIT[TILES.index((max(first, second), min(first, second)))]
    return mask


def deal_masks(order: list[int], rand: Callable[[], float]) -> list[int]:
    """Shuffle `order` (a list of the 28 tile indices) in place and deal 7 tiles to each seat.

    Sorting by independent uniform keys gives a uniform permutation (53-bit keys practically never
    tie) and costs less than `random.shuffle`, whose per-element draws run in Python.
    """
    order.sort(key=lambda _tile: rand())
    b = _BIT
    o = order
    return [
        b[o[0]] | b[o[1]] | b[o[2]] | b[o[3]] | b[o[4]] | b[o[5]] | b[o[6]],
        b[o[7]] | b[o[8]] | b[o[9]] | b[o[10]] | b[o[11]] | b[o[12]] | b[o[13]],
        b[o[14]] | b[o[15]] | b[o[16]] | b[o[17]] | b[o[18]] | b[o[19]] | b[o[20]],
        b[o[21]] | b[o[22]] | b[o[23]] | b[o[24]] | b[o[25]] | b[o[26]] | b[o[27]],
    ]


def play_hand(
    hands: Sequence[int],
    leader: int,
    rand: Callable[[], float],
    trace: list[TraceStep] | None = None,
) -> FastOutcome:
    """Play one amigos-200 hand to its end, every choice uniform among the distinct legal ones.

    `hands` are the four seats' tile masks (seats 0 and 2 against 1 and 3, turn order 0, 1, 2, 3),
    `rand` a function returning floats in [0, 1) such as `random.Random(seed).random`. The choices
    match `HandState.legal_actions()`: one per tile, two for the tile that fits both open ends with
    different results. Returns (end, winning team or None, points); with a `trace` list, appends
    each move so the same hand can be replayed through the readable engine.
    """
    held = list(hands)
    alive = held[0] | held[1] | held[2] | held[3]
    seat = leader
    choices = indices(held[seat])
    tile = choices[int(rand() * len(choices))]
    first, second = TILES[tile]
    ends = first * 7 + second
    held[seat] ^= _BIT[tile]
    alive ^= _BIT[tile]
    if trace is not None:
        trace.append((seat, tile, None, len(choices)))
    # One tile on the table can neither empty a hand of seven nor block the line.
    fits, pair_of, bit, place, place_right = _FITS, _PAIR, _BIT, _PLACE, _PLACE_RIGHT
    while True:
        seat = (seat + 1) & 3
        legal = held[seat] & fits[ends]
        if not legal:
            if trace is not None:
                trace.append((seat, None, None, 1))
            continue
        # Choices in tile-index order, then the second placement of the tile fitting both ends.
        count = legal.bit_count()
        pair = pair_of[ends] & legal
        if pair:
            count += 1
        if count == 1:
            tile = legal.bit_length() - 1
            after = place[tile * 49 + ends]
        else:
            pick = int(rand() * count)
            if pair and pick == count - 1:
                tile = pair.bit_length() - 1
                after = place_right[tile * 49 + ends]
            else:
                while pick:
                    legal &= legal - 1
                    pick -= 1
                tile = (legal & -legal).bit_length() - 1
                after = place[tile * 49 + ends]
        if trace is not None:
            high, low = TILES[tile]
            laid_on = high if high == low else (ends // 7 if after // 7 != ends // 7 else ends % 7)
            trace.append((seat, tile, laid_on, count))
        ends = after
        laid = bit[tile]
        mine = held[seat] ^ laid
        held[seat] = mine
        alive ^= laid
        if not mine:
            return DOMINO, seat & 1, pips(alive)
        if not alive & fits[ends]:
            team0 = pips(held[0] | held[2])
            team1 = pips(held[1] | held[3])
            if team0 == team1:
                return TIED_BLOCK, None, 0
            return BLOCK, (0 if team0 < team1 else 1), team0 + team1


def random_match(rng: random.Random, target: int = 200) -> tuple[int, int, int]:
    """Play a random Amigos match to `target` (200 counting): (winning team, team 0, team 1 totals)."""
    order = list(range(len(TILES)))
    score = [0, 0]
    leader = int(rng.random() * 4)
    while True:
        hands = deal_masks(order, rng.random)
        _end, winner, points = play_hand(hands, leader, rng.random)
        if winner is not None:
            score[winner] += points
            if score[winner] >= target:
                return winner, score[0], score[1]
        leader = (leader + 1) & 3
