"""Shared helpers of the bot tests: random deals and random positions reached by legal play."""

from __future__ import annotations

import random

from amigos.engine import Family, HandState, Variant, find_variant, tile_set

# Every rule family, with the seatings the bots must handle.
VARIANTS: tuple[tuple[str, int | None], ...] = (
    ("amigos-100", None),
    ("amigos-200", None),
    ("amigos-hands", None),
    ("cuban-2v2", None),
    ("cuban-1v1", None),
    ("draw-100", 2),
    ("draw-100", 3),
    ("all-fives-100", 4),
    ("all-threes-250", 2),
    ("fives-and-threes-500", 3),
)


def deal(variant: Variant, seed: int) -> HandState:
    rng = random.Random(seed)
    tiles = list(tile_set(variant.max_pip))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[s * size : (s + 1) * size] for s in range(variant.players)]
    tie_winner = seed % 2 if variant.family is Family.CUBAN else None
    return HandState.start(
        variant, hands, seed % variant.players, tiles[variant.players * size :], tie_winner=tie_winner
    )


def random_position(name: str, players: int | None, seed: int, steps: int) -> HandState:
    """The state after up to ``steps`` random legal actions from a random deal (never a finished hand)."""
    variant = find_variant(name, players)
    state = deal(variant, seed)
    rng = random.Random(seed + 1)
    for _ in range(steps):
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))])
        if following.is_over:
            break
        state = following
    return state
