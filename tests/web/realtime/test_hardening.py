"""The socket tier's defences over a real socket (issue 8, items 1-4): every case here once left a
dead socket behind, slowed other players, or killed the writer. Each test ends by checking that the
socket (or another player's) still answers."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.utils import timezone

from amigos.web.lobby.models import ChatMessage, Presence
from amigos.web.realtime import commands, consumer, envelope
from amigos.web.realtime.envelope import MAX_FRAME_BYTES
from amigos.web.realtime.hub import get_hub
from amigos.web.realtime.outgoing import OUTBOX_LIMIT
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import WAIT, Peer, connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)

# State shared with the commands below, which run in the server's thread and event loop.
ran: list[str] = []
gate: dict[str, asyncio.Event] = {}


@commands.command("test.boom", activity=False)
async def boom(connection: commands.Connection, payload: dict[str, Any]) -> None:
    raise RuntimeError("a bug in a handler")


@commands.command("test.hold", activity=False)
async def hold(connection: commands.Connection, payload: dict[str, Any]) -> None:
    """Blocks this socket's worker until test.release, so commands pile up behind it."""
    gate["event"] = asyncio.Event()
    await gate["event"].wait()


@commands.command("test.release", activity=False)
async def release(connection: commands.Connection, payload: dict[str, Any]) -> None:
    if "event" in gate:
        gate["event"].set()


@commands.command("test.count", activity=False)
async def count(connection: commands.Connection, payload: dict[str, Any]) -> None:
    ran.append("count")


@commands.command("test.lobby_members", activity=False)
async def lobby_members(connection: commands.Connection, payload: dict[str, Any]) -> dict[str, Any]:
    return {"count": len(get_hub().local("lobby")), "sockets": get_hub().sockets_of(connection.user_id)}


#: `test.spam`'s envelopes, about 100 MB: more than the buffers between the server and a client
#: that does not read hold, by far, with `OUTBOX_LIMIT` of them more.
SPAM_ENVELOPES, SPAM_PADDING = OUTBOX_LIMIT * 4, 100_000


@commands.command("test.spam", activity=False)
async def spam(connection: commands.Connection, payload: dict[str, Any]) -> None:
    """Far more than a client that stopped reading can take: the first envelopes are written at
    once, until the buffers of the system and the transport are full (a few megabytes), and the
    rest wait, more than a socket may have waiting."""
    padding = "x" * SPAM_PADDING
    for n in range(SPAM_ENVELOPES):
        connection.push("test.spam", {"n": n, "padding": padding})
    SPAM_SENT.set()


#: Set once `test.spam` has pushed its last envelope (the test server runs in this process).
SPAM_SENT = threading.Event()


