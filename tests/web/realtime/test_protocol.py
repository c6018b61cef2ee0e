"""The site's uvicorn protocol (amigos.web.realtime.protocol): its writable flag behaves as the
asyncio object it replaces (its event list: test_queues.py), and an open socket keeps nothing of
its handshake."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from hypothesis import given
from hypothesis import strategies as st
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol

from amigos.web.realtime import consumer
from amigos.web.realtime import protocol as protocol_module
from amigos.web.realtime.protocol import SiteSocketProtocol, WritableFlag, text_frame
from amigos.web.realtime.queues import OneReaderQueue
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import connect, of_type


async def test_writers_wait_while_the_transport_is_full_and_all_go_on_when_it_drains() -> None:
    flag = WritableFlag(asyncio.get_running_loop())
    assert flag.is_set()
    await asyncio.wait_for(flag.wait(), 1)  # set: no wait at all
    flag.clear()
    writers = [asyncio.ensure_future(flag.wait()) for _ in range(3)]
    await asyncio.sleep(0.01)
    assert not any(writer.done() for writer in writers)
    flag.set()
    await asyncio.wait_for(asyncio.gather(*writers), 1)
    flag.clear()
    flag.set()
    flag.clear()  # cleared again before a late writer looks: it waits for the next set
    late = asyncio.ensure_future(flag.wait())
    await asyncio.sleep(0.01)
    assert not late.done()
    flag.set()
    await asyncio.wait_for(late, 1)


def the_only_socket(site_server: ServerThread) -> SiteSocketProtocol:
    """The protocol of the test server's one open WebSocket."""
    (protocol,) = [
        connection
        for connection in site_server.server.server_state.connections
        if isinstance(connection, SiteSocketProtocol)
    ]
    return protocol


