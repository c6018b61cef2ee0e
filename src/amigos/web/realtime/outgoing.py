"""A socket's outgoing frames: numbered, held for a command's answer, written at once or in order.

Outgoing envelopes go through a bounded queue drained by one writer task, which numbers them
(`seq`) in the order they are sent; a client too slow to keep up is disconnected rather than
letting its queue grow without bound. The writer task exists only while a frame waits: when
nothing is queued before it, a frame is written at once if the transport takes it
(`SiteSocketProtocol.send_texts_now`). `SiteSocket` (`consumer`) inherits this part, which
reads and sets the socket's attributes below.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.utils import ClientDisconnected

from amigos.web.realtime import envelope, muting

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from amigos.web.accounts.models import User
    from amigos.web.realtime.hub import Hub

log = logging.getLogger("amigos.realtime")

# The most envelopes queued for a socket; beyond, the client does not keep up and is closed.
OUTBOX_LIMIT = 256
# The most frames held for a command's answer (`OutgoingFrames.hold_frames`); beyond, they go at once.
HELD_LIMIT = 16
# The close code of a socket whose client does not keep up with its messages.
CLOSE_TOO_SLOW = 4408


class OutgoingFrames:
    """The outgoing side of `SiteSocket` (which sets the attributes below when it opens)."""

    user: User | None
    hub: Hub | None
    seq: int
    # Frames waiting for the writer (None: close once the frames before it are sent).
    outbox: list[str | None]
    _closed: bool
    _close_code: int
    _writing: bool
    # Whether a command is being answered, and the frames held for its answer.
    _answering: bool
    _held: list[str] | None
    _send_now: Callable[[list[str]], bool] | None
    base_send: Callable[[dict[str, Any]], Any]

    if TYPE_CHECKING:
        # Defined by `SiteSocket` and channels' consumer.

        async def close(self, code: int | None = None) -> None: ...
        async def _teardown(self) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        """Queue an envelope for this socket (never blocks), without the lines its player muted."""
        shown = muting.for_reader(kind, payload, self.muted)
        if shown is not None:
            self.push_json(kind, envelope.encode_payload(shown))

    @property
    def muted(self) -> frozenset[int]:
        """Whose lines this socket's player muted (the hub skips them in broadcasts)."""
        if self.user is None or self.hub is None:
            return muting.NOBODY
        return self.hub.mutes.of(self.user.pk)

    def push_json(self, kind: str, payload_json: str) -> None:
        """Queue an envelope whose payload is already JSON text (the hub encodes a broadcast once),
        written by `envelope.encode_payload` (so UTF-8 can carry it)."""
        if self._closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            log.warning("closing a socket that does not keep up with its messages")
            self._finish(CLOSE_TOO_SLOW, drop_queue=True)
            return
        self.seq += 1
        self._queue_frame(envelope.frame(kind, self.seq, payload_json))

    def hold_frames(self) -> None:
        """Hold this socket's frames from now until the running command is answered, and write them
        with the answer (see `Connection.hold_frames`).

        Why: a table publishes a play to the player's own socket a moment before the socket
        acknowledges the play; written apart, they cost two system calls, a fifth of all the writes
        a play makes. Only a command being answered holds: its answer always releases them, and a
        full hold (`HELD_LIMIT`) or a close lets them go at once."""
        if self._answering and self._held is None and not self._closed:
            self._held = []

    def _release_held(self) -> None:
        held, self._held = self._held, None
        if held and not self._closed:
            self._send_frames(held)

    def _queue_frame(self, text: str | None) -> None:
        """Send a frame (None: close once the frames before it are sent), after any held ones."""
        if self._held is not None:
            if text is not None and len(self._held) < HELD_LIMIT:
                self._held.append(text)
                return
            self._release_held()
        if text is None:
            self._enqueue([None])
        else:
            self._send_frames([text])

    def _send_frames(self, texts: list[str]) -> None:
        if not self._writing and self._send_now is not None:
            # Nothing is waiting before them: written now, in one write and without a writer task,
            # if the transport takes them (any doubt, and they go the writer's way, which handles
            # every case).
            try:
                if self._send_now(texts):
                    return
            except Exception:  # the transport failed under the write: the client is gone
                log.info("a socket's transport failed while writing; closing it", exc_info=True)
                self.outbox.clear()
                self._spawn(self._teardown())
                return
        self._enqueue(texts)

    def _enqueue(self, items: Sequence[str | None]) -> None:
        self.outbox.extend(items)
        if not self._writing:
            self._writing = True
            self._spawn(self._write())

    def _finish(self, code: int, *, drop_queue: bool = False) -> None:
        """Close after the queued envelopes are sent (or at once, dropping them, for a slow client)."""
        if drop_queue:
            self.outbox.clear()
            self._held = None
        if None not in self.outbox:
            self._queue_frame(None)
        self._close_code = code

    async def _write(self) -> None:
        """Send the queued frames in order, then end (the next frame starts a new writer)."""
        # Frames go straight to the server's `send` (nothing wraps it: realtime/entry.py). Their
        # text is always UTF-8-encodable: every payload was written by `envelope.encode_payload`.
        send = self.base_send
        try:
            while self.outbox:
                text = self.outbox.pop(0)
                if text is None:
                    self.outbox.clear()
                    await self.close(code=self._close_code)
                    await self._teardown()
                    return
                try:
                    await send({"type": "websocket.send", "text": text})
                except (ClientDisconnected, OSError):
                    # The client went away mid-send: an ordinary end, not a failure.
                    await self._teardown()
                    return
        finally:
            self._writing = False
