"""What a table's stored cards lead to: the one question the store asks above the tables.

`store.append` writes a play's cards, then asks the registered hook which players they suspended,
in the same transaction: a card and the suspension it causes are stored together or not at all,
and the actor ends the match the moment its write comes back (`Write.suspended`). Moderation
registers its ladder here when the site starts (`moderation.apps`), so the table's store imports
nothing of moderation or accounts: moderation builds on the tables, never the other way round
(`docs/architecture.md`, "Dependency rules"). Registering costs a play nothing: the hook is one
attribute read, and only a write that gives cards calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from amigos.web.tables.models import Card

#: Given freshly stored cards (in the order given) and the moment, the ids of the players whose
#: account they suspended.
CardsHook = Callable[[Sequence[Card], datetime], list[int]]

_hook: list[CardsHook] = []


def register(hook: CardsHook) -> None:
    """Make ``hook`` the consequence of stored cards (the last registration wins: one ladder)."""
    _hook[:] = [hook]


def registered() -> CardsHook | None:
    """The hook stored cards go through, or None before moderation registered one."""
    return _hook[0] if _hook else None


def suspended_by(cards: Sequence[Card], now: datetime) -> list[int]:
    """The players the freshly stored ``cards`` suspended, by the registered hook's rules.

    With nothing registered (a site without moderation) a card leads to nothing beyond itself."""
    return _hook[0](cards, now) if _hook else []
