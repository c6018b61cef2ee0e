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


def deal(variant: Variant, rng: random.Random) -> HandState:
    """A random deal with a random leader, drawn from ``rng``.

    Property tests pass ``st.randoms()`` here, so hypothesis chooses (and shrinks) the deal itself
    instead of an opaque integer seed; example tests pass ``random.Random(n)``.
    """
    tiles = list(tile_set(variant.max_pip))
    rng.shuffle(tiles)
    size = variant.hand_size
    hands = [tiles[s * size : (s + 1) * size] for s in range(variant.players)]
    leader = rng.randrange(variant.players)
    tie_winner = rng.randrange(2) if variant.family is Family.CUBAN else None
    return HandState.start(variant, hands, leader, tiles[variant.players * size :], tie_winner=tie_winner)


def random_position(name: str, players: int | None, rng: random.Random, steps: int) -> HandState:
    """The state after up to ``steps`` random legal actions from a random deal (never a finished hand)."""
    variant = find_variant(name, players)
    state = deal(variant, rng)
    for _ in range(steps):
        actions = state.legal_actions()
        following = state.apply(actions[rng.randrange(len(actions))], state.to_move)
        if following.is_over:
            break
        state = following
    return state
