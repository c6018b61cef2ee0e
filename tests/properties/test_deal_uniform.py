"""Deals are uniform: chi-square tests over many keys (fixed seed, so the result is deterministic)."""

from __future__ import annotations

import math
import random
from collections import Counter

from amigos.engine import Tile, deal_from_key, find_variant, tile_set
from amigos.engine.simulate import seeded_key

DEALS = 4000


def critical_value(df: int, z: float = 3.09) -> float:
    """Chi-square critical value at p ~ 0.001 (Wilson-Hilferty approximation)."""
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def chi_square(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def deals(name: str, players: int | None = None) -> list[tuple[tuple[Tile, ...], ...]]:
    rng = random.Random(20261122)
    variant = find_variant(name, players)
    return [deal_from_key(seeded_key(rng), variant).hands for _ in range(DEALS)]


def test_every_tile_reaches_every_seat_equally() -> None:
    hands = deals("amigos-200")
    counts: Counter[tuple[Tile, int]] = Counter()
    for deal in hands:
        for seat, hand in enumerate(deal):
            for tile in hand:
                counts[(tile, seat)] += 1
    tiles = tile_set(6)
    observed = [counts[(tile, seat)] for tile in tiles for seat in range(4)]
    expected = [DEALS / 4] * len(observed)
    df = len(tiles) * 3
    assert chi_square(observed, expected) < critical_value(df)


def test_doubles_in_a_hand_follow_the_hypergeometric_law() -> None:
    hands = deals("amigos-100")
    observed_counts = Counter(sum(1 for tile in deal[0] if tile.is_double) for deal in hands)
    total = math.comb(28, 7)
    probabilities = [math.comb(7, k) * math.comb(21, 7 - k) / total for k in range(8)]
    # Pool the rare tail (4 or more doubles) so every expected count is large enough.
    expected = [DEALS * p for p in probabilities[:4]] + [DEALS * sum(probabilities[4:])]
    observed = [observed_counts[k] for k in range(4)] + [sum(observed_counts[k] for k in range(4, 8))]
    assert chi_square(observed, expected) < critical_value(len(expected) - 1)


def test_boneyard_order_is_uniform() -> None:
    hands_and_piles: list[Tile] = []
    rng = random.Random(7)
    variant = find_variant("draw-100", 2)
    for _ in range(DEALS):
        deal = deal_from_key(seeded_key(rng), variant)
        hands_and_piles.append(deal.boneyard[0])
    counts = Counter(hands_and_piles)
    observed = [counts[tile] for tile in tile_set(6)]
    assert chi_square(observed, [DEALS / 28] * 28) < critical_value(27)
