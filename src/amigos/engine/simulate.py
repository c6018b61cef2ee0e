"""Random legal matches, written as records: for tests, demos and fuzzing.

Everything is drawn from one ``random.Random(seed)``, so a seed always gives the same record.
Deal keys are UUID4 texts taken from that generator (not from the CSPRNG: reproducibility is the
point here). Cuban reshuffle offers are always declined.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Sequence

from .actions import Action
from .deal import deal_from_key
from .match import Match
from .record import Record, RecordHand, record_hand
from .state import HandState
from .variants import Variant

#: Chooses an action for the seat to move. The default picks uniformly among the legal ones.
Chooser = Callable[[HandState, random.Random], Action]

DEFAULT_NAMES: tuple[str, ...] = ("Ana", "Beto", "Caro", "Dani")


def random_choice(state: HandState, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def seeded_key(rng: random.Random) -> str:
    """A UUID4-shaped deal key drawn from ``rng`` (reproducible, unlike :func:`new_deal_key`)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def simulate_match(
    variant: Variant,
    seed: int | random.Random,
    max_hands: int | None = None,
    chooser: Chooser = random_choice,
    names: Sequence[str] | None = None,
) -> Record:
    """A record of a match played with ``chooser`` (random legal moves by default), stopping at
    the match's end or after ``max_hands`` hands.

    ``seed`` may be a generator instead of a seed (property tests pass hypothesis' own, so a
    failing case shrinks by its choices rather than by an opaque integer).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    players = tuple(names) if names is not None else _names(variant.players)
    first_key = seeded_key(rng)
    first_deal = deal_from_key(first_key, variant)
    match = Match.new(variant, players, variant.pick_first_leader(first_deal, rng))
    hands: list[RecordHand] = []
    deal = first_deal
    while not match.is_over and (max_hands is None or len(hands) < max_hands):
        start = match.start_hand(deal)
        state = start
        actions: list[Action] = []
        while not state.is_over:
            action = chooser(state, rng)
            actions.append(action)
            state = state.apply(action, state.to_move)
        hands.append(record_hand(start, actions))
        match = match.finish_hand(state)
        deal = deal_from_key(seeded_key(rng), variant)
    return Record(variant=variant.name, players=players, hands=tuple(hands))


def _names(count: int) -> tuple[str, ...]:
    return (
        DEFAULT_NAMES[:count] if count <= len(DEFAULT_NAMES) else tuple(f"P{seat}" for seat in range(count))
    )
