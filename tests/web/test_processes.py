"""Two servers (two event loops, two hubs, as two processes would have) share the lobby through Redis."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async

from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub
from amigos.web.realtime.redis_bus import RedisBus
from tests.web.conftest import ServerThread, SignedIn, in_ci

REDIS_URL = os.environ.get("AMIGOS_REDIS_URL") or "redis://127.0.0.1:6379/15"
WAIT = 15.0


def require_redis() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as error:
        if in_ci():
            pytest.fail(f"Redis is required under CI but not reachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis not reachable at {REDIS_URL}")


class Receiver:
    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.got.append((kind, payload))


async def eventually(check: Callable[[], bool]) -> None:
    async def loop() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), WAIT)


async def test_hub_forwards_public_messages_and_keeps_internal_ones() -> None:
    hub = Hub(InMemoryBus())
    socket, seen = Receiver(), []
    await hub.join("lobby", socket)
    await hub.observe("lobby", lambda kind, payload: seen.append(kind))
    await hub.publish("lobby", "chat.message", {"text": "hola"})
    await hub.publish("lobby", "_presence.changed", {})
    assert socket.got == [("chat.message", {"text": "hola"})]
    assert seen == ["chat.message", "_presence.changed"]
    await hub.leave("lobby", socket)
    await hub.publish("lobby", "chat.message", {"text": "adiós"})
    assert len(socket.got) == 1
    await hub.close()


@pytest.mark.redis
async def test_two_hubs_share_a_topic_through_redis(bus_namespace: str) -> None:
    require_redis()
    buses = [RedisBus(REDIS_URL, namespace=bus_namespace, max_connections=4) for _ in range(2)]
    first, second = Hub(buses[0]), Hub(buses[1])
    here, there = Receiver(), Receiver()
    await first.join("lobby", here)
    await second.join("lobby", there)
    for bus in buses:
        await bus.ping()  # a round trip: the subscriptions are in place
    await second.publish("lobby", "chat.message", {"text": "desde el otro proceso"})
    await eventually(lambda: bool(here.got) and bool(there.got))
    assert here.got == there.got == [("chat.message", {"text": "desde el otro proceso"})]
    await first.close()
    await second.close()


@pytest.fixture
def two_servers(
    transactional_db: None, bus_namespace: str, settings: Any
) -> Iterator[tuple[ServerThread, ServerThread]]:
    require_redis()
    settings.REDIS_URL = REDIS_URL
    servers = (ServerThread(), ServerThread())
    for server in servers:
        server.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_players_on_different_servers_see_each_other_and_chat(
    two_servers: tuple[ServerThread, ServerThread], sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_HEARTBEAT_SECONDS = 5
    first_server, second_server = two_servers
    ana = await sync_to_async(sign_in)("Ana")
    beto = await sync_to_async(sign_in)("Beto")
    inbox: dict[str, list[dict[str, Any]]] = {"Ana": [], "Beto": []}

    async def open_socket(server: ServerThread, who: SignedIn) -> Any:
        return await websockets.connect(
            server.ws_url, additional_headers={"Origin": server.url, "Cookie": who.cookie_header()}
        )

    async def until(
        name: str, connection: Any, predicate: Callable[[dict[str, Any]], bool]
    ) -> dict[str, Any]:
        async def loop() -> dict[str, Any]:
            for envelope in inbox[name]:
                if predicate(envelope):
                    return envelope
            while True:
                envelope = json.loads(await connection.recv())
                inbox[name].append(envelope)
                if predicate(envelope):
                    return envelope

        return await asyncio.wait_for(loop(), WAIT)

    ana_socket = await open_socket(first_server, ana)
    beto_socket = await open_socket(second_server, beto)

    def lists_both(envelope: dict[str, Any]) -> bool:
        return envelope["type"] == "presence" and len(envelope["payload"]["players"]) == 2

    await until("Ana", ana_socket, lists_both)  # Beto joined on the other server
    await beto_socket.send(json.dumps({"type": "chat.send", "id": 1, "payload": {"text": "¿una mano?"}}))
    line = await until("Ana", ana_socket, lambda e: e["type"] == "chat.message")
    assert line["payload"]["author"] == "Beto" and line["payload"]["text"] == "¿una mano?"
    await ana_socket.close()
    await beto_socket.close()
