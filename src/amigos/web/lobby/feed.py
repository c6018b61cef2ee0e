"""The lobby's online list in one process: the full list once per socket, then coalesced changes.

Pushing the whole list to every lobby socket at every join made the traffic grow with the cube of
the players online (400 players: 80,600 messages, 2.5 GB). Instead this feed keeps the list as it
last computed it; a new socket gets that list (`presence`, no database query per connection), and
every socket then gets only what changed (`presence.delta`: added, changed, removed), at most once
per `interval` seconds however many players come and go: changes in between are merged into one
message.

Any process that sees presence change (a socket opens or closes, a status changes) says so on the
bus with an internal "_presence.changed"; every process then recomputes the list from the database
(one query per interval, not per change or per socket) and sends the difference to its own lobby
sockets. A periodic recomputation (once per heartbeat period) catches players whose heartbeats
stopped without a goodbye, and resets the open-socket counters that no live socket stands behind.
After the bus lost messages (`Hub.on_resync`) the list is recomputed at once rather than at that
period: the "_presence.changed" of other processes in the gap never arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from amigos.web.lobby import presence
from amigos.web.realtime import presence_hooks
from amigos.web.realtime.hub import Hub, get_hub

log = logging.getLogger("amigos.realtime.lobby")

TOPIC = "lobby"
PRESENCE_CHANGED = "_presence.changed"
# At most one presence message per socket in this many seconds.
PRESENCE_INTERVAL = 1.0

Players = dict[int, dict[str, object]]


def _fetch() -> Players:
    return presence.by_id(presence.online_players(timezone.now()))


def _sweep(every_process_restarted: bool) -> None:
    presence.forget_dead_sockets(timezone.now(), every_process_restarted=every_process_restarted)


fetch = database_sync_to_async(_fetch)
sweep = database_sync_to_async(_sweep)


def ordered(players: Players) -> list[dict[str, object]]:
    """The list in display order (status, then sign-in time, then id)."""
    from amigos.web.lobby.models import STATUS_ORDER

    return sorted(
        players.values(),
        key=lambda p: (STATUS_ORDER.get(str(p["status"]), 99), str(p["signed_in_at"]), p["id"]),
    )


async def snapshot() -> list[dict[str, object]]:
    """The online list from the database now, in display order (for pages and tests)."""
    return ordered(await fetch())


class LobbyFeed:
    def __init__(self, hub: Hub, *, interval: float = PRESENCE_INTERVAL) -> None:
        self.hub = hub
        self.interval = interval
        self.players: Players | None = None
        self.version = 0
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._observing = False
        self._swept = False
        self._ready = asyncio.Lock()

    async def prepare(self) -> None:
        """Before this process's first socket counts itself: rebuild the counters a dead process
        left behind (once per process)."""
        async with self._ready:
            if not self._swept:
                await sweep(self._single_process())
                self._swept = True

    async def start(self) -> None:
        """Listen for changes, compute the list once and run the refresher (idempotent)."""
        await self.prepare()
        async with self._ready:
            if not self._observing:
                self._observing = True
                self.hub.on_resync(TOPIC, self._resync)
                await self.hub.observe(TOPIC, self._observe)
            if self.players is None:
                self.players = await fetch()
            if self._task is None or self._task.done():
                self._task = asyncio.get_running_loop().create_task(self._run(), name="amigos-lobby-feed")

    def _single_process(self) -> bool:
        from amigos.web.realtime.bus import InMemoryBus

        return isinstance(self.hub.bus, InMemoryBus)

    async def current(self) -> dict[str, Any]:
        """The full list for a socket that just joined, with the version the next delta follows."""
        await self.start()
        assert self.players is not None
        return {"players": ordered(self.players), "version": self.version}

    async def announce(self) -> None:
        """Say the list changed, to every process; never raises (a bus failure only delays others
        until their periodic refresh; this process refreshes anyway)."""
        self._dirty.set()
        try:
            await self.hub.publish(TOPIC, PRESENCE_CHANGED, {})
        except Exception:
            log.warning("could not announce a presence change on the bus", exc_info=True)

    def _observe(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == PRESENCE_CHANGED:
            self._dirty.set()

    async def _resync(self) -> None:
        """The bus lost messages: recompute the list now (the running refresher does it)."""
        self._dirty.set()

    async def refresh(self) -> None:
        """Recompute the list and send the difference to this process's lobby sockets."""
        fresh = await fetch()
        delta = presence.changes(self.players or {}, fresh)
        self.players = fresh
        if delta:
            self.version += 1
            self.hub.deliver_local(TOPIC, "presence.delta", {**delta.as_payload(), "version": self.version})

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last_sweep = loop.time()
        try:
            while self.hub.has_local(TOPIC):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._dirty.wait(), timeout=settings.AMIGOS_HEARTBEAT_SECONDS)
                self._dirty.clear()
                started = loop.time()
                if started - last_sweep >= settings.AMIGOS_HEARTBEAT_SECONDS:
                    last_sweep = started
                    await sweep(False)
                await self.refresh()
                # Coalesce: whatever changes during the interval goes out in the next single message.
                await asyncio.sleep(max(0.0, self.interval - (loop.time() - started)))
        finally:
            # Nobody listens here any more: the next socket starts from a fresh list.
            self.players = None


def get_lobby_feed(hub: Hub | None = None) -> LobbyFeed:
    hub = hub or get_hub()
    feed = hub.features.get(TOPIC)
    if not isinstance(feed, LobbyFeed):
        feed = LobbyFeed(hub)
        hub.features[TOPIC] = feed
    return feed


async def _prepare(hub: Hub) -> None:
    await get_lobby_feed(hub).prepare()


async def _announce(hub: Hub) -> None:
    await get_lobby_feed(hub).announce()


def register_presence() -> None:
    """Hand the socket layer the presence's side of a socket's life (`realtime.presence_hooks`):
    count and uncount sockets in `presence`, and rebuild and announce the online list here."""
    presence_hooks.register(
        presence_hooks.PresenceHooks(
            opened=presence.socket_opened,
            closed=presence.socket_closed,
            signed_out=presence.sign_out,
            prepare=_prepare,
            announce=_announce,
        )
    )
