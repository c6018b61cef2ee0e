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


class FakeClock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_topic_nobody_listens_to_is_let_go_after_its_grace() -> None:
    """A process keeps a topic's messages while a socket here listens and for a grace after the
    last one went (a page coming back gets what it missed); then it stops observing the topic and
    its bus subscription is undone, instead of keeping both for the process's life."""
    clock = FakeClock()
    hub = Hub(InMemoryBus())
    topics = VersionedTopics(hub, keep=10, idle_seconds=100, clock=clock)
    kept, left = FakeConnection(hub), FakeConnection(hub)
    await topics.join(kept, "table:1:watch", None, snapshot)
    await topics.join(left, "table:2:watch", None, snapshot)
    await topics.publish("table:2:watch", "feature.event", {}, version=1)
    await left.leave("table:2:watch")

    clock.now += 50  # a sweep sees nobody on table 2, but its grace is not over
    await topics.sweep()
    assert set(topics.replays) == {"table:1:watch", "table:2:watch"}
    back = FakeConnection(hub)
    await topics.join(back, "table:2:watch", 0, snapshot)
    assert back.got == [("feature.event", {"version": 1})]  # still what it missed
    await back.leave("table:2:watch")

    clock.now += 150  # long after anyone listened to table 2; table 1 still has its socket
    await topics.publish("table:1:watch", "feature.event", {}, version=1)  # sweeps on the way
    assert set(topics.replays) == {"table:1:watch"}
    assert not hub._observers.get("table:2:watch")
    assert "table:2:watch" not in hub._subscriptions
    assert "table:1:watch" in hub._subscriptions

    late = FakeConnection(hub)  # joining a topic let go: the snapshot, and it is kept again
    await topics.join(late, "table:2:watch", 0, snapshot)
    assert late.got == [("table.snapshot", {"version": 99})]
    assert "table:2:watch" in topics.replays and "table:2:watch" in hub._subscriptions
    await hub.close()


async def test_unobserving_keeps_a_topic_a_socket_still_listens_to() -> None:
    hub = Hub(InMemoryBus())
    seen: list[str] = []
    socket = FakeConnection(hub)
    await socket.join("news")
    await hub.observe("news", lambda kind, payload: seen.append(kind))
    await hub.unobserve("news", lambda kind, payload: None)  # not an observer: nothing happens
    await hub.publish("news", "a", {})
    await hub.unobserve("news", hub._observers["news"][0])
    await hub.publish("news", "b", {})
    assert seen == ["a"]
    assert "news" in hub._subscriptions  # the socket still listens
    assert [kind for kind, _ in socket.got] == ["a", "b"]
    await socket.leave("news")
    assert "news" not in hub._subscriptions
    await hub.close()
