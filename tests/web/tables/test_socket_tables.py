"""Tables over a real WebSocket against uvicorn: invitations, whole matches, refusals, spectators."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.realtime.protocol import SiteSocketProtocol
from amigos.web.tables import services
from amigos.web.tables.models import LogRow, Table
from tests.web.conftest import ServerThread, SignedIn
from tests.web.tables.support import LeakDetector, event_in, flat_events
from tests.web.test_socket import Peer, connect

pytestmark = pytest.mark.django_db(transaction=True)

SAFETY = 120.0


class Player:
    """A socket that plays the first legal play offered whenever the table gives it the turn."""

    def __init__(self, peer: Peer, seat: int | None) -> None:
        self.peer = peer
        self.seat = seat
        self.version = 0
        self.ended = asyncio.Event()
        self.refusals: list[str] = []
        self.last_play: dict[str, Any] | None = None

    def table_messages(self) -> list[tuple[str, dict[str, Any]]]:
        return [
            (e["type"], e["payload"])
            for e in self.peer.received
            if e["type"] in ("table.events", "table.snapshot")
        ]

    async def run(self, table_id: int) -> None:
        while True:
            envelope = json.loads(await self.peer.connection.recv())
            self.peer.received.append(envelope)
            kind, payload = envelope["type"], envelope["payload"]
            if kind == "error" and payload["code"] != "rate_limited":
                self.refusals.append(payload["code"])
            elif kind == "error" and self.last_play is not None:
                # The computer players answer at once here, so this socket plays faster than
                # any person could and meets the per-socket limit: back off and play again,
                # as the browser does.
                await asyncio.sleep(0.3)
                await self.play(table_id, self.last_play)
            if kind == "table.snapshot":
                self.version = payload["version"]
                turn = payload["turn"]
                if turn is not None and turn["seat"] == self.seat and turn["legal"]:
                    await self.play(table_id, turn["legal"][0])
            elif kind == "table.events":
                events = flat_events(kind, payload)
                self.version = max(self.version, events[-1]["version"])
                if any(event["kind"] == "match_ended" for event in events):
                    self.ended.set()
                    return
                clocks = [event["data"] for event in events if event["kind"] == "clock"]
                if clocks and clocks[-1]["seat"] == self.seat:
                    await self.play(table_id, clocks[-1]["legal"][0])

    async def play(self, table_id: int, entry: dict[str, Any]) -> None:
        self.last_play = entry
        await self.peer.send(
            "table.play",
            {
                "table_id": table_id,
                "version": self.version,
                "tile": entry["tile"],
                "arm": entry["arms"][0] if entry["arms"] else None,
                "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
            },
        )


async def command(peer: Peer, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    ident = await peer.send(kind, payload)
    return await peer.reply(ident)


async def wait_online(peer: Peer, count: int) -> None:
    """Wait until ``peer``'s online list (the full list, then the deltas) has ``count`` players.

    The lobby sends the full list once and then only `presence.delta` messages, so a test that
    waited for a later full `presence` list waited in vain."""
    await peer.expect(lambda e: e["type"].startswith("presence") and len(peer.online) >= count)


async def turn_of(peer: Peer, seat: int) -> dict[str, Any]:
    """Wait until it is ``seat``'s turn and nothing more is on its way: the turn's version and
    legal plays, checked to be the latest the socket has."""
    turn: dict[str, Any] = {}

    def seats_turn(envelope: dict[str, Any]) -> bool:
        payload = envelope["payload"]
        if envelope["type"] == "table.snapshot" and payload["turn"] and payload["turn"]["seat"] == seat:
            turn.update(version=payload["version"], legal=payload["turn"]["legal"])
            return True
        clock = event_in(envelope, "clock")
        if clock is not None and clock["data"]["seat"] == seat:
            turn.update(version=clock["version"], legal=clock["data"]["legal"])
            return True
        return False

    await peer.expect(seats_turn)
    await asyncio.sleep(0.2)  # let any event already on its way arrive, so `turn` is the latest
    latest = max(
        [e["payload"]["version"] for e in peer.received if e["type"] == "table.snapshot"]
        + [event["version"] for e in peer.received for event in flat_events(e["type"], e["payload"])]
    )
    assert latest == turn["version"]
    return turn


def first_play(table_id: int, turn: dict[str, Any]) -> dict[str, Any]:
    """The `table.play` payload of the first legal play of ``turn`` (see `turn_of`)."""
    entry = turn["legal"][0]
    return {
        "table_id": table_id,
        "version": turn["version"],
        "tile": entry["tile"],
        "arm": entry["arms"][0] if entry["arms"] else None,
    }


async def test_an_invited_partner_accepts_and_a_whole_match_is_played_over_sockets(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto, carla = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto", "Carla")]
    ana_peer = await connect(site_server, ana)
    beto_peer = await connect(site_server, beto)
    carla_peer = await connect(site_server, carla)
    await wait_online(ana_peer, 3)
    answer = await command(beto_peer, "tables.subscribe", {})
    assert answer["type"] == "ack"
    table = await sync_to_async(services.create_table)(
        organizer=ana.user,
        name="Los del parque",
        variant="amigos-100",
        seats={
            1: services.SeatChoice(level="easy"),
            2: services.SeatChoice(user_id=beto.user.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    invited = await beto_peer.expect(lambda e: e["type"] == "table.invited")
    assert invited["payload"]["table_id"] == table.pk and invited["payload"]["position"] == "partner"
    await beto_peer.expect(
        lambda e: any(p["name"] == "Beto" and p["status"] == "invited" for p in beto_peer.online.values())
    )
    # only the invited player can answer
    refused = await command(carla_peer, "table.invite.accept", {"table_id": table.pk})
    assert refused["payload"]["code"] == "not_invited"
    accepted = await command(beto_peer, "table.invite.accept", {"table_id": table.pk})
    assert accepted["type"] == "ack" and accepted["payload"]["seat"] == 2
    started = await command(ana_peer, "table.start", {"table_id": table.pk})  # the organizer's button
    assert started["type"] == "ack", started

    ana_player, beto_player, watcher = Player(ana_peer, 0), Player(beto_peer, 2), Player(carla_peer, None)
    for peer, as_ in ((ana_peer, "seat"), (beto_peer, "seat"), (carla_peer, "spectator")):
        await peer.send("table.join", {"table_id": table.pk, "since": None, "as": as_})
    # a spectator who asks for a seat is refused
    refused = await command(carla_peer, "table.join", {"table_id": table.pk, "since": None, "as": "seat"})
    assert refused["payload"]["code"] == "not_seated"
    tasks = [asyncio.create_task(player.run(table.pk)) for player in (ana_player, beto_player, watcher)]
    await asyncio.wait_for(asyncio.gather(*tasks), SAFETY)

    for player in (ana_player, beto_player, watcher):
        detector = LeakDetector(player.seat)
        for kind, payload in player.table_messages():
            detector.feed(kind, payload)
        assert detector.checked > 20
        assert player.refusals in ([], ["stale_version"], ["stale_version", "stale_version"])
    stored = await sync_to_async(LogRow.objects.filter(table_id=table.pk).count)()
    final = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert stored == final.version and final.status == "voting"
    for peer in (ana_peer, beto_peer, carla_peer):
        await peer.connection.close()


async def test_forged_malformed_and_stale_commands_are_refused_and_change_nothing(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto")]
    ana_peer = await connect(site_server, ana)
    beto_peer = await connect(site_server, beto)
    await wait_online(ana_peer, 2)
    mine = await sync_to_async(services.play_against_computer)(
        user=ana.user, variant="cuban-2v2", level="easy"
    )
    other = await sync_to_async(services.play_against_computer)(
        user=beto.user, variant="cuban-2v2", level="easy"
    )
    await command(beto_peer, "table.join", {"table_id": other.pk, "since": None})
    await ana_peer.send("table.join", {"table_id": mine.pk, "since": None})
    turn = await turn_of(ana_peer, 0)
    good = first_play(mine.pk, turn)
    cases = [
        (ana_peer, {**good, "tile": "x-y"}, "bad_payload"),
        (ana_peer, {**good, "arm": "north"}, "bad_payload"),
        (ana_peer, {key: value for key, value in good.items() if key != "version"}, "bad_payload"),
        (ana_peer, {**good, "table_id": "1"}, "bad_payload"),
        (ana_peer, {**good, "version": turn["version"] - 1}, "stale_version"),
        (ana_peer, {**good, "table_id": 999_999}, "table_not_found"),
        (ana_peer, {**good, "table_id": other.pk}, "not_seated"),  # another table: Ana holds no seat there
        (beto_peer, good, "not_seated"),  # another player speaking for Ana's table
    ]
    for peer, payload, code in cases:
        answer = await command(peer, "table.play", payload)
        assert answer["type"] == "error" and answer["payload"]["code"] == code, (payload, answer)
    table = await sync_to_async(Table.objects.get)(pk=mine.pk)
    assert table.version == turn["version"]
    # the genuine play is accepted and numbered next
    answer = await command(ana_peer, "table.play", good)
    assert answer["type"] == "ack" and answer["payload"]["version"] > turn["version"]
    for peer in (ana_peer, beto_peer):
        await peer.connection.close()


async def test_a_play_reaches_its_own_socket_with_its_ack_in_one_write(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """The table holds the player's copy of a play's events until the socket acknowledges the
    play, and both leave in one write to the transport, events first (the order the protocol
    promises); what the socket receives is the same as before, envelope for envelope."""
    ana = await sync_to_async(sign_in)("Ana")
    ana_peer = await connect(site_server, ana)
    mine = await sync_to_async(services.play_against_computer)(
        user=ana.user, variant="cuban-2v2", level="easy"
    )
    await ana_peer.send("table.join", {"table_id": mine.pk, "since": None})
    turn = await turn_of(ana_peer, 0)
    (protocol,) = [
        connection
        for connection in site_server.server.server_state.connections
        if isinstance(connection, SiteSocketProtocol)
    ]
    writes: list[bytes] = []

    async def watch() -> None:
        original = protocol.transport.write

        def counted(data: bytes | bytearray | memoryview) -> None:
            writes.append(bytes(data))
            original(data)

        protocol.transport.write = counted  # type: ignore[method-assign]

    await sync_to_async(lambda: asyncio.run_coroutine_threadsafe(watch(), site_server.loop).result(5))()
    play = first_play(mine.pk, turn)
    ident = await ana_peer.send("table.play", play)
    answer = await ana_peer.reply(ident)
    assert answer["type"] == "ack"
    mine_played = {"seat": 0, "tile": play["tile"]}
    played = await ana_peer.expect(
        lambda e: any(
            event["kind"] == "played" and {k: event["data"][k] for k in mine_played} == mine_played
            for event in flat_events(e["type"], e["payload"])
        )
    )
    # the events came first, the ack right after them
    order = [e["seq"] for e in (played, answer)]
    assert order[1] == order[0] + 1
    together = [data for data in writes if b'"type":"table.events"' in data and b'"type":"ack"' in data]
    assert len(together) == 1
    assert together[0].index(b'"type":"table.events"') < together[0].index(b'"type":"ack"')
    await ana_peer.connection.close()


async def test_a_seated_player_whose_socket_closes_is_away_and_back_on_rejoining(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """The table learns from the socket tier itself (its close hook) that a seated page went away,
    and the rules of absence follow: everyone is told, and the player's return is told too."""
    ana, carla = [await sync_to_async(sign_in)(name) for name in ("Ana", "Carla")]
    table = await sync_to_async(services.play_against_computer)(
        user=ana.user, variant="amigos-100", level="easy"
    )
    watcher = await connect(site_server, carla)
    joined = await command(watcher, "table.join", {"table_id": table.pk, "since": None, "as": "spectator"})
    assert joined["type"] == "ack"
    seated = await connect(site_server, ana)
    joined = await command(seated, "table.join", {"table_id": table.pk, "since": None, "as": "seat"})
    assert joined["type"] == "ack" and joined["payload"]["seat"] == 0
    await seated.connection.close()

    def seat_event(kind: str) -> Callable[[dict[str, Any]], bool]:
        return lambda e: (event := event_in(e, kind)) is not None and event["data"]["seat"] == 0

    away = event_in(await watcher.expect(seat_event("disconnected")), "disconnected")
    assert away is not None and away["data"]["reconnect_deadline"] is not None
    again = await connect(site_server, ana)
    joined = await command(again, "table.join", {"table_id": table.pk, "since": None, "as": "seat"})
    assert joined["type"] == "ack"
    await watcher.expect(seat_event("reconnected"))
    for peer in (watcher, again):
        await peer.connection.close()


