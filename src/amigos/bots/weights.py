"""The weights of the normal level's rules of thumb, apart from the level itself.

Why a module of its own: the normal level scores plays with them, and the hard level's model of
the other players (``amigos.bots.likelihood.FollowModel``) scores past plays with the same ones;
the model is one of a bot's building blocks, which never import a level.
"""

from __future__ import annotations

from dataclasses import dataclass


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
