"""The one WebSocket endpoint (/ws/): authenticated by the Django session, JSON envelopes both ways.

The consumer only parses, checks the session, calls services and queues envelopes; the rules live
in the services. Outgoing envelopes go through a bounded queue drained by one writer task, which
numbers them (`seq`) in the order they are sent; a client too slow to keep up is disconnected
rather than letting its queue grow without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.web.accounts import sessions
from amigos.web.accounts.models import User
from amigos.web.lobby import chat, presence
from amigos.web.realtime import envelope
from amigos.web.realtime.lobby_feed import TOPIC as LOBBY
from amigos.web.realtime.lobby_feed import LobbyFeed, get_lobby_feed, snapshot

log = logging.getLogger("amigos.realtime")

OUTBOX_LIMIT = 256
# Close codes (4000-4999 are for applications).
CLOSE_SIGNED_OUT = 4401
CLOSE_TOO_SLOW = 4408


def idle_check_interval() -> float:
    """How often a socket re-reads its session: a quarter of the idle timeout, at most the configured
    AMIGOS_IDLE_CHECK_SECONDS, never more often than twice a second."""
    return max(0.5, min(float(settings.AMIGOS_IDLE_CHECK_SECONDS), settings.AMIGOS_IDLE_TIMEOUT_SECONDS / 4))


def _post_chat(user: User, text: str) -> chat.ChatLine:
    return chat.post(user, text, timezone.now())


def _report_chat(user: User, message_id: int, comment: str) -> None:
    chat.report(user, message_id, comment, timezone.now())


def _open(user: User) -> None:
    presence.socket_opened(user, timezone.now())


def _close(user_id: int) -> None:
    presence.socket_closed(user_id, timezone.now())


def _heartbeat(user_id: int) -> None:
    presence.heartbeat(user_id, timezone.now())


def _end(session_key: str | None, user_id: int) -> None:
    sessions.end(session_key)
    presence.sign_out(user_id)


def _recent_chat() -> list[dict[str, object]]:
    return [line.as_payload() for line in chat.recent()]


db_verdict = database_sync_to_async(sessions.verdict)
db_touch = database_sync_to_async(sessions.touch)
db_post_chat = database_sync_to_async(_post_chat)
db_report_chat = database_sync_to_async(_report_chat)
db_open = database_sync_to_async(_open)
db_close = database_sync_to_async(_close)
db_heartbeat = database_sync_to_async(_heartbeat)
db_end = database_sync_to_async(_end)
db_recent_chat = database_sync_to_async(_recent_chat)


class SiteSocket(AsyncWebsocketConsumer):
    user: User | None = None
    session_key: str | None = None
    feed: LobbyFeed | None = None

    # --- connection lifecycle -------------------------------------------------------------------

    async def connect(self) -> None:
        self.seq = 0
        self._close_code = 1000
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX_LIMIT)
        self.tasks: list[asyncio.Task[None]] = []
        await self.accept()
        self.tasks.append(asyncio.get_running_loop().create_task(self._write()))
        user = self.scope.get("user")
        session = self.scope.get("session")
        if not isinstance(user, User) or session is None:
            self.push("error", {"code": "unauthenticated", "message": _("Please sign in first.")})
            self._finish(CLOSE_SIGNED_OUT)
            return
        self.session_key = session.session_key
        verdict = await db_verdict(self.session_key, user.pk, time.time())
        if verdict.state is not sessions.State.ACTIVE:
            await self._sign_out(verdict, user.pk)
            return
        self.user = user
        await db_open(user)
        self.push(
            "welcome",
            {
                "user": {"id": user.pk, "name": user.display_name},
                "heartbeat_seconds": settings.AMIGOS_HEARTBEAT_SECONDS,
                "idle_timeout_seconds": settings.AMIGOS_IDLE_TIMEOUT_SECONDS,
            },
        )
        self.push("presence", {"players": await snapshot()})
        self.push("chat.history", {"messages": await db_recent_chat()})
        self.feed = get_lobby_feed()
        await self.feed.attach(self)
        self.tasks.append(asyncio.get_running_loop().create_task(self._watch()))

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            task.cancel()
        if self.feed is not None:
            await self.feed.hub.leave(LOBBY, self)
        if self.user is not None:
            await db_close(self.user.pk)
            if self.feed is not None:
                await self.feed.announce()
            self.user = None

    # --- outgoing -------------------------------------------------------------------------------

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        """Queue an envelope for this socket (called by the hub too; never blocks)."""
        self.seq += 1
        try:
            self.outbox.put_nowait(envelope.encode(kind, self.seq, payload))
        except asyncio.QueueFull:
            log.warning("closing a socket that does not keep up with its messages")
            self._finish(CLOSE_TOO_SLOW, drop_queue=True)

    def _finish(self, code: int, *, drop_queue: bool = False) -> None:
        """Close after the queued envelopes are sent (or at once, dropping them, for a slow client)."""
        if drop_queue:
            while not self.outbox.empty():
                self.outbox.get_nowait()
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)
        self._close_code = code

    async def _write(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.close(code=self._close_code)
                return
            await self.send(text_data=text)

    # --- the idle and suspension watchdog ---------------------------------------------------------

    async def _watch(self) -> None:
        while self.user is not None:
            await asyncio.sleep(idle_check_interval())
            user_id = self.user.pk
            verdict = await db_verdict(self.session_key, user_id, time.time())
            if verdict.state is not sessions.State.ACTIVE:
                await self._sign_out(verdict, user_id)
                return

    async def _sign_out(self, verdict: sessions.Verdict, user_id: int) -> None:
        # From here on this socket speaks for nobody: later commands (a heartbeat already on its
        # way) must not bring the presence back.
        was_open = self.user is not None
        self.user = None
        if verdict.state in (sessions.State.IDLE, sessions.State.SUSPENDED):
            await db_end(self.session_key, user_id)
        elif was_open:
            await db_close(user_id)
        if self.feed is not None:
            await self.feed.announce()
        payload: dict[str, Any] = {"reason": verdict.state.value}
        if verdict.suspended_until is not None:
            payload["suspended_until"] = verdict.suspended_until.isoformat()
        self.push("signed_out", payload)
        self._finish(CLOSE_SIGNED_OUT)

    # --- incoming -------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        ident: int | str | None = None
        try:
            message = envelope.parse(text_data if text_data is not None else bytes_data)
            ident = message.id
            handler = self.handlers.get(message.type)
            if handler is None:
                raise envelope.ProtocolError("unknown_type", f"unknown message type {message.type!r}", ident)
            if self.user is None:
                raise envelope.ProtocolError("unauthenticated", "this socket is not signed in", ident)
            result = await handler(self, message.payload)
        except envelope.ProtocolError as error:
            reply = error.reply_to if error.reply_to is not None else ident
            self.push("error", {"reply_to": reply, "code": error.code, "message": error.detail})
            return
        except chat.ChatRefused as refusal:
            self.push("error", {"reply_to": ident, "code": refusal.code, "message": refusal.message})
            return
        if result is not False:
            self.push("ack", {"reply_to": ident})

    async def _activity(self) -> bool:
        """Count a player's action on the idle clock; sign out instead if the session already lapsed."""
        assert self.user is not None
        verdict = await db_verdict(self.session_key, self.user.pk, time.time())
        if verdict.state is not sessions.State.ACTIVE:
            await self._sign_out(verdict, self.user.pk)
            return False
        await db_touch(self.session_key, self.user.pk, time.time())
        return True

    async def on_heartbeat(self, payload: dict[str, Any]) -> bool:
        assert self.user is not None
        await db_heartbeat(self.user.pk)
        return True

    async def on_chat_send(self, payload: dict[str, Any]) -> bool:
        text = payload.get("text")
        if not isinstance(text, str):
            raise envelope.ProtocolError("bad_payload", '"text" must be a string')
        if not await self._activity():
            return False
        assert self.user is not None and self.feed is not None
        line = await db_post_chat(self.user, text)
        await self.feed.hub.publish(LOBBY, "chat.message", line.as_payload())
        return True

    async def on_chat_report(self, payload: dict[str, Any]) -> bool:
        message_id = payload.get("message_id")
        comment = payload.get("comment", "")
        if isinstance(message_id, bool) or not isinstance(message_id, int):
            raise envelope.ProtocolError("bad_payload", '"message_id" must be an integer')
        if not isinstance(comment, str):
            raise envelope.ProtocolError("bad_payload", '"comment" must be a string')
        if not await self._activity():
            return False
        assert self.user is not None
        await db_report_chat(self.user, message_id, comment)
        return True

    handlers: ClassVar[dict[str, Callable[[SiteSocket, dict[str, Any]], Awaitable[bool]]]] = {
        "heartbeat": on_heartbeat,
        "chat.send": on_chat_send,
        "chat.report": on_chat_report,
    }