@commands.command("test.others_tasks", activity=False)
async def others_tasks(connection: commands.Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """How many tasks each other socket in the lobby holds right now."""
    return {"tasks": [len(s.tasks) for s in get_hub().local("lobby") if s is not connection]}  # type: ignore[attr-defined]


async def closed_code(peer: Peer) -> int | None:
    """Read until the server closes the socket; the close code it sent."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            peer._keep(json.loads(await asyncio.wait_for(peer.connection.recv(), WAIT)))
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


async def answers(peer: Peer) -> None:
    assert (await peer.reply(await peer.send("heartbeat")))["type"] == "ack"


async def eventually(check: Callable[[], Any]) -> None:
    async def loop() -> None:
        while not await check():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(loop(), WAIT)


async def test_a_deeply_nested_frame_is_refused_and_the_socket_answers(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    peer = await connect(site_server, await sync_to_async(sign_in)())
    await peer.expect(of_type("welcome"))
    await peer.send_raw("[" * 3000 + "]" * 3000)
    error = await peer.expect(of_type("error"))
    assert error["payload"]["code"] == "too_deep"
    nested = "[" * 40 + "]" * 40
    await peer.send_raw('{"type": "chat.send", "id": 3, "payload": {"text": ' + nested + "}}")
    second = await peer.expect(lambda e: len([x for x in peer.received if x["type"] == "error"]) == 2)
    assert second["payload"]["code"] == "too_deep"
    await answers(peer)
    await peer.connection.close()


async def test_a_lone_surrogate_is_refused_and_the_writer_lives(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    peer = await connect(site_server, await sync_to_async(sign_in)())
    await peer.expect(of_type("welcome"))
    await peer.send_raw('{"type":"heartbeat","id":"\\ud800"}')
    refused = await peer.expect(of_type("error"))
    assert refused["payload"]["code"] == "bad_envelope" and refused["payload"]["reply_to"] is None
    await peer.send_raw('{"type":"chat.send","id":5,"payload":{"text":"hola \\udfff"}}')
    assert (await peer.reply(5))["payload"]["code"] == "bad_text"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await answers(peer)
    await peer.connection.close()


async def test_a_frame_over_the_protocol_limit_is_refused_by_the_server(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    await peer.send_raw('{"type": "chat.send", "id": 1, "payload": {"text": "' + "x" * 9000 + '"}}')
    assert await closed_code(peer) == 1009  # "message too big", before the frame reached the app
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    other = await connect(site_server, player)  # the server is fine, the counters go back
    await other.expect(of_type("welcome"))

    async def only_this_one() -> bool:
        members = await other.reply(await other.send("test.lobby_members"))
        return bool(members["payload"]["sockets"] == 1)

    await eventually(only_this_one)
    await other.connection.close()


async def test_a_failing_handler_closes_the_socket_and_removes_it_everywhere(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto = await sync_to_async(sign_in)("Ana"), await sync_to_async(sign_in)("Beto")
    watcher = await connect(site_server, ana)
    await watcher.expect(of_type("welcome"))
    victim = await connect(site_server, beto)
    await victim.expect(of_type("welcome"))
    assert (await watcher.reply(await watcher.send("test.lobby_members")))["payload"]["count"] == 2
    await victim.send("test.boom")
    assert await closed_code(victim) == 1011

    async def removed() -> bool:
        reply = await watcher.reply(await watcher.send("test.lobby_members"))
        row = await sync_to_async(Presence.objects.get)(user=beto.user)
        return bool(reply["payload"]["count"] == 1 and row.open_sockets == 0)

    await eventually(removed)
    await answers(watcher)
    await watcher.connection.close()


async def test_a_closed_sockets_queued_commands_are_dropped(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ran.clear()
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    await peer.send("test.hold")
    for _ in range(5):
        await peer.send("test.count")
    await peer.connection.close()
    other = await connect(site_server, player)
    await other.expect(of_type("welcome"))

    async def gone() -> bool:
        reply = await other.reply(await other.send("test.lobby_members"))
        return bool(reply["payload"]["sockets"] == 1)

    await eventually(gone)
    await other.reply(await other.send("test.release"))
    await answers(other)
    assert ran == []  # the five commands queued behind the held one never ran
    await other.connection.close()


async def test_a_command_flood_is_refused_before_any_work_then_closed(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND = 1
    settings.AMIGOS_SOCKET_COMMAND_BURST = 5
    ran.clear()
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    for _ in range(40):
        await peer.send("test.count")
    assert await closed_code(peer) == 4429  # it went on after being told: closed as a flood
    answers_ = [e for e in peer.received if e["type"] in ("ack", "error")]
    refused = [e for e in answers_ if e["type"] == "error"]
    assert {e["payload"]["code"] for e in refused} == {"rate_limited"} and len(refused) >= 5
    assert len(answers_) - len(refused) <= len(ran) <= 5 + 2  # the burst (and a refill) only
    assert len(answers_) < 40

    again = await connect(site_server, player)  # the player is not locked out
    await again.expect(of_type("welcome"))
    await answers(again)
    await again.connection.close()


#: The outside probe's frame (issue 36): 33 brackets, then an unterminated string of escaped
#: quotes, 8 KB in all. Its nesting scan used to take half a second of the event loop.
COSTLY_FRAME = "[" * 33 + '"\\' * ((MAX_FRAME_BYTES - 33) // 2)


def counting_parses(monkeypatch: pytest.MonkeyPatch, cost: Callable[[], None] = lambda: None) -> list[int]:
    """Count the frames the sockets parse (in the server's thread), each first paying `cost`."""
    parsed: list[int] = []
    parse = envelope.parse

    def counted(text: str | bytes | None) -> envelope.ClientMessage:
        parsed.append(1)
        cost()
        return parse(text)

    monkeypatch.setattr(envelope, "parse", counted)
    return parsed


async def test_costly_frames_are_refused_unread_then_closed(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 36: each frame took longer to parse than the command bucket took to refill, so the
    socket was never limited, however many it sent. Its characters are now charged before parsing."""
    settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND = 1000  # the command bucket never refuses here
    settings.AMIGOS_SOCKET_COMMAND_BURST = 5
    settings.AMIGOS_SOCKET_CHARS_PER_SECOND = 1000
    settings.AMIGOS_SOCKET_CHARS_BURST = 2 * MAX_FRAME_BYTES
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    parsed = counting_parses(monkeypatch)
    for _ in range(40):
        await peer.send_raw(COSTLY_FRAME)
    assert await closed_code(peer) == 4429
    errors = [e["payload"] for e in peer.received if e["type"] == "error"]
    refused = [e for e in errors if e["code"] == "rate_limited"]
    assert len(refused) >= 5 and all(e["reply_to"] is None for e in refused)  # refused unread
    assert len(parsed) <= 3  # the burst (and a refill); their answers (too_deep) may not come
    assert {e["code"] for e in errors} <= {"rate_limited", "too_deep"}
    again = await connect(site_server, player)  # the player is not locked out
    await again.expect(of_type("welcome"))
    await answers(again)
    await again.connection.close()


async def test_frames_slow_to_parse_are_refused_unread_then_closed(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever makes a frame slow to parse (none known now: the budget is for what is not known),
    the time its parse took is charged: a socket that spent its share reads nothing more."""
    settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND = 1000
    settings.AMIGOS_SOCKET_COMMAND_BURST = 5
    settings.AMIGOS_SOCKET_PARSE_MS_PER_SECOND = 20
    settings.AMIGOS_SOCKET_PARSE_MS_BURST = 200
    now = [0.0]  # the budget's clock, which only a parse moves on: each takes half a second
    monkeypatch.setattr(consumer, "frame_clock", lambda: now[0])
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    parsed = counting_parses(monkeypatch, cost=lambda: now.__setitem__(0, now[0] + 0.5))
    for _ in range(20):
        await peer.send("heartbeat")
    assert await closed_code(peer) == 4429
    refused = [e["payload"] for e in peer.received if e["type"] == "error"]
    assert len(parsed) == 1 and len(refused) >= 5  # one frame, which the burst paid for
    assert {e["code"] for e in refused} == {"rate_limited"} and {e["reply_to"] for e in refused} == {None}


async def test_a_player_may_not_open_sockets_without_limit(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_SOCKETS_PER_PLAYER = 2
    player = await sync_to_async(sign_in)()
    peers = [await connect(site_server, player) for _ in range(2)]
    for peer in peers:
        await peer.expect(of_type("welcome"))
    # Regression: the process's first opening counted its socket, then the sweep of a dead
    # process's counters (which must come first) set it back to nothing.
    assert (await Presence.objects.aget(user=player.user)).open_sockets == 2
    extra = await connect(site_server, player)
    error = await extra.expect(of_type("error"))
    assert error["payload"]["code"] == "too_many_sockets"
    assert await closed_code(extra) == 4429
    # The refused socket was counted in the presence by its opening's trip, and taken off again.
    presence = await Presence.objects.aget(user=player.user)
    assert presence.open_sockets == 2
    await peers[0].connection.close()

    async def room_again() -> bool:
        again = await connect(site_server, player)
        first = await again.expect(lambda e: e["type"] in ("welcome", "error"))
        await again.connection.close()
        return bool(first["type"] == "welcome")

    await eventually(room_again)
    await answers(peers[1])
    await peers[1].connection.close()


async def test_refused_chat_lines_cost_no_session_write(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 2
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    for _ in range(2):
        assert (await peer.reply(await peer.send("chat.send", {"text": "hola"})))["type"] == "ack"

    def stored() -> str:
        return str(Session.objects.get(session_key=player.session_key).session_data)

    before = await sync_to_async(stored)()
    for text in ["otra", "", "x" * (settings.AMIGOS_CHAT_MAX_LENGTH + 1), "más"]:
        reply = await peer.reply(await peer.send("chat.send", {"text": text}))
        assert reply["payload"]["code"] in {"flood", "empty", "too_long"}
    assert await sync_to_async(stored)() == before
    assert await sync_to_async(ChatMessage.objects.count)() == 2
    await peer.connection.close()


async def test_counters_left_by_a_dead_process_are_rebuilt_on_start(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    make_player: Callable[..., Any],
    settings: Any,
) -> None:
    settings.AMIGOS_HEARTBEAT_SECONDS = 20  # absent after 60 s; the grace is 5 s
    now = timezone.now()
    stale, recent = await sync_to_async(make_player)("Fantasma"), await sync_to_async(make_player)("Reciente")
    await sync_to_async(Presence.objects.create)(
        user=stale,
        signed_in_at=now - timedelta(hours=1),
        last_seen=now - timedelta(minutes=2),
        open_sockets=3,
    )
    await sync_to_async(Presence.objects.create)(
        user=recent, signed_in_at=now - timedelta(hours=1), last_seen=now, open_sockets=2
    )
    peer = await connect(site_server, await sync_to_async(sign_in)("Ana"))
    await peer.expect(of_type("welcome"))
    ghost = await sync_to_async(Presence.objects.get)(user=stale)
    assert ghost.open_sockets == 0  # not seen for three heartbeat periods: no live socket anywhere
    other = await sync_to_async(Presence.objects.get)(user=recent)
    if settings.REDIS_URL:
        assert other.open_sockets == 2  # another process may well hold these sockets
    else:
        # The in-memory bus: this process is the only one serving, so every counter was stale,
        # and the presence lapses after the short grace unless its browser comes back.
        assert other.open_sockets == 0 and other.last_seen < now
    await peer.connection.close()


async def test_a_client_that_cannot_keep_up_is_closed_and_its_backlog_dropped(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    SPAM_SENT.clear()
    # The client reads nothing until the server has pushed everything: reading along (the server
    # releases the interpreter's lock at every write) it could keep up, on some machines, and the
    # server's buffers would never fill.
    peer.connection.transport.pause_reading()
    await peer.send("test.spam")
    assert await asyncio.to_thread(SPAM_SENT.wait, WAIT)  # not the thread the server's database calls share
    peer.connection.transport.resume_reading()
    assert await closed_code(peer) == 4408
    # what was written before the buffers filled arrives, in order; the backlog is dropped, not sent late
    spams = [e["payload"]["n"] for e in peer.received if e["type"] == "test.spam"]
    assert spams == list(range(len(spams))) and len(spams) < SPAM_ENVELOPES - OUTBOX_LIMIT
    again = await connect(site_server, player)
    await again.expect(of_type("welcome"))
    await answers(again)
    await again.connection.close()


async def test_an_idle_socket_holds_no_task(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """Its writer and its worker run only while something waits for them (memory: thousands of
    sockets sit idle at tables), and a new command or envelope starts them again."""
    ana, beto = await sync_to_async(sign_in)("Ana"), await sync_to_async(sign_in)("Beto")
    idle = await connect(site_server, ana)
    await idle.expect(of_type("welcome"))
    await answers(idle)
    asker = await connect(site_server, beto)
    await asker.expect(of_type("welcome"))

    async def settled() -> bool:
        reply = await asker.reply(await asker.send("test.others_tasks"))
        return bool(reply["payload"]["tasks"] == [0])

    await eventually(settled)
    await answers(idle)  # both start again on demand
    await eventually(settled)
    await idle.connection.close()
    await asker.connection.close()
