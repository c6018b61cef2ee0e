"""The registry of computer players: a level's name -> a fresh bot.

It lives apart from ``amigos.bots.base`` because it must import every level (easy, normal, hard, expert)
while every level imports ``base`` for ``options``; keeping the two in one module made a cycle
(base -> hard -> base) that only worked because the imports sat inside a function.  Now the
arrows point one way: registry -> levels -> base.
"""

from __future__ import annotations

from collections.abc import Callable

from amigos.bots.base import Bot
from amigos.bots.easy import EasyBot
from amigos.bots.hard import EXPERT_SETTINGS, HardBot
from amigos.bots.normal import NormalBot


class UnknownBot(ValueError):
    """A bot name that the registry does not know."""


_FACTORIES: dict[str, Callable[[], Bot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    "expert": lambda: HardBot(EXPERT_SETTINGS, name="expert"),
}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    """Make ``find_bot(name)`` build bots with ``factory`` (used by the optional reference bots too)."""
    _FACTORIES[name] = factory


def bot_names() -> tuple[str, ...]:
    """Every registered bot name, built-in levels first."""
    return tuple(_FACTORIES)


def find_bot(name: str) -> Bot:
    """A fresh bot of the level ``name`` ("easy" to "expert", or a registered reference bot)."""
    if name not in _FACTORIES:
        _load_reference(name)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(_FACTORIES)
        raise UnknownBot(f"unknown bot {name!r} (known: {known})") from None
    return factory()


def _load_reference(name: str) -> None:
    """Reference opponents live in an optional module that needs a benchmark-only package."""
    if name.startswith("dominoes-"):
        try:
            from amigos.bots import reference
        except ImportError:  # the `dominoes` package is not installed
            return
        reference.register(register_bot)
