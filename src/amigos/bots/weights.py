"""The weights of the normal level's rules of thumb, and the part of a play's worth that the table
alone decides (`suit_bonus`), apart from the level itself.

Why a module of its own: the normal level scores plays with them, and the hard level's model of
the other players (``amigos.bots.likelihood.FollowModel``) scores past plays with the same ones;
the model is one of a bot's building blocks, which never import a level.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from amigos.engine import Variant


@dataclass(frozen=True)
class Weights:
    """The weights of the normal level's features (kept together so they are easy to tune)."""

    pips: float = 1.0
    double: float = 3.0
    follow: float = 1.5
    partner_suit: float = 2.0
    partner_void: float = 3.0
    next_opponent_void: float = 3.0
    other_opponent_void: float = 1.5
    block: float = 40.0
    scored: float = 2.0
    threat: float = 0.5


def suit_bonus(
    variant: Variant,
    seat: int,
    voids: Mapping[int, Collection[int]],
    shown: Mapping[int, Collection[int]],
    weights: Weights,
) -> tuple[float, ...]:
    """What the normal level's rules add, for each suit, to a play by ``seat`` that leaves an end of
    that suit showing, given the suits each other seat is known to lack (``voids``) and those it
    showed by its plays (``shown``, `amigos.bots.knowledge.shown_suits`): the partner's suits it
    does not lack, less its voids; the next seat's voids when it is an opponent, and the other
    opponents'. It depends on the table only, so a past play's is read once from the history."""
    players = variant.players
    team = variant.team_of(seat)
    partners = [other for other in range(players) if other != seat and variant.team_of(other) == team]
    opponents = [other for other in range(players) if variant.team_of(other) != team]
    following = (seat + 1) % players
    partner_voids = set().union(*(voids.get(partner, ()) for partner in partners))
    partner_suits = set().union(*(shown.get(partner, ()) for partner in partners)) - partner_voids
    next_voids = set(voids.get(following, ())) if following in opponents else set()
    other_voids = set().union(*(voids.get(other, ()) for other in opponents if other != following))
    return tuple(
        weights.partner_suit * (suit in partner_suits)
        - weights.partner_void * (suit in partner_voids)
        + weights.next_opponent_void * (suit in next_voids)
        + weights.other_opponent_void * (suit in other_voids)
        for suit in range(variant.max_pip + 1)
    )
