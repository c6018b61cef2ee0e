"""The vote after a match, as a rule on the choices alone (no table, no time).

The spec: a rematch or a rotation needs every player to press the same button, and one player who
presses another sends everyone to the meeting room. So a ballot is settled as soon as it is
unanimous or can no longer become so. `gathering.decide` and `gathering.vote_outcome` apply it to
the vote after a match, for the pure table and the live server's actor alike.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from typing import TypeVar

C = TypeVar("C", bound=Hashable)


def unanimous(choices: Mapping[int, C], voters: Collection[int]) -> C | None:
    """The choice every voter made, or None (someone has not chosen, or they differ)."""
    if not voters or any(voter not in choices for voter in voters):
        return None
    made = {choices[voter] for voter in voters}
    return made.pop() if len(made) == 1 else None


def settled(choices: Mapping[int, C], voters: Collection[int], dissent: C) -> bool:
    """Whether the ballot is over: unanimous, or past saving because someone chose ``dissent`` (the
    meeting room) or two voters chose differently."""
    made = {choices[voter] for voter in voters if voter in choices}
    return dissent in made or len(made) > 1 or unanimous(choices, voters) is not None


def outcome(choices: Mapping[int, C], voters: Collection[int], dissent: C) -> C:
    """What a closed ballot decides: the unanimous choice, else ``dissent`` (also when time ran out
    before everyone chose)."""
    agreed = unanimous(choices, voters)
    return dissent if agreed is None else agreed