def test_uvicorn_still_has_what_the_subclass_replaces() -> None:
    """The subclass leans on uvicorn's attribute names; a new uvicorn that renamed them would leave
    the heavy objects in place (or break), so the names are checked here."""
    for name in ("send", "receive", "handle_connect", "run_asgi"):
        assert callable(getattr(WebSocketsSansIOProtocol, name))
    source = WebSocketsSansIOProtocol.__init__.__code__.co_names
    assert {"queue", "writable"} <= set(source)
    assert {"request", "response", "scope"} <= set(WebSocketsSansIOProtocol.handle_connect.__code__.co_names)
    # `send_receive_event_to_app` lets uvicorn's method queue the message and stop reading by this flag
    assert {"read_paused", "pause_reading", "queue"} <= set(
        WebSocketsSansIOProtocol.send_receive_event_to_app.__code__.co_names
    )
    assert "read_paused" in WebSocketsSansIOProtocol.receive.__code__.co_names
    # the direct hand-over reads a message's frames and kind where uvicorn's method does
    assert {"frames", "curr_msg_data_type", "close_sent"} <= set(
        WebSocketsSansIOProtocol.send_receive_event_to_app.__code__.co_names
    )
    assert callable(WebSocketsSansIOProtocol.connection_lost)
    # `start_keepalive` sets the first ping timer itself; uvicorn's next pings follow from it
    assert {"ping_timer", "send_keepalive_ping"} <= set(
        WebSocketsSansIOProtocol.schedule_ping.__code__.co_names
    )
    assert callable(WebSocketsSansIOProtocol.start_keepalive)
    # what `send_texts_now` reads and calls, as uvicorn's own `send` does
    used = {"handshake_complete", "initial_response", "close_sent", "disconnected", "writable"}
    assert used | {"conn", "transport", "send_text", "data_to_send"} <= set(
        WebSocketsSansIOProtocol.send.__code__.co_names
    )


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_keeps_nothing_of_its_handshake(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    protocol = the_only_socket(site_server)
    assert not hasattr(protocol, "request") and not hasattr(protocol, "response")
    assert protocol.scope["headers"] == []
    assert isinstance(protocol.queue, OneReaderQueue) and isinstance(protocol.writable, WritableFlag)
    # and it still works both ways
    reply = await peer.reply(await peer.send("heartbeat"))
    assert reply["type"] == "ack"
    await peer.connection.close()


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_keeps_its_fields_in_slots_and_a_small_shared_key_dict(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """Past 30 names CPython gives an object's attributes a dict of its own, some 1.3 KB more for
    each socket: uvicorn's protocol and the site's socket keep their fields in slots, and what is
    left in their dicts stays under that."""
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    protocol = await taking_directly(site_server)
    reply = await peer.reply(await peer.send("heartbeat"))
    assert reply["type"] == "ack"
    socket = protocol.take_message.__self__  # type: ignore[union-attr]
    assert isinstance(socket, consumer.SiteSocket)
    for holder in (protocol, socket):
        assert len(vars(holder)) < 30, sorted(vars(holder))
    assert "conn" not in vars(protocol) and "outbox" not in vars(socket)
    await peer.connection.close()


@given(
    st.binary(max_size=70_000) | st.sampled_from([b"", b"x" * 125, b"x" * 126, b"x" * 65_535, b"x" * 65_536])
)
def test_a_text_frame_is_the_one_websockets_makes(data: bytes) -> None:
    """`text_frame` writes what websockets' own frame would for a server without extensions, at
    every length encoding (7, 16 and 64 bits)."""
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


def test_websockets_still_has_what_the_direct_write_reads() -> None:
    """`send_texts_now` writes frames itself only on an open connection without extensions, a
    fragmented message or debug logging; a websockets that renamed these would break it."""
    connection = ServerProtocol()
    for name in ("state", "extensions", "expect_continuation_frame", "debug", "data_to_send", "writes"):
        assert hasattr(connection, name)


@pytest.mark.django_db(transaction=True)
async def test_the_first_keepalive_ping_falls_at_a_random_moment_of_the_interval(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sockets that open together must not be pinged together ever after: the first ping waits a
    random part of the interval (here drawn as a quarter), the next ones the whole interval."""

    class Quarter:
        @staticmethod
        def random() -> float:
            return 0.25

    monkeypatch.setattr(protocol_module, "random", Quarter)
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    protocol = the_only_socket(site_server)
    interval = protocol.ping_interval
    assert interval is not None and interval >= 4
    assert protocol.ping_timer is not None
    left = protocol.ping_timer.when() - site_server.loop.time()
    assert interval * 0.25 - 2 < left <= interval * 0.25
    await peer.connection.close()


@pytest.mark.django_db(transaction=True)
async def test_frames_are_written_at_once_only_while_the_transport_takes_them(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """`send_texts_now` writes on an open socket whose transport is not full, several frames in one
    write and in their order, and otherwise writes nothing and says so (the socket's writer then
    goes through uvicorn's `send`)."""
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    protocol = the_only_socket(site_server)
    loop = site_server.loop
    writes: list[bytes] = []
    transport_write = protocol.transport.write

    def counted(data: bytes | bytearray | memoryview) -> None:
        writes.append(bytes(data))
        transport_write(data)

    async def now(texts: list[str]) -> bool:
        protocol.transport.write = counted  # type: ignore[method-assign]
        try:
            return protocol.send_texts_now(texts)
        finally:
            protocol.transport.write = transport_write  # type: ignore[method-assign]

    def on_server(*texts: str) -> bool:
        return asyncio.run_coroutine_threadsafe(now(list(texts)), loop).result(5)

    assert await sync_to_async(on_server)('{"type":"x.direct","seq":0,"payload":{}}')
    await peer.expect(of_type("x.direct"))
    assert len(writes) == 1
    three = [f'{{"type":"x.many","seq":0,"payload":{{"n":{n}}}}}' for n in range(3)]
    assert await sync_to_async(on_server)(*three)
    assert len(writes) == 2  # three frames, one write
    await peer.expect(lambda envelope: envelope["type"] == "x.many" and envelope["payload"] == {"n": 2})
    assert [envelope["payload"]["n"] for envelope in peer.received if envelope["type"] == "x.many"] == [
        0,
        1,
        2,
    ]
    # Frames whose length takes 16 and 64 bits arrive whole, UTF-8 intact.
    for size in (300, 70_000):
        text = '{"type":"x.long","seq":0,"payload":{"t":"' + "ñ" * size + '"}}'
        assert await sync_to_async(on_server)(text)
        await peer.expect(
            lambda envelope, size=size: envelope["type"] == "x.long" and len(envelope["payload"]["t"]) == size
        )
    loop.call_soon_threadsafe(protocol.writable.clear)
    assert not await sync_to_async(on_server)('{"type":"x.held","seq":0,"payload":{}}')
    assert len(writes) == 4
    loop.call_soon_threadsafe(protocol.writable.set)
    reply = await peer.reply(await peer.send("heartbeat"))  # the socket goes on as before
    assert reply["type"] == "ack"
    assert not [envelope for envelope in peer.received if envelope["type"] == "x.held"]
    await peer.connection.close()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A socket's opening waits for this event before it reads the session from the database (as
    when thousands open together): what the page sends meanwhile waits in uvicorn's queue."""
    opened = threading.Event()
    real_open = consumer.db_open

    async def slow_open(*args: Any) -> Any:
        await asyncio.get_running_loop().run_in_executor(None, opened.wait, 30)
        return await real_open(*args)

    monkeypatch.setattr(consumer, "db_open", slow_open)
    return opened


@pytest.mark.django_db(transaction=True)
async def test_a_socket_keeps_reading_while_its_opening_waits_for_the_database(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], gate: threading.Event
) -> None:
    """Regression: uvicorn stopped reading a socket after each message until the application took
    it. A page sends its first command as soon as the socket is open, while the server is still
    reading the session from the database; with reading stopped, the answers to the keepalive
    pings stayed unread, and when thousands of sockets opened together (bench/load.py, 1,000
    tables) those whose opening took over 40 s were closed with 1011 and opened again, by the
    thousand. Now the socket reads on, and its messages wait in order for the application."""
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    first = await peer.send("heartbeat")
    second = await peer.send("heartbeat")
    protocol = the_only_socket(site_server)

    async def reading() -> tuple[int, bool]:
        return protocol.queue.qsize(), protocol.read_paused

    def on_server() -> tuple[int, bool]:
        return asyncio.run_coroutine_threadsafe(reading(), site_server.loop).result(5)

    for _ in range(100):  # until the server has read both messages (nobody has taken them yet)
        waiting, paused = await sync_to_async(on_server)()
        if waiting >= 2:
            break
        await asyncio.sleep(0.05)
    assert (waiting, paused) == (2, False)
    pong = await peer.connection.ping()  # the socket still reads: control frames are answered
    await asyncio.wait_for(pong, 5)
    gate.set()
    assert (await peer.reply(first))["type"] == "ack"
    assert (await peer.reply(second))["type"] == "ack"
    await peer.connection.close()


async def taking_directly(site_server: ServerThread) -> SiteSocketProtocol:
    """The one socket's protocol, once its opening is over (the welcome leaves a little before
    the opening's last steps, the last of which hands the protocol the socket's `_take_now`)."""
    protocol = the_only_socket(site_server)
    for _ in range(200):
        if protocol.take_message is not None:
            return protocol
        await asyncio.sleep(0.01)
    raise AssertionError("the protocol never got the socket's `_take_now`")


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_takes_its_messages_straight_from_the_protocol_in_order(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the socket is open, nothing it receives waits in uvicorn's queue: the protocol hands
    each message to the socket as it reads it, commands, a binary frame and malformed text alike,
    and the answers come in the order the messages were sent."""
    queued: list[object] = []
    real_queue = SiteSocketProtocol._queue_for_app

    def counted(self: SiteSocketProtocol) -> None:
        queued.append(self.frames)
        real_queue(self)

    monkeypatch.setattr(SiteSocketProtocol, "_queue_for_app", counted)
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    await taking_directly(site_server)
    before = len(queued)
    idents = [await peer.send("heartbeat") for _ in range(3)]
    await peer.connection.send(b"\x00binary")
    await peer.send_raw("{not json")
    idents.append(await peer.send("heartbeat"))
    await peer.reply(idents[-1])
    assert len(queued) == before  # none went through the queue
    answered = [envelope for envelope in peer.received if envelope["type"] in ("ack", "error")]
    assert [envelope["payload"].get("code") for envelope in answered] == [
        None,
        None,
        None,
        "bad_frame",
        "bad_json",
        None,
    ]
    assert [envelope["payload"]["reply_to"] for envelope in answered if envelope["type"] == "ack"] == idents
    await peer.connection.close()


@pytest.mark.django_db(transaction=True)
async def test_messages_read_while_the_socket_opened_are_answered_before_later_ones(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], gate: threading.Event
) -> None:
    """The first messages wait in uvicorn's queue while the opening reads the database; the ones
    after it reach the socket directly, and must not overtake them."""
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    early = [await peer.send("heartbeat") for _ in range(3)]
    gate.set()
    late = [await peer.send("heartbeat") for _ in range(3)]
    await peer.reply(late[-1])
    acks = [envelope["payload"]["reply_to"] for envelope in peer.received if envelope["type"] == "ack"]
    assert acks == early + late
    await peer.connection.close()


@pytest.mark.django_db(transaction=True)
async def test_a_failure_taking_a_message_closes_the_socket_and_frees_the_protocol_of_it(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug while taking a message the protocol handed over closes that socket with 1011 (as a
    bug in a command does) and never reaches uvicorn; the protocol lets go of the socket, and
    another socket of the player opens and works."""
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    protocol = await taking_directly(site_server)
    real_parse = consumer.envelope.parse

    def broken(text: str | bytes | None) -> Any:
        if isinstance(text, str) and "boom" in text:
            raise RuntimeError("a bug while parsing")
        return real_parse(text)

    monkeypatch.setattr(consumer.envelope, "parse", broken)
    await peer.send("boom")
    with pytest.raises(Exception) as closed:
        while True:
            await asyncio.wait_for(peer.connection.recv(), 10)
    assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 1011  # type: ignore[attr-defined]
    assert protocol.take_message is None
    again = await connect(site_server, player)
    await again.expect(of_type("welcome"))
    assert (await again.reply(await again.send("heartbeat")))["type"] == "ack"
    await again.connection.close()
