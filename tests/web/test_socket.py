"""The socket tier over a real WebSocket: uvicorn serving the real application, the `websockets` client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.utils import timezone

from amigos.web.lobby.models import ChatMessage, Presence
from amigos.web.moderation.models import Report
from tests.web.conftest import ServerThread, SignedIn

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15.0  # generous upper bound for anything to arrive; tests finish as soon as it does


class Peer:
    """A connected test client that keeps every envelope it received."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []
        self.next_id = 0
        # The online list as a browser keeps it: the full list, then the deltas applied in order.
        self.online: dict[int, dict[str, Any]] = {}

    def _keep(self, envelope: dict[str, Any]) -> None:
        self.received.append(envelope)
        payload = envelope["payload"]
        if envelope["type"] == "presence":
            self.online = {player["id"]: player for player in payload["players"]}
        elif envelope["type"] == "presence.delta":
            for key in payload["removed"]:
                self.online.pop(key, None)
            for player in [*payload["added"], *payload["changed"]]:
                self.online[player["id"]] = player

    def online_names(self) -> list[str]:
        """The online list in display order (status, sign-in time), as the browser shows it."""
        order = ["available", "invited", "playing", "reconnecting"]
        players = sorted(
            self.online.values(), key=lambda p: (order.index(p["status"]), p["signed_in_at"], p["id"])
        )
        return [player["name"] for player in players]

    async def expect_online(self, names: list[str]) -> None:
        """Wait until the online list (full list plus deltas) reads `names`, in this order."""

        async def wait() -> None:
            while self.online_names() != names:
                self._keep(json.loads(await self.connection.recv()))

        await asyncio.wait_for(wait(), WAIT)

    async def send(self, kind: str, payload: dict[str, Any] | None = None) -> int:
        self.next_id += 1
        await self.connection.send(json.dumps({"type": kind, "id": self.next_id, "payload": payload or {}}))
        return self.next_id

    async def send_raw(self, text: str) -> None:
        await self.connection.send(text)

    async def expect(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first envelope (already received or arriving) that satisfies `predicate`."""
        for envelope in self.received:
            if predicate(envelope):
                return envelope

        async def wait() -> dict[str, Any]:
            while True:
                envelope = json.loads(await self.connection.recv())
                self._keep(envelope)
                if predicate(envelope):
                    return envelope

        return await asyncio.wait_for(wait(), WAIT)

    async def reply(self, ident: int) -> dict[str, Any]:
        return await self.expect(
            lambda e: e["type"] in ("ack", "error") and e["payload"].get("reply_to") == ident
        )


async def connect(server: ServerThread, player: SignedIn | None) -> Peer:
    headers = {"Origin": server.url}
    if player is not None:
        headers["Cookie"] = player.cookie_header()
    connection = await websockets.connect(server.ws_url, additional_headers=headers)
    return Peer(connection)


def of_type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda envelope: envelope["type"] == kind


async def test_a_stranger_is_told_to_sign_in_and_disconnected(site_server: ServerThread) -> None:
    peer = await connect(site_server, None)
    error = await peer.expect(of_type("error"))
    assert error["payload"]["code"] == "unauthenticated"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(peer.connection.recv(), WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


async def test_a_foreign_origin_is_refused(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)("Ana")
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(
            site_server.ws_url,
            additional_headers={"Origin": "http://evil.example", "Cookie": player.cookie_header()},
        )


async def test_welcome_presence_and_numbered_envelopes(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana = await sync_to_async(sign_in)("Ana")
    peer = await connect(site_server, ana)
    welcome = await peer.expect(of_type("welcome"))
    assert welcome["payload"]["user"] == {"id": ana.user.pk, "name": "Ana"}
    presence = await peer.expect(of_type("presence"))
    assert [p["name"] for p in presence["payload"]["players"]] == ["Ana"]
    assert presence["payload"]["players"][0]["status"] == "available"
    assert presence["payload"]["players"][0]["quintile"] is None
    await peer.expect(of_type("chat.history"))
    ident = await peer.send("heartbeat")
    assert (await peer.reply(ident))["type"] == "ack"
    seqs = [envelope["seq"] for envelope in peer.received]
    assert seqs == list(range(1, len(seqs) + 1))
    await peer.connection.close()


async def test_two_players_see_each_other_and_chat(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    # Absence after 15 s without heartbeat: Ana (who sends none here) stays listed throughout, while
    # Beto, whose socket closes, lapses after the short disconnect grace.
    settings.AMIGOS_HEARTBEAT_SECONDS = 5
    ana = await sync_to_async(sign_in)("Ana")
    beto = await sync_to_async(sign_in)("Beto")
    first = await connect(site_server, ana)
    await first.expect(of_type("welcome"))
    second = await connect(site_server, beto)
    await second.expect(of_type("welcome"))
    await first.expect_online(["Ana", "Beto"])  # earlier sign-in first

    ident = await second.send("chat.send", {"text": "<script>alert(1)</script> ¿jugamos?"})
    assert (await second.reply(ident))["type"] == "ack"
    line = await first.expect(of_type("chat.message"))
    assert line["payload"]["text"] == "<script>alert(1)</script> ¿jugamos?"
    assert line["payload"]["author"] == "Beto"
    assert await sync_to_async(ChatMessage.objects.count)() == 1

    report = await first.send(
        "moderation.report",
        {"player_id": beto.user.pk, "lobby_line_id": line["payload"]["id"], "comment": "spam"},
    )
    assert (await first.reply(report))["type"] == "ack"
    filed = await sync_to_async(Report.objects.get)(reporter=ana.user)
    assert (filed.place, filed.lobby_line_id) == ("lobby", line["payload"]["id"])

    await second.connection.close()
    await first.send("heartbeat")  # Ana is still here
    await first.expect_online(["Ana"])
    kinds = [e["type"] for e in first.received if e["type"].startswith("presence")]
    assert kinds[0] == "presence" and set(kinds[1:]) == {"presence.delta"}  # the full list once only
    last = [e for e in first.received if e["type"] == "presence.delta"][-1]
    assert last["payload"]["removed"] == [beto.user.pk] and last["payload"]["added"] == []
    await first.connection.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_envelope"),
        ('{"id": 7}', "bad_envelope"),
        ('{"type": "chat.send", "id": 8, "payload": "hola"}', "bad_envelope"),
        ('{"type": "no.such", "id": 9}', "unknown_type"),
        ('{"type": "chat.send", "id": 10, "payload": {"text": 5}}', "bad_payload"),
        ('{"type": "moderation.report", "id": 11, "payload": {"player_id": "x"}}', "bad_payload"),
        ("[" * 40 + "]" * 40, "too_deep"),
    ],
)
async def test_malformed_messages_get_an_error_and_change_nothing(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], raw: str, code: str
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    await peer.send_raw(raw)
    error = await peer.expect(of_type("error"))
    assert error["payload"]["code"] == code
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    # The socket is still usable afterwards.
    ident = await peer.send("heartbeat")
    assert (await peer.reply(ident))["type"] == "ack"
    await peer.connection.close()


async def test_chat_refusals_name_the_command(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 2
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    too_long = await peer.send("chat.send", {"text": "a" * (settings.AMIGOS_CHAT_MAX_LENGTH + 1)})
    assert (await peer.reply(too_long))["payload"]["code"] == "too_long"
    for _ in range(2):
        assert (await peer.reply(await peer.send("chat.send", {"text": "hola"})))["type"] == "ack"
    flood = await peer.send("chat.send", {"text": "hola otra vez"})
    assert (await peer.reply(flood))["payload"]["code"] == "flood"
    assert await sync_to_async(ChatMessage.objects.count)() == 2
    await peer.connection.close()


async def test_idle_socket_is_signed_out_and_session_deleted(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    settings.AMIGOS_IDLE_TIMEOUT_SECONDS = 1  # the watchdog re-reads it; heartbeats are not activity
    await peer.send("heartbeat")
    signed_out = await peer.expect(of_type("signed_out"))
    assert signed_out["payload"]["reason"] == "idle"
    exists = await sync_to_async(Session.objects.filter(session_key=player.session_key).exists)()
    assert not exists
    assert not await sync_to_async(Presence.objects.filter(user=player.user).exists)()


async def test_suspended_player_is_signed_out_with_the_end_date(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    until = timezone.now() + timezone.timedelta(days=7)

    def suspend() -> None:
        player.user.suspended_until = until
        player.user.save()

    await sync_to_async(suspend)()
    signed_out = await peer.expect(of_type("signed_out"))
    assert signed_out["payload"]["reason"] == "suspended"
    assert signed_out["payload"]["suspended_until"] == until.isoformat()


async def test_signing_out_on_a_page_ends_the_socket(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    await sync_to_async(player.client.post)("/accounts/sign-out/")
    signed_out = await peer.expect(of_type("signed_out"))
    assert signed_out["payload"]["reason"] == "signed_out"


async def test_a_lapsed_session_is_refused_at_connection(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    player = await sync_to_async(sign_in)()
    settings.AMIGOS_IDLE_TIMEOUT_SECONDS = 0  # any time at all since the last action is too long
    peer = await connect(site_server, player)
    signed_out = await peer.expect(of_type("signed_out"))
    assert signed_out["payload"]["reason"] == "idle"
    assert not any(envelope["type"] == "welcome" for envelope in peer.received)
    assert not await sync_to_async(Presence.objects.filter(user=player.user).exists)()
