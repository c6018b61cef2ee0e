"""The hub subscribes each topic on its own: one topic's subscription does not wait for another's.

On Redis a subscription waits for the server's confirmation. With one lock for the whole hub,
every socket's join and leave queued behind every other topic's round trip, and a thousand tables'
sockets joining across hosts waited for each other one by one (issue 40). Here the bus's
subscriptions are held open until the test lets them through, so the order is certain.
"""

from __future__ import annotations

import asyncio
from typing import Any

from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub

WAIT = 10.0


class HeldBus(InMemoryBus):
    """An in-memory bus whose subscriptions and unsubscriptions each wait to be let through, as a
    Redis subscription waits for its confirmation; it records them in order."""

    def __init__(self) -> None:
        super().__init__()
        self.gates: dict[str, asyncio.Event] = {}
        self.done: list[str] = []

    def gate(self, topic: str) -> asyncio.Event:
        return self.gates.setdefault(topic, asyncio.Event())

    async def _listen(self, topic: str) -> None:
        await self.gate(topic).wait()
        self.done.append(f"+{topic}")

    async def _unlisten(self, topic: str) -> None:
        self.done.append(f"-{topic}")


class Receiver:
    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.got.append((kind, payload))


async def test_a_topic_is_subscribed_while_another_topic_waits_for_its_confirmation() -> None:
    bus = HeldBus()
    hub = Hub(bus)
    slow = asyncio.create_task(hub.join("a", Receiver()))
    await asyncio.sleep(0)
    bus.gate("b").set()
    # Before: "b" waited for the hub's one lock, which "a" held until its confirmation.
    await asyncio.wait_for(hub.join("b", Receiver()), WAIT)
    assert not slow.done() and bus.done == ["+b"]
    bus.gate("a").set()
    await asyncio.wait_for(slow, WAIT)
    assert bus.done == ["+b", "+a"]


async def test_the_same_topic_is_subscribed_once_and_every_joiner_waits_for_it() -> None:
    bus = HeldBus()
    hub = Hub(bus)
    first = asyncio.create_task(hub.join("a", Receiver()))
    second = asyncio.create_task(hub.join("a", Receiver()))
    await asyncio.sleep(0.05)
    assert not first.done() and not second.done()  # neither may return before the confirmation
    bus.gate("a").set()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    assert bus.done == ["+a"]


async def test_leaving_while_the_subscription_is_under_way_undoes_it_once_made() -> None:
    bus = HeldBus()
    hub = Hub(bus)
    receiver = Receiver()
    joining = asyncio.create_task(hub.join("a", receiver))
    await asyncio.sleep(0)
    leaving = asyncio.create_task(hub.leave("a", receiver))
    await asyncio.sleep(0.05)
    bus.gate("a").set()
    await asyncio.wait_for(asyncio.gather(joining, leaving), WAIT)
    assert bus.done == ["+a", "-a"]  # not left subscribed with nobody listening
    bus.gate("a").clear()
    again = asyncio.create_task(hub.join("a", receiver))
    await asyncio.sleep(0.05)
    assert not again.done()  # subscribed anew, not taken for still subscribed
    bus.gate("a").set()
    await asyncio.wait_for(again, WAIT)
    await hub.publish("a", "x", {"n": 1})
    assert receiver.got == [("x", {"n": 1})]


async def test_a_topic_others_still_listen_to_stays_subscribed() -> None:
    bus = HeldBus()
    bus.gate("a").set()
    hub = Hub(bus)
    one, two = Receiver(), Receiver()
    await hub.join("a", one)
    await hub.join("a", two)
    await hub.leave("a", one)
    assert bus.done == ["+a"]
    await hub.leave("a", two)
    assert bus.done == ["+a", "-a"]
