"""The lobby's part of the socket: its topic, the heartbeat and the public chat.

A chat line is reported with `moderation.report` (to the administrators' desk), like every report.

Registered in the command registry (`amigos.web.realtime.commands`) when the lobby app is ready, so
the socket itself knows nothing about chat or presence: it routes a command by its type to the
handler of the feature that owns it.

Chat refusals that need no database (empty, too long, too many lines) are decided here before the
session is touched or anything is written: a flood of refused lines costs no commit at all. The
flood rule is the one every chat and report shares (`amigos.web.realtime.flood_rule`): counted per
player in this process first, then on the stored lines in `chat.post`, across processes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby import chat, presence
from amigos.web.lobby.feed import TOPIC as LOBBY
from amigos.web.lobby.feed import get_lobby_feed
from amigos.web.realtime import flood_rule as flood
from amigos.web.realtime import muting
from amigos.web.realtime.commands import CommandError, Connection, command, heard, on_open
from amigos.web.realtime.hub import Hub, get_hub

log = logging.getLogger("amigos.lobby")

# A reader who muted a player gets neither their new lines nor their lines in the history.
muting.authored("chat.message")
muting.authored("chat.history", lines="messages")


def _post_chat(user_id: int, text: str) -> chat.ChatLine:
    return chat.post(User.objects.get(pk=user_id), text, timezone.now())


def _heartbeats(user_ids: set[int]) -> None:
    presence.heartbeats(user_ids, timezone.now())


def _history() -> list[dict[str, object]]:
    return [line.as_payload() for line in chat.recent()]


db_post_chat = database_sync_to_async(_post_chat)
db_heartbeats = database_sync_to_async(_heartbeats)

# Heartbeats of this process are written together at most this often.
HEARTBEAT_FLUSH_SECONDS = 1.0


class Heartbeats:
    """The heartbeats of one process's sockets, written in one statement a second.

    A heartbeat per socket every period is most of the database's work with thousands online; the
    presence only needs `last_seen` within the period, so the heartbeat is answered at once and
    written with the others. A socket signed out before the write is left out, so a heartbeat
    already on its way never brings back the presence of a player who just signed out.
    """

    def __init__(self) -> None:
        self._due: dict[int, Connection] = {}
        self._task: asyncio.Task[None] | None = None

    def beat(self, connection: Connection) -> None:
        self._due[id(connection)] = connection
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._flush(), name="amigos-heartbeats")

    async def _flush(self) -> None:
        while self._due:
            await asyncio.sleep(HEARTBEAT_FLUSH_SECONDS)
            due, self._due = self._due, {}
            user_ids = set()
            for connection in due.values():
                try:
                    user_ids.add(connection.user_id)
                except CommandError:  # signed out meanwhile
                    continue
            try:
                await db_heartbeats(user_ids)
            except Exception:
                log.exception("could not write %d heartbeats", len(user_ids))


def heartbeats_of_this_process() -> Heartbeats:
    hub = get_hub()
    batch = hub.features.get("heartbeats")
    if not isinstance(batch, Heartbeats):
        batch = Heartbeats()
        hub.features["heartbeats"] = batch
    return batch


db_history = database_sync_to_async(_history)


@on_open
async def lobby_opened(connection: Connection) -> None:
    """A page that shows the meeting room gets the online list and the chat's latest lines, and
    then their changes. Other pages (a table, an event) say so when they connect (`?lobby=0`): with
    thousands of players at tables, sending each table page the whole online list and every change
    of it was most of the server's traffic, for nothing it shows. Every page still counts for
    presence through its heartbeats."""
    if not connection.wants_lobby:
        return
    feed = get_lobby_feed()
    feed.hub.on_resync("chat.history", lambda: resend_history(feed.hub))
    await connection.join(LOBBY)
    connection.push("presence", await get_lobby_feed().current())
    connection.push("chat.history", {"messages": await db_history()})


async def resend_history(hub: Hub) -> None:
    """After the bus lost messages: the chat's latest lines again to every lobby socket of this
    process, read once for all of them (lines posted elsewhere in the gap never arrived here).
    Each socket leaves out the lines of the players its reader muted, as at connection."""
    if not hub.has_local(LOBBY):
        return
    payload = {"messages": await db_history()}
    for receiver in hub.local(LOBBY):
        receiver.push("chat.history", payload)


@command("heartbeat", activity=False)
async def heartbeat(connection: Connection, payload: dict[str, Any]) -> None:
    """Keeps the player in the online list; not an action on the idle clock."""
    connection.user_id  # noqa: B018  (refuses a socket that is not signed in)
    heartbeats_of_this_process().beat(connection)
    await heard(connection)


@command("chat.send")
async def chat_send(connection: Connection, payload: dict[str, Any]) -> dict[str, Any] | None:
    text = payload.get("text")
    if not isinstance(text, str):
        raise CommandError("bad_payload", '"text" must be a string')
    try:
        chat.check_text(text)
    except chat.ChatRefused as refusal:
        raise CommandError(refusal.code, refusal.message) from None
    flood.spend(flood.Budget.LOBBY_CHAT, connection.user_id)
    if not await connection.activity():
        return None
    try:
        line = await db_post_chat(connection.user_id, text)
    except chat.ChatRefused as refusal:
        raise CommandError(refusal.code, refusal.message) from None
    await get_lobby_feed().hub.publish(LOBBY, "chat.message", line.as_payload())
    return {"message_id": line.id}
