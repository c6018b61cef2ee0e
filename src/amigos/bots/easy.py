"""The easy level: plays legal tiles, now and then the heaviest, otherwise any.

Getting rid of heavy tiles is the first thing a beginner learns; doing it only
one time in five, and never looking at the partner, the opponents or
the ends, leaves a bot that makes sensible-looking plays and is easy to beat.
"""

from __future__ import annotations

import random

from amigos.bots.base import options
from amigos.engine import Action, Play
from amigos.engine.view import SeatView


class EasyBot:
    """With probability ``HEAVY`` the heaviest playable tile, otherwise a random legal action."""

    name = "easy"
    HEAVY = 0.2

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = options(view)
        if len(actions) == 1:
            return actions[0]
        if rng.random() < self.HEAVY:
            heaviest = max(action.tile.pips for action in actions if isinstance(action, Play))
            actions = [a for a in actions if isinstance(a, Play) and a.tile.pips == heaviest]
        return actions[rng.randrange(len(actions))]
