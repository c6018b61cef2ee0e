"""uvicorn's WebSocket protocol, made to hold less for each open socket.

A live table keeps four sockets open for as long as its match lasts, and almost all that time they
are idle, so what one socket keeps is most of a table's memory (issue 9 asks for at most 150 KB a
table). uvicorn's protocol (`WebSocketsSansIOProtocol`, the one it picks for the `websockets`
package) keeps three things for the whole connection that matter only for an instant:

* its incoming events wait in an `asyncio.Queue`, which holds four deques (one inside its `Event`)
  of 64 slots each, though one reader takes one event at a time; and `writable`, an `asyncio.Event`
  with a deque of its own for writers who never wait at once on a healthy socket;
* the handshake's request and response, with every header parsed into `Headers` objects;
* the scope's copy of the request headers, which the site reads only during the handshake (the
  origin check and the session cookie, `amigos.web.realtime.entry`).

This subclass keeps the events in a list (`queues.OneReaderQueue`) and the writable flag in two
fields, and lets the handshake's objects go once the socket is accepted or refused. It also keeps
reading while a few messages wait for the application (`READ_AHEAD`): uvicorn stops reading a
socket after every message until the application takes it, and a socket that stops reading
cannot read the answers to its keepalive pings either. Once the site's socket is open, a received
message goes to it at once (`take_message`) rather than through the event list. Everything else
(frames, limits, keepalive pings, closing) is uvicorn's own. The version of uvicorn is pinned, and
`tests/web/realtime/test_protocol.py` checks the attributes this relies on.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import State

from amigos.web.realtime.queues import OneReaderQueue


class WritableFlag:
    """Whether the transport takes more bytes (uvicorn waits on it before every frame): the part of
    `asyncio.Event` the protocol uses, its waiters kept only while there are some."""

    __slots__ = ("_loop", "_set", "_waiters")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._set = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> None:
        while not self._set:
            waiter = self._loop.create_future()
            if self._waiters is None:
                self._waiters = []
            self._waiters.append(waiter)
            await waiter


def text_frame(data: bytes) -> bytes:
    """``data`` (UTF-8 text) as one final, unmasked text frame, the way a server sends it without
    extensions (RFC 6455 §5.2): the opcode byte, the length in 7, 16 or 64 bits, the payload."""
    length = len(data)
    if length < 126:
        return bytes((0x81, length)) + data
    if length < 1 << 16:
        return b"\x81\x7e" + length.to_bytes(2, "big") + data
    return b"\x81\x7f" + length.to_bytes(8, "big") + data


#: How many received messages may wait for the application before the socket stops reading.
READ_AHEAD = 8

#: What takes a received message at once: its text, or its bytes (the other one is None).
TakeMessage = Callable[[str | None, bytes | None], None]


class SiteSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol with the lighter event list and writable flag, which drops the handshake's
    request, response and header copy as soon as the handshake is over (see the module's doc).

    Its fields are slots: CPython keeps an object's attributes in a dict that shares its keys with
    the other objects of the class only up to 30 names, and uvicorn's protocol sets 37, so every
    socket's dict was a dict of its own, about 1.3 KB more than 30 slots and a shared-key dict
    of the rest (`take_message`, which has a class default, and any uvicorn adds). Four sockets
    a table: some 5 KB of the 150 KB a table may hold."""

    __slots__ = (
        "app",
        "app_state",
        "asgi_version",
        "client",
        "close_sent",
        "close_timeout",
        "close_timer",
        "config",
        "conn",
        "connections",
        "curr_msg_data_type",
        "default_headers",
        "disconnected",
        "frames",
        "handshake_complete",
        "handshake_initiated",
        "initial_response",
        "last_ping_rtt",
        "logger",
        "loop",
        "pending_ping_payload",
        "ping_interval",
        "ping_sent_at",
        "ping_timeout",
        "ping_timer",
        "pong_timer",
        "queue",
        "read_paused",
        "request",
        "response",
        "root_path",
        "scheme",
        "scope",
        "server",
        "tasks",
        "transport",
        "writable",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = OneReaderQueue(self.loop)  # type: ignore[assignment]
        self.writable = WritableFlag(self.loop)  # type: ignore[assignment]

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and self.close_sent:
            # An upgrade refused with a response of the site's choosing (429 from
            # `realtime.entry`) is over once its body is sent. uvicorn does not count that as a
            # completed handshake, and logged an error for every such refusal: a log line an
            # address opening too many sockets could write at will.
            self.handshake_complete = True
        if self.handshake_complete and hasattr(self, "request"):
            self._forget_handshake()

    #: Set by the site's socket once it is open (`SiteSocket.connect`): it takes each message as it
    #: arrives. Cleared when the connection is lost, and by the socket's teardown.
    take_message: TakeMessage | None = None

    def send_receive_event_to_app(self) -> None:
        """Hand a received message to the open socket at once, or queue it for the application.

        Why at once: through the queue, every command woke the application's task, climbed back
        through the middlewares' coroutines and channels' dispatch, only to be parsed and put in
        the socket's own inbox, which is all the socket does with it (`SiteSocket.receive`). Only
        when nothing waits in the queue: what is there (messages read while the socket opened)
        goes first, and the queue empties only when its reader takes a message, which it hands to
        the socket's inbox in the same step, so the order holds."""
        take = self.take_message
        if take is not None and not self.close_sent and self.queue.qsize() == 0:
            frames = self.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            if self.curr_msg_data_type != "text":
                self.frames = []
                take(None, bytes(data))
                return
            try:
                text = data.decode()
            except UnicodeDecodeError:  # pragma: no cover - websockets checks text frames' UTF-8
                pass  # uvicorn's own path closes the socket with 1007
            else:
                self.frames = []
                take(text, None)
                return
        self._queue_for_app()

    def connection_lost(self, exc: Exception | None) -> None:
        # The socket and this protocol refer to each other (its direct writes, our `take_message`):
        # the end of the connection breaks that, so neither waits for the cycle collector.
        self.take_message = None
        super().connection_lost(exc)

    def _queue_for_app(self) -> None:
        """Queue a received message for the application; stop reading only when `READ_AHEAD` are
        waiting.

        Why: uvicorn stops reading after each message until the application takes it. While a
        socket opens, the application is busy with the database (the session, the player) and
        takes nothing, and the page sends its first command at once; reading stopped, the answers
        to the server's keepalive pings were never read, so a socket whose opening took longer
        than the ping's interval and timeout (40 s, when thousands open together) was closed with
        1011, opened again by its page, and loaded the server more. A flood is still bounded:
        beyond `READ_AHEAD` waiting messages uvicorn's own rule applies."""
        if self.read_paused or self.queue.qsize() >= READ_AHEAD:
            super().send_receive_event_to_app()
            return
        # uvicorn stops reading unless it believes it already has: let it believe so for this call.
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    def start_keepalive(self) -> None:
        """The first keepalive ping at a random moment of the interval; the next ones follow at the
        interval, as uvicorn schedules them.

        Why: uvicorn pings every socket a whole interval after its handshake, so sockets that
        opened together (all of them, when the server restarts; a thousand tables' in
        bench/load.py) are pinged in the same few seconds of every interval, thousands of writes
        and pongs at once, which held up every play in those seconds."""
        if self.ping_interval is not None and self.ping_interval > 0:
            self.ping_timer = self.loop.call_later(
                random.random() * self.ping_interval, self.send_keepalive_ping
            )

    def send_texts_now(self, texts: list[str]) -> bool:
        """Write text frames at once, in one write, if the socket is open and its transport takes
        bytes, and say whether it did; when it did not, nothing was written and the caller goes
        through `send`, which waits, closes or reports the disconnection as uvicorn does.

        Why: a live table sends every play to four sockets, and going through the coroutine
        `send` cost each frame a task of its own (the socket's writer), though on a healthy socket
        `send` never waits; and the frames a socket has ready together (a play's events and its
        acknowledgement) cost one system call instead of one each. It does what `send` does for a
        ``websocket.send`` once the handshake is over, without the wait."""
        if (
            not self.handshake_complete
            or self.initial_response is not None
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        if conn.state is State.OPEN and not (conn.extensions or conn.expect_continuation_frame or conn.debug):
            # The frames websockets would make, made here: a server's text frames are unmasked,
            # and without extensions the payload goes as it is. Its frame objects and their
            # serialization were a twentieth of a live table's play.
            frames = [text_frame(text.encode()) for text in texts]
            self.transport.write(b"".join([*conn.data_to_send(), *frames]))
            return True
        try:
            for text in texts:
                conn.send_text(text.encode())
        except InvalidState:
            # Closing underway: `send` reports it as a disconnection. Nothing can change the state
            # between two frames of this loop, so it is always the first that fails, and no frame
            # was produced.
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True

    def _forget_handshake(self) -> None:
        """The handshake is over: uvicorn reads its request and response no more, and nothing reads
        the scope's headers any longer (uvicorn's log lines use only the client and the path)."""
        del self.request, self.response
        self.scope["headers"] = []
