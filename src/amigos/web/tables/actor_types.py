"""The small types a table actor and its parts share: a seat's state, the job's pending write, the
clock and the links to the rest of the site.

They live apart from `actor` because the actor's parts (the `actor_*` modules) name them too,
and the actor imports those parts: were the types in `actor`, each part would have to import the
module that imports it. `actor` re-exports them, so `from amigos.web.tables.actor import Clock,
Links` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.utils import timezone

from amigos.web.tables import store

if TYPE_CHECKING:  # `Links` names the actor in its signatures only; nothing is imported at run time
    from amigos.web.tables.actor import TableActor


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return timezone.now()


class Links(Protocol):
    """What the actor tells the rest of the site (the lobby, the archive, the next table).

    Implemented by `amigos.web.tables.links` and handed over by the registry: the modules behind
    it import the actor, so the actor must not import them."""

    async def table_changed(self, actor: TableActor, *, statuses: bool = True) -> None: ...
    async def invitation_answered(self, actor: TableActor, user_id: int, reason: str) -> None: ...
    async def seat_presence(self, actor: TableActor, seats: list[tuple[int, bool]]) -> None: ...
    async def hand_over(self, actor: TableActor) -> None: ...
    def create_next_table(self, table_id: int, choice: str, now: datetime | None = None) -> int: ...
    async def wake(self, table_id: int) -> None: ...


@dataclass
class SeatState(store.SeatRow):
    """A seat as the live actor keeps it: the stored row, and whether its player is here."""

    connected: bool = True
    held_by_computer: bool = False

    @property
    def is_computer(self) -> bool:
        return self.user_id is None and bool(self.level)

    def label(self) -> str:
        if self.is_computer:
            return f"Computadora ({self.level})"
        return self.name


@dataclass
class Pending:
    """What the current job will write and then publish."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    write: store.Write | None = None
