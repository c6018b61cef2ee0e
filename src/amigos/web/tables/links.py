"""What a table's actor tells the rest of the site, behind the actor's `Links` protocol.

The actor imports none of these modules (they import it), which keeps the tables app free of
import cycles: the registry hands this module to every actor it builds (set up in the app's
``ready``). Each function looks its target up at call time, so a test may replace it.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.web.tables import forwarding, handover, lobby, registry, services, store

if TYPE_CHECKING:
    from amigos.web.tables.actor import TableActor


async def table_changed(actor: TableActor, *, statuses: bool = True) -> None:
    await lobby.table_changed(actor, statuses=statuses)


async def invitation_answered(actor: TableActor, user_id: int, reason: str) -> None:
    await lobby.invitation_answered(actor, user_id, reason)


async def seat_presence(actor: TableActor, seats: list[tuple[int, bool]]) -> None:
    await lobby.seat_presence(actor, seats)


async def hand_over(actor: TableActor) -> None:
    await handover.hand_over(actor)


async def make_next_table(table_id: int, choice: str, now: datetime | None = None) -> int:
    """`services.make_next_table` on a database thread; what it holds of a table it made stands in
    for reading it back when its actor is built here (`registry.preload`)."""
    made: tuple[int, store.Loaded | None] = await database_sync_to_async(services.make_next_table)(
        table_id, choice, now
    )
    next_id, loaded = made
    if loaded is not None:
        registry.preload(loaded)
    return next_id


async def wake(table_id: int) -> None:
    """Wake a table made outside its actor. What its maker held of it (`registry.preload`) goes
    afterwards, used or not: the table was built by now, here or by another process."""
    try:
        await forwarding.wake(table_id)
    finally:
        registry.forget_preload(table_id)
