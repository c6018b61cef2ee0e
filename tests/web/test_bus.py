"""The bus contract, run against both implementations; Redis with two buses standing for two processes."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from amigos.web.realtime.bus import Bus, InMemoryBus
from amigos.web.realtime.redis_bus import RedisBus
from tests.web.conftest import in_ci

REDIS_URL = os.environ.get("AMIGOS_REDIS_URL") or "redis://127.0.0.1:6379/15"
WAIT = 10.0


async def redis_or_skip(namespace: str) -> list[RedisBus]:
    """Two Redis buses (two 'processes'). Missing Redis fails under CI and skips elsewhere."""
    first = RedisBus(REDIS_URL, namespace=namespace, max_connections=4)
    try:
        await first.ping()
    except Exception as error:
        await first.close()
        if in_ci():
            pytest.fail(f"Redis is required under CI but not reachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis not reachable at {REDIS_URL}")
    return [first, RedisBus(REDIS_URL, namespace=namespace, max_connections=4)]


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def buses(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Bus, Bus]]:
    """A publisher bus and a subscriber bus: the same object in memory, two connections on Redis."""
    if request.param == "memory":
        bus = InMemoryBus()
        yield bus, bus
        await bus.close()
        return
    first, second = await redis_or_skip(f"test-{uuid.uuid4().hex}")
    yield first, second
    await first.close()
    await second.close()


class Inbox:
    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []
        self.arrived = asyncio.Event()

    def __call__(self, topic: str, text: str) -> None:
        self.items.append((topic, json.loads(text)))
        self.arrived.set()

    async def wait_for(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        async def until() -> None:
            while len(self.items) < count:
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(until(), WAIT)
        return self.items


async def settle(bus: Bus, publisher: Bus | None = None) -> None:
    """Wait until `bus` demonstrably hears its topics: a probe published (through `publisher`, by
    default the bus itself) on a fresh topic comes back. On Redis this proves the reader is running
    and every earlier subscription is confirmed (Redis answers a connection's commands in order)."""
    probe, arrived = f"_settle.{uuid.uuid4().hex}", asyncio.Event()
    subscription = await bus.subscribe(probe, lambda topic, message: arrived.set())
    await (publisher or bus).publish(probe, json.dumps({"type": "_probe", "payload": {}}))
    await asyncio.wait_for(arrived.wait(), WAIT)
    await subscription.cancel()


async def test_subscribers_receive_in_publication_order(buses: tuple[Bus, Bus]) -> None:
    publisher, subscriber = buses
    inbox = Inbox()
    await subscriber.subscribe("lobby", inbox)
    await settle(subscriber, publisher)
    for n in range(20):
        await publisher.publish("lobby", json.dumps({"type": "chat.message", "payload": {"n": n}}))
    items = await inbox.wait_for(20)
    assert [message["payload"]["n"] for _, message in items] == list(range(20))
    assert {topic for topic, _ in items} == {"lobby"}


async def test_messages_published_together_arrive_in_order_on_each_topic(buses: tuple[Bus, Bus]) -> None:
    """`publish_messages` (a play's five audiences) keeps each topic's order."""
    publisher, subscriber = buses
    seats, watchers = Inbox(), Inbox()
    await subscriber.subscribe("table.1.seat.0", seats)
    await subscriber.subscribe("table.1.watch", watchers)
    await settle(subscriber, publisher)
    for n in range(3):
        await publisher.publish_messages(
            [
                ("table.1.seat.0", "table.events", json.dumps({"n": n})),
                ("table.1.watch", "table.events", json.dumps({"n": n})),
            ]
        )
    await publisher.publish_messages([("table.1.watch", "table.events", json.dumps({"n": 3}))])
    assert [message["payload"]["n"] for _, message in await seats.wait_for(3)] == [0, 1, 2]
    assert [message["payload"]["n"] for _, message in await watchers.wait_for(4)] == [0, 1, 2, 3]
    assert {message["type"] for _, message in watchers.items} == {"table.events"}


async def test_a_process_gets_its_own_messages_at_once_and_only_once(buses: tuple[Bus, Bus]) -> None:
    """This process's subscribers have a published message before `publish_messages` returns (a
    player on the table's own process gets a play's events before its acknowledgement, certainly),
    and the copy that comes back through Redis is dropped; another process gets every message once,
    in order, without the sender's tag."""
    bus, second = buses
    other = None if second is bus else second  # in memory there is no other process
    mine, theirs = Inbox(), Inbox()
    await bus.subscribe("table.1.seat.0", mine)
    if other is not None:
        await other.subscribe("table.1.seat.0", theirs)
        await settle(other, bus)
    await settle(bus)
    for n in range(5):
        await bus.publish_messages(
            [("table.1.seat.0", "table.events", json.dumps({"n": n})), ("table.1.watch", "x", "{}")]
        )
        assert len(mine.items) == n + 1  # no await between: delivered here, not by the reader
    await bus.publish_message("table.1.seat.0", "table.events", json.dumps({"n": 5}))
    assert len(mine.items) == 6
    if other is not None:
        got = await theirs.wait_for(6)
        assert [message["payload"]["n"] for _, message in got] == list(range(6))
        # Whatever `bus` sent has come back to it through Redis by now (one connection, in order):
        # `other`'s own probe, sent after, has reached `bus`'s reader.
        await settle(bus, other)
    assert [message["payload"]["n"] for _, message in mine.items] == list(range(6))


@pytest.mark.redis
async def test_text_without_a_sender_s_tag_is_read_as_it_is() -> None:
    """A message written by hand (`redis-cli PUBLISH`) reaches the subscribers as it is, and one with
    another process's tag without that tag."""
    bus, other = await redis_or_skip(f"test-{uuid.uuid4().hex}")
    try:
        inbox = Inbox()
        await bus.subscribe("lobby", inbox)
        await settle(bus, other)
        assert isinstance(other, RedisBus)
        await other._redis.publish(other._channel("lobby"), json.dumps({"type": "hand", "payload": {}}))
        await other._redis.publish(other._channel("lobby"), '@abc:{"type":"tagged","payload":{}}')
        got = await inbox.wait_for(2)
        assert [message["type"] for _, message in got] == ["hand", "tagged"]
    finally:
        await bus.close()
        await other.close()


@pytest.mark.redis
async def test_publications_made_together_share_a_pipeline_and_a_failed_one_fails_its_waiters() -> None:
    """One sender takes everything waiting as one pipeline; when that fails, each of its waiters
    gets the error (the hub then retries them) and the sender goes on with the next."""
    bus, other = await redis_or_skip(f"test-{uuid.uuid4().hex}")
    assert isinstance(bus, RedisBus)
    try:
        inbox = Inbox()
        await other.subscribe("lobby", inbox)
        await settle(other, bus)
        real = bus._redis.pipeline
        made: list[Any] = []
        failing = [True]

        def pipeline(**options: Any) -> Any:
            pipe = real(**options)
            made.append(pipe)
            if failing:
                failing.pop()

                async def broken(*args: Any, **kwargs: Any) -> Any:
                    raise ConnectionError("Redis went away")

                pipe.execute = broken
            return pipe

        bus._redis.pipeline = pipeline  # type: ignore[method-assign]
        text = json.dumps({"type": "lost", "payload": {}})
        first = await asyncio.gather(
            bus.send_elsewhere("lobby", text), bus.send_elsewhere("lobby", text), return_exceptions=True
        )
        assert [type(outcome) for outcome in first] == [ConnectionError, ConnectionError]
        assert len(made) == 1  # both waited on the same pipeline
        kept = [json.dumps({"type": "kept", "payload": {"n": n}}) for n in range(3)]
        await asyncio.gather(*(bus.send_elsewhere("lobby", text) for text in kept))
        got = await inbox.wait_for(3)
        assert [message["payload"]["n"] for _, message in got] == [0, 1, 2]
        assert len(made) == 2
    finally:
        await bus.close()
        await other.close()


async def test_topics_are_separate_and_every_subscriber_gets_a_copy(buses: tuple[Bus, Bus]) -> None:
    publisher, subscriber = buses
    first, second, other = Inbox(), Inbox(), Inbox()
    await subscriber.subscribe("lobby", first)
    await subscriber.subscribe("lobby", second)
    await subscriber.subscribe("table:1", other)
    await settle(subscriber, publisher)
    await publisher.publish("lobby", json.dumps({"type": "x", "payload": {"list": [1, 2]}}))
    await publisher.publish("table:1", json.dumps({"type": "y", "payload": {}}))
    ((_, got_first),) = await first.wait_for(1)
    ((_, got_second),) = await second.wait_for(1)
    assert got_first == got_second == {"type": "x", "payload": {"list": [1, 2]}}
    assert [message["type"] for _, message in await other.wait_for(1)] == ["y"]


async def test_a_cancelled_subscription_hears_nothing_more(buses: tuple[Bus, Bus]) -> None:
    publisher, subscriber = buses
    kept, dropped = Inbox(), Inbox()
    await subscriber.subscribe("lobby", kept)
    subscription = await subscriber.subscribe("lobby", dropped)
    await settle(subscriber, publisher)
    await subscription.cancel()
    await publisher.publish("lobby", json.dumps({"type": "after", "payload": {}}))
    await kept.wait_for(1)
    assert dropped.items == []


async def test_a_failing_handler_does_not_starve_the_others(buses: tuple[Bus, Bus]) -> None:
    publisher, subscriber = buses

    def broken(topic: str, text: str) -> None:
        raise RuntimeError("boom")

    inbox = Inbox()
    await subscriber.subscribe("lobby", broken)
    await subscriber.subscribe("lobby", inbox)
    await settle(subscriber, publisher)
    await publisher.publish("lobby", json.dumps({"type": "x", "payload": {}}))
    assert len(await inbox.wait_for(1)) == 1


@pytest.mark.redis
async def test_redis_pool_waits_instead_of_failing_under_a_burst() -> None:
    """More concurrent publishes than pooled connections: all succeed (the pool blocks, not raises)."""
    first, second = await redis_or_skip(f"test-{uuid.uuid4().hex}")
    inbox = Inbox()
    await second.subscribe("burst", inbox)
    await settle(second, first)
    await asyncio.gather(
        *(first.publish("burst", json.dumps({"type": "n", "payload": {"n": n}})) for n in range(200))
    )
    items = await inbox.wait_for(200)
    assert sorted(message["payload"]["n"] for _, message in items) == list(range(200))
    await first.close()
    await second.close()


def test_the_redis_bus_refuses_a_pool_too_small_to_work() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        RedisBus(REDIS_URL, max_connections=1)


def make_bus_for(settings: Any, redis_url: str) -> Callable[[], Bus]:
    from amigos.web.realtime.hub import make_bus

    settings.REDIS_URL = redis_url
    return make_bus


async def test_settings_choose_the_bus(settings: Any) -> None:
    assert isinstance(make_bus_for(settings, "")(), InMemoryBus)
    bus = make_bus_for(settings, REDIS_URL)()
    assert isinstance(bus, RedisBus)
    await bus.close()


async def test_missing_redis_fails_under_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.web.test_bus as module

    monkeypatch.setattr(module, "REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens on port 1
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        await redis_or_skip("unused")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        await redis_or_skip("unused")


async def test_settle_waits_for_a_bus_that_hears_nothing() -> None:
    """settle() must fail on a bus that never delivers, or it would prove nothing."""

    class Deaf(InMemoryBus):
        async def publish(self, topic: str, message: dict[str, Any]) -> None:
            return None

    import tests.web.test_bus as module

    original = module.WAIT
    module.WAIT = 0.2
    try:
        with pytest.raises(TimeoutError):
            await settle(Deaf())
    finally:
        module.WAIT = original
