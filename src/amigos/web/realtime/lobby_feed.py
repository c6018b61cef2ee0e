"""The lobby's live feed in one process: the online list and the chat, pushed to local sockets.

Any process that sees presence change (a socket opens or closes) says so on the bus with an internal
"_presence.changed"; every process then recomputes the list from the database and pushes it to its
own lobby sockets if it differs from what they last got. A periodic recomputation (once per
heartbeat period) catches players whose heartbeats stopped without a goodbye.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from amigos.web.lobby import presence
from amigos.web.realtime.hub import Hub, Receiver, get_hub

TOPIC = "lobby"
PRESENCE_CHANGED = "_presence.changed"


def _snapshot() -> list[dict[str, object]]:
    return [player.as_payload() for player in presence.online_players(timezone.now())]


snapshot = database_sync_to_async(_snapshot)


class LobbyFeed:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.last: list[dict[str, object]] | None = None
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._observing = False

    async def attach(self, receiver: Receiver) -> None:
        if not self._observing:
            self._observing = True
            await self.hub.observe(TOPIC, self._observe)
        await self.hub.join(TOPIC, receiver)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="amigos-lobby-feed")
        await self.announce()

    async def detach(self, receiver: Receiver) -> None:
        await self.hub.leave(TOPIC, receiver)
        await self.announce()

    async def announce(self) -> None:
        await self.hub.publish(TOPIC, PRESENCE_CHANGED, {})

    def _observe(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == PRESENCE_CHANGED:
            self._dirty.set()

    async def _run(self) -> None:
        while self.hub.local(TOPIC):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), timeout=settings.AMIGOS_HEARTBEAT_SECONDS)
            self._dirty.clear()
            players = await snapshot()
            if players != self.last:
                self.last = players
                self.hub.deliver_local(TOPIC, "presence", {"players": players})
        self.last = None


def get_lobby_feed() -> LobbyFeed:
    hub = get_hub()
    feed = hub.features.get(TOPIC)
    if not isinstance(feed, LobbyFeed):
        feed = LobbyFeed(hub)
        hub.features[TOPIC] = feed
    return feed
