"""Versioned topics: numbered messages, so a client that reconnects gets what it missed.

The bus keeps nothing (Redis pub/sub forgets a message once delivered, and a process that was
disconnected misses it for good), and `seq` numbers envelopes per socket only. A feature whose
clients must not miss anything numbers its messages per topic: the publisher attaches a `version`
that only grows (the live tables use their log's numbers; the chat could use line ids), every
process keeps the last few messages of the topics its sockets listen to, and a socket that joins
saying `since` (the last version it saw) gets the messages after it, or, when they are no longer
kept here, a snapshot from the feature, which knows its own state best.

After the bus lost messages (`Hub.on_resync`) what a process kept may have a hole it cannot see
(versions need not follow one another), so it forgets them all: until new ones come, a socket
that joins gets the snapshot.

A process keeps a topic's messages only while it may still be asked for them: while one of its
sockets listens to the topic, and after the last one went for at least half of `IDLE_SECONDS`
(long enough for a page that lost its connection to come back: a seat's reconnection window is
five minutes). Whether a socket still listens is looked at every half of `IDLE_SECONDS`, and a
topic nobody was seen listening to for `IDLE_SECONDS` is let go (`Hub.unobserve`: its
subscription too, when nothing else here listens): a socket joining later gets the snapshot,
which is always right. Without this every topic a process's sockets ever joined stayed observed,
and subscribed on the bus, for the process's life.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from amigos.web.realtime.commands import Connection
from amigos.web.realtime.hub import Hub

# Messages kept per topic in each process for clients that come back.
KEEP = 256
# How long a topic no socket here was seen listening to keeps its messages (see the module's
# docstring: a topic is kept between a half and one and a half times this after its last socket).
IDLE_SECONDS = 600.0

Snapshot = Callable[[], Awaitable[tuple[str, dict[str, Any]]]]


class Replay:
    """The recent messages of one topic in this process, by version."""

    def __init__(self, keep: int = KEEP) -> None:
        self.messages: deque[tuple[int, str, dict[str, Any]]] = deque(maxlen=keep)

    def record(self, kind: str, payload: dict[str, Any]) -> None:
        version = payload.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            return
        if not self.messages or version > self.messages[-1][0]:
            self.messages.append((version, kind, payload))

    @property
    def last(self) -> int | None:
        return self.messages[-1][0] if self.messages else None

    def after(self, since: int) -> list[tuple[str, dict[str, Any]]] | None:
        """The messages after version `since`, in order; None when some of them are no longer kept
        (or were never seen here), so the caller must send a snapshot instead."""
        if not self.messages:
            return None
        if since >= self.messages[-1][0]:
            return []
        if since + 1 < self.messages[0][0]:
            return None
        return [(kind, payload) for version, kind, payload in self.messages if version > since]


class VersionedTopics:
    """The replay buffers of one hub (one process). ``clock``: monotonic seconds (tests pass a
    fake one)."""

    def __init__(
        self,
        hub: Hub,
        keep: int = KEEP,
        *,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hub = hub
        self.keep = keep
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.replays: dict[str, Replay] = {}
        # The last moment a socket here was seen listening to each kept topic.
        self._listened: dict[str, float] = {}
        self._next_sweep = clock() + idle_seconds / 2
        hub.on_resync("versioned", self._forget)

    async def _forget(self) -> None:
        """The bus lost messages: what is kept may miss some, so none of it is handed out."""
        for replay in self.replays.values():
            replay.messages.clear()

    async def _replay(self, topic: str) -> Replay:
        replay = self.replays.get(topic)
        if replay is None:
            replay = self.replays[topic] = Replay(self.keep)
            await self.hub.observe(topic, replay.record)
        return replay

    async def sweep(self) -> None:
        """Let go of the topics no socket here was seen listening to for `idle_seconds`. Run at
        most once every half of `idle_seconds` by `join` and `publish`, so its cost (one look at
        each kept topic) is spread thin; callable directly too."""
        now = self.clock()
        self._next_sweep = now + self.idle_seconds / 2
        for topic in list(self.replays):
            if self.hub.has_local(topic):
                self._listened[topic] = now
            elif now - self._listened.get(topic, now) >= self.idle_seconds:
                replay = self.replays.pop(topic)
                self._listened.pop(topic, None)
                await self.hub.unobserve(topic, replay.record)

    async def _maybe_sweep(self) -> None:
        if self.clock() >= self._next_sweep:
            await self.sweep()

    async def publish(self, topic: str, kind: str, payload: dict[str, Any], *, version: int) -> None:
        """Publish `payload` with its version (the caller guarantees versions grow per topic)."""
        await self.hub.publish(topic, kind, {**payload, "version": version})
        await self._maybe_sweep()

    async def join(self, connection: Connection, topic: str, since: int | None, snapshot: Snapshot) -> None:
        """Subscribe `connection` and bring it up to date: the missed messages when this process
        still has them all, otherwise the feature's snapshot (also when `since` is None)."""
        await self._maybe_sweep()
        replay = await self._replay(topic)
        await connection.join(topic)
        self._listened[topic] = self.clock()
        missed = replay.after(since) if since is not None else None
        if missed is None:
            kind, payload = await snapshot()
            connection.push(kind, payload)
            return
        for kind, payload in missed:
            connection.push(kind, payload)


def versioned_topics(hub: Hub) -> VersionedTopics:
    topics = hub.features.get("versioned")
    if not isinstance(topics, VersionedTopics):
        topics = VersionedTopics(hub)
        hub.features["versioned"] = topics
    return topics
