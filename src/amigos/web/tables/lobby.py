"""What the rest of the site sees of tables: invitations, presence statuses and the live list."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.web.lobby import presence
from amigos.web.lobby.feed import get_lobby_feed
from amigos.web.lobby.models import Status as PresenceStatus
from amigos.web.realtime.hub import Hub
from amigos.web.tables import log_codec, rendering, selectors, store
from amigos.web.tables.models import Seat

if TYPE_CHECKING:
    from amigos.web.tables.actor import TableActor
    from amigos.web.tables.lapsed_invitations import Cancelled

log = logging.getLogger("amigos.tables")


def _set_statuses(changes: list[tuple[int, str]]) -> None:
    """One update per status, not per player: a table's four players usually change together."""
    latest = dict(changes)  # a player changed twice keeps the later status, as one by one
    by_status: dict[str, list[int]] = {}
    for user_id, status in latest.items():
        by_status.setdefault(status, []).append(user_id)
    for status, user_ids in by_status.items():
        presence.set_statuses(user_ids, PresenceStatus(status))


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


async def table_changed(actor: TableActor, *, statuses: bool = True) -> None:
    """The table's status, seats or score changed: the lobby's list of live tables, and (when the
    table's status or seats changed: ``statuses``) the players' presence statuses.

    The vote after a match leaves the statuses as they are (the players were playing, or away),
    and a table whose players go on at a rematch or rotated table leaves them playing: that table
    says so when it starts. Before, each rematch wrote "playing" at the vote, "available" at its
    close and "playing" again a moment later, three writes on the database thread for one change
    that did not happen, and the online list showed the players free in between."""
    if actor.kind != "live":
        return
    if statuses:
        humans = [
            seat.user_id for seat in actor.seats if seat.user_id is not None and seat.invitation == "accepted"
        ]
        if actor.status == "playing":
            await _statuses(actor, [(user_id, PresenceStatus.PLAYING) for user_id in humans])
        elif actor.status in ("finished", "cancelled") and actor.next_table_id is None:
            await _statuses(actor, [(user_id, PresenceStatus.AVAILABLE) for user_id in humans])
    await list_feed(actor.hub).changed()


async def cancelled_without_actor(hub: Hub, done: list[Cancelled], now: datetime) -> None:
    """Tell what `lapsed_invitations` cancelled: each table's `store.CANCELLED` entry to its seats
    and spectators (pages still open on it go back to the meeting room), each closed invitation
    to its player, every player of those tables available again in the online list, and the
    lobby's list of tables without them."""
    if not done:
        return
    stamp = rendering.iso(now) or ""
    for item in done:
        kind, data = log_codec.encode(store.CANCELLED)
        rows = [(item.version, kind, data)]
        audiences: list[tuple[str, int | None]] = [
            (rendering.seat_topic(item.table_id, seat), seat) for seat in range(item.players)
        ]
        audiences.append((rendering.watch_topic(item.table_id), None))
        texts = rendering.batch_texts(item.table_id, rows, [audience for _, audience in audiences], stamp)
        for (topic, _), text in zip(audiences, texts, strict=True):
            await hub.publish_encoded(topic, "table.events", text)
        for user_id in item.invited:
            await hub.publish(
                rendering.user_topic(user_id),
                "table.invitation_closed",
                {"table_id": item.table_id, "reason": "expired"},
            )
    players = [user_id for item in done if item.kind == "live" for user_id in (*item.invited, *item.seated)]
    if players:
        await database_sync_to_async(presence.release_invited)(players)
        await get_lobby_feed().announce()
    await list_feed(hub).changed()


#: The lobby's list of live tables goes out at most this often (seconds).
LIST_EVERY = 1.0

#: The signal, on the lobby's topic, that a live table changed somewhere (internal: the hub never
#: forwards a type starting with "_" to a browser).
CHANGED = "_tables.changed"


class ListFeed:
    """The lobby's list of live tables, sent at once after a change and then at most once a
    second: every hand that ends changes a score on it, and building and sending the whole list
    for each (a query per table) had become most of the database's work under load.

    Only a process with a socket watching the lobby builds the list. A table that changes tells
    every process ("_tables.changed", a few bytes on the bus); each that has lobby sockets reads
    the list from the database, which holds every process's tables, and hands it to its own
    sockets. A thousand tables played with nobody in the lobby used to rebuild it every second
    for no one (a twentieth of the server's time, and garbage for the cycle collector)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.again = False
        self.listening = False

    async def listen(self) -> None:
        """Hear the changes of every process (once per process; from the first lobby socket or the
        first change here, whichever comes first)."""
        if not self.listening:
            self.listening = True
            await self.hub.observe(rendering.LOBBY_TOPIC, self._heard)

    async def changed(self) -> None:
        """A live table of this process changed."""
        await self.listen()
        await self.hub.publish(rendering.LOBBY_TOPIC, CHANGED, {})

    def _heard(self, kind: str, payload: dict[str, object]) -> None:
        if kind == CHANGED and self.hub.has_local(rendering.LOBBY_TOPIC):
            self._soon()

    def _soon(self) -> None:
        if self.task is not None and not self.task.done():
            self.again = True
            return
        self.again = False
        self.task = asyncio.get_running_loop().create_task(self._run(), name="amigos-tables-list")

    async def _run(self) -> None:
        while True:
            try:
                tables = await database_sync_to_async(selectors.live_tables)()
                self.hub.deliver_local(rendering.LOBBY_TOPIC, "tables.list", {"tables": tables})
            except Exception:
                log.exception("the lobby's list of tables could not be sent")
            await asyncio.sleep(LIST_EVERY)
            if not self.again or not self.hub.has_local(rendering.LOBBY_TOPIC):
                return
            self.again = False


def list_feed(hub: Hub) -> ListFeed:
    found = hub.features.get("tables.list")
    if not isinstance(found, ListFeed):
        found = ListFeed(hub)
        hub.features["tables.list"] = found
    return found


async def seat_presence(actor: TableActor, seats: list[tuple[int, bool]]) -> None:
    """Seated players who went away show as "reconnecting" in the online list while the table
    waits for them, and as "playing" again once back (``seats``: (seat number, away))."""
    if actor.kind != "live":
        return
    changes: list[tuple[int, str]] = []
    for number, away in seats:
        user_id = actor.seats[number].user_id
        if user_id is not None:
            changes.append((user_id, PresenceStatus.RECONNECTING if away else PresenceStatus.PLAYING))
    await _statuses(actor, changes)