async def test_the_seat_offered_a_new_deal_asks_for_it_over_a_socket_and_nobody_else_may(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cuban: Ana, dealt five doubles, is told so privately and asks for a new deal; the deal is
    voided, its key shown to everyone, and the hand dealt again; refusals change nothing."""
    from amigos.engine import new_deal_key, verify_commitment
    from amigos.web.tables import actor as actor_module

    # (the first offers seat 0 alone a new deal, and its draw for the lead makes seat 0 lead)
    offering, plain = "0000022c-0000-4000-8000-000000000000", "00000001-0000-4000-8000-000000000000"
    keys = [offering, plain]
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: keys.pop(0) if keys else new_deal_key())
    monkeypatch.setattr(actor_module, "random_seat", lambda players: 0)
    ana, beto = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto")]
    ana_peer = await connect(site_server, ana)
    beto_peer = await connect(site_server, beto)
    mine = await sync_to_async(services.play_against_computer)(
        user=ana.user, variant="cuban-2v2", level="easy"
    )
    await command(beto_peer, "table.join", {"table_id": mine.pk, "as": "spectator", "since": None})
    await ana_peer.send("table.join", {"table_id": mine.pk, "since": None})
    turn = await turn_of(ana_peer, 0)
    snapshot = next(e["payload"] for e in ana_peer.received if e["type"] == "table.snapshot")
    assert snapshot["hand"]["reshuffle"] is True
    watched = next(e["payload"] for e in beto_peer.received if e["type"] == "table.snapshot")
    assert watched["hand"]["reshuffle"] is False
    good = {"table_id": mine.pk, "version": turn["version"]}
    for peer, payload, code in [
        (ana_peer, {"table_id": mine.pk}, "bad_payload"),
        (ana_peer, {**good, "version": turn["version"] - 1}, "stale_version"),
        (beto_peer, good, "not_seated"),
    ]:
        answer = await command(peer, "table.reshuffle", payload)
        assert answer["type"] == "error" and answer["payload"]["code"] == code, (payload, answer)
    assert (await sync_to_async(Table.objects.get)(pk=mine.pk)).version == turn["version"]
    answer = await command(ana_peer, "table.reshuffle", good)
    assert answer["type"] == "ack"
    voided = await beto_peer.expect(lambda e: event_in(e, "hand_voided") is not None)
    data = event_in(voided, "hand_voided")
    assert data is not None
    redealt = event_in(voided, "hand_started")
    assert redealt is not None  # the new deal comes in the same message
    assert data["data"]["key"] == offering and data["data"]["seat"] == 0
    assert verify_commitment(offering, data["data"]["id"], snapshot["hand"]["commitment"])
    assert redealt["data"]["id"] == f"{data['data']['id']}:deal:2" and "reshuffle" not in redealt["data"]
    # The stored record already holds the voided deal, and the new deal as the hand in play.
    from amigos.web.tables.models import MatchRecord

    stored = (await sync_to_async(MatchRecord.objects.get)(table_id=mine.pk)).record["hands"]
    assert [deal["key"] for deal in stored[0]["voided"]] == [offering] and stored[0]["key"] == plain
    # The new deal offers nobody anything: asking again is refused.
    version = flat_events(voided["type"], voided["payload"])[-1]["version"]
    assert (await sync_to_async(Table.objects.get)(pk=mine.pk)).version == version
    answer = await command(ana_peer, "table.reshuffle", {"table_id": mine.pk, "version": version})
    assert answer["type"] == "error" and answer["payload"]["code"] == "no_reshuffle"
    # Nobody but Ana ever heard of the offer.
    assert not any(
        "reshuffle" in event["data"]
        for e in beto_peer.received
        for event in flat_events(e["type"], e["payload"])
    )
    for peer in (ana_peer, beto_peer):
        await peer.connection.close()
