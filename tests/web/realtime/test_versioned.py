"""Versioned topics: a socket that comes back with `since` gets exactly what it missed, or a
snapshot when this process no longer has it all."""

from __future__ import annotations

import asyncio
from typing import Any

from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub
from amigos.web.realtime.versioned import Replay, VersionedTopics


class FakeConnection:
    """Just enough of a socket: what it was sent and which topics it joined."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.got: list[tuple[str, dict[str, Any]]] = []

    @property
    def user_id(self) -> int:
        return 1

    @property
    def display_name(self) -> str:
        return "Ana"

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.got.append((kind, payload))

    def hold_frames(self) -> None:
        """Nothing to hold: what is pushed is kept at once."""

    async def join(self, topic: str) -> None:
        await self.hub.join(topic, self)

    async def leave(self, topic: str) -> None:
        await self.hub.leave(topic, self)

    async def activity(self) -> bool:
        return True


async def snapshot() -> tuple[str, dict[str, Any]]:
    return "table.snapshot", {"version": 99}


async def test_a_returning_socket_gets_what_it_missed_in_order() -> None:
    hub = Hub(InMemoryBus())
    topics = VersionedTopics(hub, keep=5)
    first = FakeConnection(hub)
    await topics.join(first, "table:1:watch", None, snapshot)
    assert first.got == [("table.snapshot", {"version": 99})]  # no `since`: a snapshot
    for version in range(1, 5):
        await topics.publish("table:1:watch", "feature.event", {"n": version}, version=version)
    assert [p["version"] for _, p in first.got[1:]] == [1, 2, 3, 4]

    back = FakeConnection(hub)
    await topics.join(back, "table:1:watch", 2, snapshot)
    assert back.got == [("feature.event", {"n": 3, "version": 3}), ("feature.event", {"n": 4, "version": 4})]
    current = FakeConnection(hub)
    await topics.join(current, "table:1:watch", 4, snapshot)
    assert current.got == []  # up to date: nothing to send

    for version in range(5, 12):  # more than are kept
        await topics.publish("table:1:watch", "feature.event", {"n": version}, version=version)
    late = FakeConnection(hub)
    await topics.join(late, "table:1:watch", 3, snapshot)
    assert late.got == [("table.snapshot", {"version": 99})]
    await hub.close()


def test_the_replay_never_goes_back_and_knows_its_gaps() -> None:
    replay = Replay(keep=3)
    assert replay.after(0) is None  # never saw anything here
    for version in (4, 5, 5, 3, 6):  # a repeated or older version is ignored
        replay.record("x", {"version": version})
    assert [v for v, _, _ in replay.messages] == [4, 5, 6]
    assert replay.after(2) is None  # 3 is missing here
    assert [p["version"] for _, p in replay.after(3) or []] == [4, 5, 6]
    assert replay.after(6) == [] and replay.after(60) == []
    replay.record("x", {"version": True})  # not a number
    replay.record("x", {})
    assert replay.last == 6


async def test_after_the_bus_lost_messages_a_returning_socket_gets_the_snapshot() -> None:
    """What this process kept may have a hole where the gap was (here: 3 never arrived), which it
    cannot see: it hands out nothing it kept from before and sends the snapshot instead."""
    hub = Hub(InMemoryBus())
    topics = VersionedTopics(hub, keep=10)
    await topics.join(FakeConnection(hub), "table:1:watch", None, snapshot)
    for version in (1, 2):
        await topics.publish("table:1:watch", "feature.event", {}, version=version)
    await hub.resync()  # the bus came back; 3 was published elsewhere meanwhile
    await topics.publish("table:1:watch", "feature.event", {}, version=4)
    back = FakeConnection(hub)
    await topics.join(back, "table:1:watch", 1, snapshot)
    assert back.got == [("table.snapshot", {"version": 99})]
    await hub.close()
