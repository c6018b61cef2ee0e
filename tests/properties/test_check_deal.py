"""`check_deal` against the plain statement of its rule: the hands and the boneyard, sized for the
variant, are exactly one full set. The check counts tiles by their place in a table instead of
in a set of tiles (a tile's hash is a Python call), so it is compared here with a set-based
reference on drawn deals, near-misses included."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.engine import Tile, Variant, find_variant, tile_set
from amigos.engine.state import DealError, check_deal
from amigos.engine.tiles import MAX_SUPPORTED_PIP

VARIANTS = [
    find_variant("amigos-100"),
    find_variant("cuban-2v2"),
    find_variant("cuban-1v1"),
    find_variant("draw-100", 4),
    find_variant("all-fives-100", 2),
    find_variant("fives-and-threes-100", 3),
]

Deal = tuple[Variant, list[list[Tile]], list[Tile]]


def reference(variant: Variant, hands: list[list[Tile]], boneyard: list[Tile]) -> bool:
    """Whether the deal is right, said the plain way."""
    if len(hands) != variant.players or any(len(hand) != variant.hand_size for hand in hands):
        return False
    if len(boneyard) != variant.boneyard_size:
        return False
    dealt = [tile for hand in hands for tile in hand] + boneyard
    return len(dealt) == len(set(dealt)) and set(dealt) == set(tile_set(variant.max_pip))


any_tile = st.builds(Tile, st.integers(0, MAX_SUPPORTED_PIP), st.integers(0, MAX_SUPPORTED_PIP))


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """A right deal of a drawn variant, then (mostly) one change that may break it: a tile put in
    twice, one from a bigger set, a hand a tile short, or two tiles swapped between places."""
    variant = draw(st.sampled_from(VARIANTS))
    order = draw(st.permutations(list(tile_set(variant.max_pip))))
    size = variant.hand_size
    hands = [list(order[seat * size : (seat + 1) * size]) for seat in range(variant.players)]
    boneyard = list(order[variant.players * size :])
    places = [*hands, boneyard]
    change = draw(st.sampled_from(["none", "replace", "drop", "swap"]))
    filled = [place for place in places if place]
    if change == "replace":
        place = draw(st.sampled_from(filled))
        place[draw(st.integers(0, len(place) - 1))] = draw(any_tile)
    elif change == "drop":
        place = draw(st.sampled_from(filled))
        place.pop(draw(st.integers(0, len(place) - 1)))
    elif change == "swap":
        first, second = draw(st.sampled_from(filled)), draw(st.sampled_from(filled))
        i, j = draw(st.integers(0, len(first) - 1)), draw(st.integers(0, len(second) - 1))
        first[i], second[j] = second[j], first[i]
    return variant, hands, boneyard


@given(deals())
def test_check_deal_says_what_the_plain_rule_says(deal: Deal) -> None:
    variant, hands, boneyard = deal
    try:
        check_deal(variant, hands, boneyard)
        accepted = True
    except DealError:
        accepted = False
    assert accepted == reference(variant, hands, boneyard)


def test_a_tile_of_a_bigger_set_and_a_repeated_tile_are_named() -> None:
    variant = find_variant("amigos-100")
    order = list(tile_set(6))
    hands = [order[seat * 7 : (seat + 1) * 7] for seat in range(4)]
    hands[2][3] = Tile(9, 0)
    with pytest.raises(DealError) as bigger:
        check_deal(variant, hands, [])
    assert str(bigger.value) == "seat 2: 9-0 is not in the set"
    hands[2][3] = hands[0][0]
    with pytest.raises(DealError) as twice:
        check_deal(variant, hands, [])
    assert str(twice.value) == f"seat 2: {hands[0][0]} is dealt twice"
