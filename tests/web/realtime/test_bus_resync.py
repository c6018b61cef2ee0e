"""After the bus lost messages (a Redis restart), every process catches its sockets up at once.

Pub/sub keeps nothing for a subscriber that is away: table events another process published in the
gap never reach this process's sockets, and a client noticed the version gap only at the next event
of its table (none comes while the table waits for that client's own turn). Now the bus says when
it listens again; the hub then sends each of its sockets a `resync` (a table's page joins again with
`since` and gets what it missed) and has the lobby read its chat and online list again, once per
process. The Redis tests run our own redis-server on a free port, restarted at will, never the
machine's shared one."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby import chat, presence
from amigos.web.lobby import feed as lobby_feed
from amigos.web.lobby import socket as lobby_socket
from amigos.web.moderation import socket as moderation_socket
from amigos.web.moderation.models import Mute
from amigos.web.realtime import hub as hub_module
from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import RESYNC, Hub, get_hub
from amigos.web.realtime.redis_bus import RedisBus
from amigos.web.tables import services
from amigos.web.tables.models import LogRow
from tests.web.conftest import ServerThread, SignedIn
from tests.web.realtime.test_redis_restart import OwnRedis, own_redis  # noqa: F401  (the fixture)
from tests.web.tables.support import flat_events
from tests.web.test_socket import Peer, connect, of_type

WAIT = 20.0


class Receiver:
    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.got.append((kind, payload))


async def until(check: Callable[[], bool]) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), WAIT)


async def test_the_hub_tells_each_socket_once_and_runs_each_feature_catch_up_once() -> None:
    bus = InMemoryBus()
    hub = Hub(bus)
    lobby, table = Receiver(), Receiver()
    await hub.join("lobby", lobby)
    await hub.join("table:1:watch", table)
    await hub.join("table:1:chat", table)  # in two topics: told once all the same
    caught_up: list[str] = []

    async def catch_up() -> None:
        caught_up.append("lobby")

    hub.on_resync("lobby", catch_up)
    hub.on_resync("lobby", catch_up)  # registered twice: kept once
    bus._reconnected()  # what a Redis bus does when it listens again after a loss
    await until(lambda: bool(caught_up))
    assert lobby.got == [(RESYNC, {})]
    assert table.got == [(RESYNC, {})]
    assert caught_up == ["lobby"]
    await hub.close()


class LobbyPage(Receiver):
    """A lobby socket as `lobby_opened` sees it (a `Connection`), joined to the process's hub."""

    wants_lobby = True

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub

    async def join(self, topic: str) -> None:
        await self.hub.join(topic, self)


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_reads_its_chat_and_online_list_again_once_for_all_its_sockets(
    settings: Any, make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines posted and players arrived in the gap reach every lobby socket, for one read of each
    list however many sockets the process has (not a query per socket)."""
    settings.AMIGOS_HEARTBEAT_SECONDS = 600  # no periodic refresh would catch up in this test
    hub = get_hub()
    pages = [LobbyPage(hub) for _ in range(3)]
    for page in pages:
        await lobby_socket.lobby_opened(page)
    reads = {"chat": 0, "online": 0}
    history, online = lobby_socket.db_history, lobby_feed.fetch

    async def counted_history() -> list[dict[str, object]]:
        reads["chat"] += 1
        return await history()

    async def counted_online() -> Any:
        reads["online"] += 1
        return await online()

    monkeypatch.setattr(lobby_socket, "db_history", counted_history)
    monkeypatch.setattr(lobby_feed, "fetch", counted_online)
    await asyncio.sleep(0.1)  # the feed's first round is over: it waits for a change now
    reads.update(chat=0, online=0)

    def in_the_gap() -> None:
        # Done in another process while this one's bus was away: its notices never arrived here.
        eva = make_player("Eva")
        presence.socket_opened(eva, timezone.now())
        chat.post(eva, "¿hay alguien?", timezone.now())

    await sync_to_async(in_the_gap)()
    await hub.resync()
    for page in pages:
        await until(lambda page=page: any(kind == "presence.delta" for kind, _ in page.got))
        histories = [payload for kind, payload in page.got if kind == "chat.history"]
        assert [line["text"] for line in histories[-1]["messages"]] == ["¿hay alguien?"]
        delta = next(payload for kind, payload in page.got if kind == "presence.delta")
        assert [player["name"] for player in delta["added"]] == ["Eva"]
    assert reads == {"chat": 1, "online": 1}
    await hub.close()


@pytest.mark.django_db(transaction=True)
async def test_a_mute_made_elsewhere_in_the_gap_is_read_again_for_every_followed_player(
    make_player: Callable[..., User],
) -> None:
    ana, beto, carla = [await sync_to_async(make_player)(name) for name in ("Ana", "Beto", "Carla")]
    hub = get_hub()

    class Page:
        def __init__(self, user: User) -> None:
            self.user_id = user.pk

    for user in (ana, beto):
        await moderation_socket.load_mutes(Page(user))
    assert hub.mutes.of(ana.pk) == hub.mutes.of(beto.pk) == frozenset()
    # On another process, during the gap: its "_moderation.mutes" never reached this one.
    await sync_to_async(lambda: Mute.objects.create(owner=ana, muted=carla, created_at=timezone.now()))()
    await hub.resync()
    assert hub.mutes.of(ana.pk) == frozenset({carla.pk})
    assert hub.mutes.of(beto.pk) == frozenset()
    await hub.close()


@pytest.mark.redis
async def test_a_reconnected_subscriber_says_so_once_every_topic_is_heard_again(
    own_redis: OwnRedis,  # noqa: F811
) -> None:
    namespace = f"resync-{uuid.uuid4().hex}"
    publisher = RedisBus(own_redis.url, namespace=namespace, max_connections=4)
    subscriber = RedisBus(own_redis.url, namespace=namespace, max_connections=4)
    got: list[str] = []
    heard_at_reconnection: list[list[str]] = []
    reconnected = asyncio.Event()

    async def publish_at_once() -> None:
        # Published the moment the bus says it listens again: it must arrive, without a retry.
        # (What was heard is noted before: how soon the message comes back is Redis's business.)
        heard_at_reconnection.append(list(got))
        await publisher.publish("table:1:watch", json.dumps({"type": "x", "payload": {"n": 1}}))
        reconnected.set()

    tasks: set[asyncio.Task[None]] = set()
    subscriber.when_reconnected(lambda: tasks.add(asyncio.get_running_loop().create_task(publish_at_once())))
    await subscriber.subscribe("table:1:watch", lambda topic, text: got.append(text))
    own_redis.stop()
    own_redis.start()
    await asyncio.wait_for(reconnected.wait(), WAIT)
    await until(lambda: len(got) == 1)
    assert heard_at_reconnection == [[]]
    await publisher.close()
    await subscriber.close()


class Gate:
    """Holds a server's bus reader away from Redis (it reads nothing, so it does not reconnect)
    until opened: the subscriber of that process comes back later than the publisher of another,
    which is what lost the probe's events, made certain rather than left to the race."""

    def __init__(self, bus: RedisBus) -> None:
        self.open = threading.Event()
        self.read = bus._pubsub.get_message

    async def get_message(self, **options: Any) -> Any:
        while not self.open.is_set():
            await asyncio.sleep(0.02)
        return await self.read(**options)


def in_loop(server: ServerThread, work: Callable[[], Any]) -> Any:
    async def run() -> Any:
        return work()

    return asyncio.run_coroutine_threadsafe(run(), server.loop).result(10)


def last_version(peer: Peer) -> int:
    versions = [e["payload"]["version"] for e in peer.received if e["type"] == "table.snapshot"]
    versions += [event["version"] for e in peer.received for event in flat_events(e["type"], e["payload"])]
    return max(versions)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_socket_of_another_process_gets_the_events_and_chat_of_a_redis_outage_without_a_further_event(
    own_redis: OwnRedis,  # noqa: F811
    settings: Any,
    sign_in: Callable[..., SignedIn],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.REDIS_URL = own_redis.url
    owner = ServerThread()
    owner.start()
    other: ServerThread | None = None
    try:
        ana = await sync_to_async(sign_in)("Ana")
        beto = await sync_to_async(sign_in)("Beto")
        ana_peer = await connect(owner, ana)
        await ana_peer.expect(of_type("chat.history"))
        table = await sync_to_async(services.create_table)(
            organizer=ana.user,
            name="Mesa del corte",
            variant="amigos-100",
            seats={seat: services.SeatChoice(level="easy") for seat in (1, 2, 3)},
        )
        # Ana's page joins first, from the owner: its process takes the table's lease and runs it.
        ident = await ana_peer.send("table.join", {"table_id": table.pk, "since": None})
        assert (await ana_peer.reply(ident))["type"] == "ack"

        def anas_turn(envelope: dict[str, Any]) -> bool:
            if envelope["type"] == "table.snapshot":
                turn = envelope["payload"]["turn"]
                return bool(turn and turn["seat"] == 0 and turn["legal"])
            clocks = [e for e in flat_events(envelope["type"], envelope["payload"]) if e["kind"] == "clock"]
            return bool(clocks and clocks[-1]["data"]["seat"] == 0)

        await ana_peer.expect(anas_turn)
        await asyncio.sleep(0.3)  # the computers have played: nothing more is on its way

        other = ServerThread()
        other.start()
        beto_peer = await connect(other, beto)
        await beto_peer.expect(of_type("chat.history"))
        watching = await beto_peer.reply(
            await beto_peer.send("table.join", {"table_id": table.pk, "since": None, "as": "spectator"})
        )
        assert watching["type"] == "ack" and watching["payload"]["mode"] == "snapshot"
        seen = last_version(beto_peer)
        assert seen == last_version(ana_peer)

        other_hub = in_loop(other, lambda: hub_module._hubs[other.loop])
        other_bus = other_hub.bus
        assert isinstance(other_bus, RedisBus)
        gate = Gate(other_bus)
        monkeypatch.setattr(other_bus._pubsub, "get_message", gate.get_message)
        await asyncio.sleep(1.2)  # the reader's pending read (1 s at most) is over: held from now

        own_redis.stop()
        # Redis is down: Ana's play is stored and answered, its publication waits in her process.
        last = [e for e in ana_peer.received if e["type"] in ("table.snapshot", "table.events")][-1]
        if last["type"] == "table.snapshot":
            legal, version = last["payload"]["turn"]["legal"], last["payload"]["version"]
        else:
            clock = [e for e in flat_events(last["type"], last["payload"]) if e["kind"] == "clock"][-1]
            legal, version = clock["data"]["legal"], clock["version"]
        play = legal[0]
        played = await ana_peer.reply(
            await ana_peer.send(
                "table.play",
                {
                    "table_id": table.pk,
                    "version": version,
                    "tile": play["tile"],
                    "arm": play["arms"][0] if play["arms"] else None,
                    "lead_left": play["lead_left"][0] if play["lead_left"] else None,
                },
            )
        )
        assert played["type"] == "ack", played
        own_redis.start()
        owner_hub = in_loop(owner, lambda: hub_module._hubs[owner.loop])
        await until(lambda: in_loop(owner, owner_hub.pending_publications) == 0)
        # Redis is back and the owner published the play, while the other process was not
        # listening yet; so is a chat line Ana posts now.
        line = await ana_peer.reply(await ana_peer.send("chat.send", {"text": "¿me oyes, Beto?"}))
        assert line["type"] == "ack"
        await asyncio.sleep(0.3)
        assert last_version(beto_peer) == seen  # lost to the other process so far

        stored = await sync_to_async(
            lambda: max(LogRow.objects.filter(table_id=table.pk).values_list("version", flat=True))
        )()
        assert stored > seen
        gate.open.set()  # the other process's subscriber comes back; nobody plays any more

        await beto_peer.expect(of_type(RESYNC))
        again = await beto_peer.reply(
            await beto_peer.send("table.join", {"table_id": table.pk, "since": seen, "as": "spectator"})
        )
        assert again["type"] == "ack" and again["payload"]["mode"] == "events"
        await beto_peer.expect(lambda e: e["type"] == "table.events" and last_version(beto_peer) >= stored)
        caught_up = [
            event["version"]
            for e in beto_peer.received
            for event in flat_events(e["type"], e["payload"])
            if event["version"] > seen
        ]
        assert set(range(seen + 1, stored + 1)) <= set(caught_up)
        # The lobby's chat, read again once the bus listens again, has the line of the gap.
        await beto_peer.expect(
            lambda e: (
                e["type"] == "chat.history"
                and any(m["text"] == "¿me oyes, Beto?" for m in e["payload"]["messages"])
            )
        )
        await ana_peer.connection.close()
        await beto_peer.connection.close()
    finally:
        if other is not None:
            other.stop()
        owner.stop()
