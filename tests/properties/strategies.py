"""Shared hypothesis strategies and playout helpers for the engine's properties."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from amigos.engine import Family, HandState, Variant, deal_from_key, find_variant
from amigos.engine.simulate import seeded_key
from amigos.engine.variants.draw_fives import NAMES as DRAW_NAMES

ALL_VARIANTS: list[Variant] = [find_variant(name) for name in ("amigos-100", "amigos-200", "amigos-hands")]
ALL_VARIANTS += [find_variant("cuban-2v2"), find_variant("cuban-1v1")]
ALL_VARIANTS += [find_variant(name, players) for name in DRAW_NAMES for players in (2, 3, 4)]

variants = st.sampled_from(ALL_VARIANTS)
# Everything a test randomizes, `simulate_match` included (it takes a generator in place of its
# integer seed), is drawn with `st.randoms()`, which hypothesis controls and shrinks call by call (an
# integer fed to random.Random never shrinks; tests/test_no_integer_seeds.py).


def start_state(variant: Variant, rng: random.Random) -> HandState:
    deal = deal_from_key(seeded_key(rng), variant)
    leader = rng.randrange(variant.players)
    # Cuban: in a match's first hand the leader's side wins a tie in pips.
    tie_winner = variant.team_of(leader) if variant.family is Family.CUBAN else None
    return HandState.start(variant, deal.hands, leader, deal.boneyard, tie_winner)


def playout(variant: Variant, rng: random.Random) -> list[HandState]:
    """Every state of one random legal hand (deal, leader and each choice drawn from ``rng``)."""
    state = start_state(variant, rng)
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()), state.to_move)
        states.append(state)
    return states
