"""What a computer player is, and the registry that finds one by name.

A bot is handed one seat's view (``amigos.engine.SeatView``) and a random
generator, and returns one of that view's legal actions.  It never receives the
hand state: the only code that drives bots (``amigos.bots.runner``) builds the
view with ``seat_view(state, seat)`` and passes nothing else, so a bot cannot
look at hidden tiles even by accident.  The random generator is the bot's only
source of randomness, which makes every choice reproducible from (view, rng).
"""

from __future__ import annotations

import random
from collections.abc import Callable
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


class UnknownBot(ValueError):
    """A bot name that the registry does not know."""


_FACTORIES: dict[str, Callable[[], Bot]] = {}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    """Make ``find_bot(name)`` build bots with ``factory`` (used by the optional reference bots too)."""
    _FACTORIES[name] = factory


def bot_names() -> tuple[str, ...]:
    """Every registered bot name, built-in levels first."""
    _load_builtin()
    return tuple(_FACTORIES)


def find_bot(name: str) -> Bot:
    """A fresh bot of the level ``name`` ("easy", "normal", "hard", or a registered reference bot)."""
    _load_builtin()
    if name not in _FACTORIES:
        _load_reference(name)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(_FACTORIES)
        raise UnknownBot(f"unknown bot {name!r} (known: {known})") from None
    return factory()


def _load_builtin() -> None:
    if "easy" in _FACTORIES:
        return
    from amigos.bots.easy import EasyBot
    from amigos.bots.hard import HardBot
    from amigos.bots.normal import NormalBot

    register_bot("easy", EasyBot)
    register_bot("normal", NormalBot)
    register_bot("hard", HardBot)


def _load_reference(name: str) -> None:
    """Reference opponents live in optional modules that need benchmark-only packages."""
    if name.startswith("dominoes-"):
        try:
            from amigos.bots import reference
        except ImportError:  # the `dominoes` package is not installed
            return
        reference.register()
