"""What the rest of the site sees of tables: invitations, presence statuses and the live list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.web.lobby import presence
from amigos.web.lobby.models import Status as PresenceStatus
from amigos.web.realtime.lobby_feed import get_lobby_feed
from amigos.web.tables import rendering, selectors
from amigos.web.tables.models import Seat

if TYPE_CHECKING:
    from amigos.web.tables.actor import TableActor


def _set_statuses(changes: list[tuple[int, str]]) -> None:
    for user_id, status in changes:
        presence.set_status(user_id, PresenceStatus(status))


def _invitations(table_id: int) -> list[tuple[int, dict[str, object]]]:
    seats = Seat.objects.filter(table_id=table_id, invitation="pending").select_related(
        "table", "table__organizer"
    )
    return [(seat.user_id, selectors.invitation_payload(seat)) for seat in seats if seat.user_id is not None]


async def _statuses(actor: TableActor, changes: list[tuple[int, str]]) -> None:
    if not changes:
        return
    await database_sync_to_async(_set_statuses)(changes)
    await get_lobby_feed().announce()


async def send_invitations(actor: TableActor) -> None:
    """Tell every invited player (each of their sockets) about their open invitation."""
    if actor.status != "inviting":
        return
    invited = await database_sync_to_async(_invitations)(actor.id)
    now = actor.clock.now()
    for user_id, payload in invited:
        await actor.hub.publish(
            rendering.user_topic(user_id), "table.invited", {**payload, "now": rendering.iso(now)}
        )
    if actor.kind == "live":
        await _statuses(actor, [(user_id, PresenceStatus.INVITED) for user_id, _ in invited])


async def invitation_answered(actor: TableActor, user_id: int, reason: str) -> None:
    if actor.kind == "live" and reason != "accepted":
        await _statuses(actor, [(user_id, PresenceStatus.AVAILABLE)])


async def table_changed(actor: TableActor) -> None:
    """The table's status or score changed: the lobby's list, and the players' statuses."""
    if actor.kind == "live":
        humans = [
            seat.user_id for seat in actor.seats if seat.user_id is not None and seat.invitation == "accepted"
        ]
        if actor.status in ("playing", "voting"):
            await _statuses(actor, [(user_id, PresenceStatus.PLAYING) for user_id in humans])
        elif actor.status in ("finished", "cancelled"):
            await _statuses(actor, [(user_id, PresenceStatus.AVAILABLE) for user_id in humans])
        tables = await database_sync_to_async(selectors.live_tables)()
        await actor.hub.publish(rendering.LOBBY_TOPIC, "tables.list", {"tables": tables})
