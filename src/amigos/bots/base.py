"""What a computer player is (the registry that finds one by name is ``amigos.bots.registry``).

A bot is handed one seat's view (``amigos.engine.SeatView``) and a random
generator, and returns one of that view's legal actions.  It never receives the
hand state: the only code that drives bots (``amigos.bots.runner``) builds the
view with ``seat_view(state, seat)`` and passes nothing else, so a bot cannot
look at hidden tiles even by accident.  The random generator is the bot's only
source of randomness, which makes every choice reproducible from (view, rng).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from amigos.engine import Action
from amigos.engine.view import SeatView


@runtime_checkable
class Bot(Protocol):
    """A computer player: ``choose`` returns one of ``view.legal_actions()``."""

    @property
    def name(self) -> str: ...

    def choose(self, view: SeatView, rng: random.Random) -> Action: ...


def options(view: SeatView) -> list[Action]:
    """The seat's legal actions, refusing a view where it has none (not its turn, or the hand is over).

    Every level starts from this list, and answers at once when it holds a single action: a forced
    play or pass needs no thinking, and it keeps forced moves out of the thinking-time figures.
    """
    actions = list(view.legal_actions())
    if not actions:
        raise ValueError("the seat has no legal action (not its turn, or the hand is over)")
    return actions
