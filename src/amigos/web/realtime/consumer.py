"""The one WebSocket endpoint (/ws/): authenticated by the Django session, JSON envelopes both ways.

The socket knows the transport only; what a command does is the business of the feature that
registered it (`amigos.web.realtime.commands`). Why it is built the way it is:

* Outgoing envelopes go through a bounded queue drained by one writer task, which numbers them
  (`seq`) in the order they are sent; a client too slow to keep up is disconnected rather than
  letting its queue grow without bound (`amigos.web.realtime.outgoing`).
* Incoming frames are charged to the socket's budget of characters and parsing time before they
  are parsed (`limits.FrameBudget`), commands are rate limited (a token bucket, refused before any
  database work), and both refusals count towards closing the socket as a flood. Commands are then
  queued on a small bounded queue of their own, run one at a time by the socket's worker task: one
  socket never has more than one command's database work in flight, so a flooding account cannot
  starve the others, and a closed socket's queued commands are dropped, not run.
* Both queues are plain lists, and their tasks exist only while something waits in them: a socket
  at a table is idle nearly all the time, and with thousands of sockets two `asyncio.Queue`s (four
  deques each) and two parked tasks apiece were a large part of a live table's memory. For the same
  reason the socket reads its frames itself (`__call__`) rather than through channels' dispatcher,
  which wrapped every frame's read in a task of its own.
* The socket is opened from `amigos.web.realtime.entry` with a small scope (the session cookie's
  key and the query string), and loads its session and player in its opening's one trip to the
  database thread.
* The session (idle clock, suspension, sign-out elsewhere) is checked for all of a process's
  sockets together (`amigos.web.realtime.watchdog`), not by a task per socket.
* Whatever fails inside a socket (a handler's bug, a broken writer, the bus), the socket is closed
  and fully removed: hub topics, presence counter, tasks. A half-dead socket costs the database
  forever, so there is exactly one way out (`_teardown`) and every path takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from uvicorn.protocols.utils import ClientDisconnected

from amigos.web.accounts import sessions
from amigos.web.accounts.models import User
from amigos.web.operations import metrics
from amigos.web.realtime import commands, entry, envelope, presence_hooks
from amigos.web.realtime.hub import Hub, get_hub
from amigos.web.realtime.limits import FrameBudget, TokenBucket
from amigos.web.realtime.outgoing import OutgoingFrames
from amigos.web.realtime.protocol import SiteSocketProtocol
from amigos.web.realtime.watchdog import activity_window, session_watch

log = logging.getLogger("amigos.realtime")

# Commands waiting for the socket's worker; more than this and the socket is flooding.
INBOX_LIMIT = 16
# Close codes (4000-4999 are for applications).
CLOSE_SIGNED_OUT = 4401
CLOSE_TOO_MANY_SOCKETS = 4429
CLOSE_FLOODING = 4429
CLOSE_INTERNAL = 1011
#: What times a frame's parse for the socket's budget (`limits.FrameBudget`): the thread's CPU time,
#: which a preemption in the middle of a parse does not inflate; a test may slow it.
frame_clock: Callable[[], float] = time.thread_time


@dataclass(frozen=True)
class Opening:
    """What a socket's opening learned: whose it is (None: no valid session) and whether that
    player's session may go on; ``counted`` when the socket already counts in the presence."""

    user: User | None
    session_key: str | None
    verdict: sessions.Verdict
    counted: bool = False


def _open(session_key: str | None, now: float) -> Opening:
    """A socket's opening in one trip to the database thread, which every opening waits for (at a
    thousand tables, four thousand openings queued there): the session and its player, the verdict
    on them, and, if the session may go on, the socket counted in the player's presence. The
    session watch reads the session afresh from then on."""
    found = sessions.signed_in(session_key)
    if found is None:
        return Opening(None, None, sessions.Verdict(sessions.State.SIGNED_OUT))
    user, session = found
    verdict = sessions.verdict_of(dict(session.items()), user, now)
    if verdict.state is not sessions.State.ACTIVE:
        return Opening(user, session.session_key, verdict)
    presence_hooks.hooks().opened(user, timezone.now())
    return Opening(user, session.session_key, verdict, counted=True)


def _close(user_id: int) -> None:
    presence_hooks.hooks().closed(user_id, timezone.now())


def _end(session_key: str | None, user_id: int) -> None:
    sessions.end(session_key)
    presence_hooks.hooks().signed_out(user_id)


db_verdict = database_sync_to_async(sessions.verdict)
db_touch = database_sync_to_async(sessions.touch)
db_open = database_sync_to_async(_open)
db_close = database_sync_to_async(_close)
db_end = database_sync_to_async(_end)


async def announce_presence(hub: Hub) -> None:
    """Tell every process the online list changed (never raises: the periodic refresh catches up)."""
    await presence_hooks.hooks().announce(hub)


class SiteSocket(OutgoingFrames, AsyncWebsocketConsumer):
    # The fields the socket and its frames set are slots: past 30 names an object's attribute dict
    # stops sharing its keys with the class's other objects, and this one had 33, about 1.3 KB a
    # socket (see `SiteSocketProtocol`). The dict keeps those with a class default and channels'.
    __slots__ = (
        "_acted_at",
        "_activity_at",
        "_answering",
        "_close_code",
        "_closed",
        "_closing",
        "_counted",
        "_failing",
        "_held",
        "_hooks_run",
        "_registered_as",
        "_working",
        "_writing",
        "base_send",
        "bucket",
        "channel_layer",
        "frame_budget",
        "inbox",
        "loop",
        "outbox",
        "patience",
        "scope",
        "seq",
        "tasks",
        "topics",
    )
    user: User | None = None
    session_key: str | None = None
    hub: Hub | None = None
    #: uvicorn's protocol as the site runs it, which hands over received messages at once once the
    #: socket is open (`SiteSocketProtocol.take_message`); None under another server.
    _protocol: SiteSocketProtocol | None = None
    #: Writes frames at once when the transport takes them (`SiteSocketProtocol.send_texts_now`).
    _send_now: Callable[[list[str]], bool] | None = None

    # --- connection lifecycle -------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Read the socket's events one after another and dispatch each.

        Channels' own `__call__` reads through `await_many_dispatch`, built to listen to a channel
        layer as well: it wraps every read in a new task and waits on it with `asyncio.wait`. The
        site has no channel layer (the hub is its own bus), so a plain loop does the same work
        without a task per frame, one parked per socket."""
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        # The socket's loop, kept: Python 3.11's `asyncio.get_running_loop()` makes a system call
        # (getpid) on every call, and a socket starts a task for every command it answers.
        self.loop = asyncio.get_running_loop()
        # uvicorn's protocol as the site runs it can write a frame at once (`_queue_frame`);
        # another server (a test's) goes through `send` alone.
        server = getattr(send, "__self__", None)
        self._protocol = server if isinstance(server, SiteSocketProtocol) else None
        self._send_now = self._protocol.send_texts_now if self._protocol is not None else None
        with contextlib.suppress(StopConsumer):
            while True:
                await self.dispatch(await receive())

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.seq = 0
        self._close_code = 1000
        self._closed = False
        self._hooks_run = False
        self._closing = False
        self._failing: asyncio.Task[None] | None = None
        self._counted = False
        self._activity_at = 0.0  # when this socket last recorded an action on the idle clock
        self._acted_at: float | None = None  # its latest action not yet on the idle clock
        self._registered_as: int | None = None  # the player whose socket count this socket is in
        # Frames waiting for the writer (None: close once the frames before it are sent), and
        # commands waiting for the worker; each task runs only while its list has something.
        self.outbox: list[str | None] = []
        self.inbox: list[envelope.ClientMessage | envelope.ProtocolError] = []
        self._writing = False
        self._working = False
        # Whether a command is being answered, and the frames held for its answer (`hold_frames`).
        self._answering = False
        self._held: list[str] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.topics: set[str] = set()
        self.bucket = TokenBucket(
            settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND, settings.AMIGOS_SOCKET_COMMAND_BURST
        )
        self.frame_budget = FrameBudget(
            settings.AMIGOS_SOCKET_CHARS_PER_SECOND,
            settings.AMIGOS_SOCKET_CHARS_BURST,
            settings.AMIGOS_SOCKET_PARSE_MS_PER_SECOND / 1000,
            settings.AMIGOS_SOCKET_PARSE_MS_BURST / 1000,
            time.monotonic,
            frame_clock,
        )
        # Refusals a socket may collect (one a second comes back) before it is closed as a flood:
        # answering a client that ignores `rate_limited` would cost the server without end.
        self.patience = TokenBucket(1, settings.AMIGOS_SOCKET_COMMAND_BURST)
        await super().websocket_connect(message)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Every event of the socket passes here: an exception ends the socket cleanly, never leaves
        it registered (channels would otherwise drop the connection without calling disconnect)."""
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"no handler for message type {message.get('type')!r}")
            # Not channels' own dispatch: it hops to the database thread to close old connections
            # before every frame, which under load was a third of that thread's work. Every
            # database call here goes through database_sync_to_async, which does that itself.
            await handler(message)
        except StopConsumer:
            raise
        except ClientDisconnected:
            await self._teardown()  # the client left while we were talking to it: no fault
            raise StopConsumer() from None
        except Exception:
            log.exception("a socket failed while handling %s; closing it", message.get("type"))
            await self._fail()
            raise StopConsumer() from None

    async def connect(self) -> None:
        await self.accept()
        self.hub = get_hub(self.loop)
        # The process's counters left by a dead process are swept before its first socket counts.
        await presence_hooks.hooks().prepare(self.hub)
        opening = await db_open(self.scope.get(entry.SESSION_KEY), time.time())
        user = opening.user
        if user is None:
            self.push("error", {"code": "unauthenticated", "message": _("Please sign in first.")})
            self._finish(CLOSE_SIGNED_OUT)
            return
        if self.hub.sockets_of(user.pk) >= settings.AMIGOS_SOCKETS_PER_PLAYER:
            if opening.counted:
                await db_close(user.pk)
            self.push(
                "error",
                {"code": "too_many_sockets", "message": _("Too many pages are open; close some and retry.")},
            )
            self._finish(CLOSE_TOO_MANY_SOCKETS)
            return
        # No await between the count above and this: two openings of one player cannot both pass.
        self.hub.socket_opened(user.pk)
        self._registered_as = int(user.pk)
        self.session_key = opening.session_key
        if opening.verdict.state is not sessions.State.ACTIVE:
            await self._sign_out(opening.verdict, user.pk)
            return
        self.user = user
        for hook in commands.welcome_hooks():
            await hook(self)
        self.push(
            "welcome",
            {
                "user": {"id": user.pk, "name": user.display_name},
                "heartbeat_seconds": settings.AMIGOS_HEARTBEAT_SECONDS,
                "idle_timeout_seconds": settings.AMIGOS_IDLE_TIMEOUT_SECONDS,
            },
        )
        for hook in commands.open_hooks():
            await hook(self)
        await announce_presence(self.hub)
        session_watch(self.hub).add(self)
        if self._protocol is not None and not self._closed:
            # From now on the protocol hands each message straight to `_take_now`.
            self._protocol.take_message = self._take_now

    async def disconnect(self, code: int) -> None:
        await self._teardown()

    async def _teardown(self) -> None:
        """Remove every trace of the socket in this process and the database (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._protocol is not None:
            self._protocol.take_message = None  # it and this socket referred to each other
        current = asyncio.current_task()
        for task in list(self.tasks):
            if task is not current:
                task.cancel()
        self.inbox.clear()  # a closed socket's queued commands are dropped, never run
        hub = self.hub
        await self._run_close_hooks()
        if hub is not None:
            session_watch(hub).discard(self)
            for topic in list(self.topics):
                with contextlib.suppress(Exception):
                    await hub.leave(topic, self)
            if self._registered_as is not None:
                hub.socket_closed(self._registered_as)
        self.topics.clear()
        if self.user is not None:
            user_id = self.user.pk
            self.user = None
            try:
                await db_close(user_id)
            except Exception:
                log.exception("could not record that a socket of player %s closed", user_id)
            if hub is not None:
                await announce_presence(hub)

    async def _fail(self) -> None:
        """A bug or a broken dependency inside the socket: clean up, then close with 1011."""
        await self._teardown()
        with contextlib.suppress(Exception):
            await self.close(code=CLOSE_INTERNAL)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closed:
            work.close()
            return
        task = self.loop.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """A socket task ended: if it failed, the socket fails with it (closed and removed)."""
        self.tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        log.error("a socket task failed; closing the socket", exc_info=task.exception())
        self._fail_soon()

    def _fail_soon(self) -> None:
        """`_fail` from code that cannot wait for it (a callback)."""
        self._failing = self.loop.create_task(self._fail())  # kept until it is done

    # --- the idle and suspension watchdog ---------------------------------------------------------

    def watched_session(self) -> tuple[str | None, int] | None:
        """For the process's session watchdog: whose session this socket speaks for, if anyone's."""
        return (self.session_key, self.user.pk) if self.user is not None else None

    def action_time(self) -> float | None:
        return self._acted_at

    def action_recorded(self, at: float) -> None:
        if self._acted_at == at:
            self._acted_at = None

    async def session_lapsed(self, verdict: sessions.Verdict) -> None:
        if self.user is not None:
            await self._sign_out(verdict, self.user.pk)

    async def _run_close_hooks(self) -> None:
        """Tell the apps the socket's player is gone from it (a seated table counts the seat away),
        while the socket still says whose it was; once per socket."""
        if self.user is None or self._hooks_run:
            return
        self._hooks_run = True
        for hook in commands.close_hooks():
            try:
                await hook(self)
            except Exception:
                log.exception("a close hook failed for a socket of player %s", self.user.pk)

    async def _sign_out(self, verdict: sessions.Verdict, user_id: int) -> None:
        # From here on this socket speaks for nobody: later commands (a heartbeat already on its
        # way) must not bring the presence back. The close hooks run first (regression: a socket
        # signed out for a suspension left its table believing the player was still there).
        was_open = self.user is not None
        await self._run_close_hooks()
        self.user = None
        self.inbox.clear()
        if verdict.state in (sessions.State.IDLE, sessions.State.SUSPENDED):
            await db_end(self.session_key, user_id)
        elif was_open:
            await db_close(user_id)
        if self.hub is not None:
            await announce_presence(self.hub)
        payload: dict[str, Any] = {"reason": verdict.state.value}
        if verdict.suspended_until is not None:
            payload["suspended_until"] = verdict.suspended_until.isoformat()
        self.push("signed_out", payload)
        self._finish(CLOSE_SIGNED_OUT)

    # --- the Connection that command handlers see (amigos.web.realtime.commands) -------------------

    @property
    def user_id(self) -> int:
        if self.user is None:
            raise commands.CommandError("unauthenticated", "this socket is not signed in")
        return int(self.user.pk)

    @property
    def wants_lobby(self) -> bool:
        query = parse_qs(bytes(self.scope.get("query_string", b"")).decode("latin-1"))
        return query.get("lobby", ["1"])[-1] != "0"

    @property
    def display_name(self) -> str:
        if self.user is None:
            raise commands.CommandError("unauthenticated", "this socket is not signed in")
        return str(self.user.display_name)

    async def join(self, topic: str) -> None:
        """Subscribe to a topic of the hub; every topic is left when the socket closes."""
        if self._closed or self.hub is None or topic in self.topics:
            return
        self.topics.add(topic)
        await self.hub.join(topic, self)

    async def leave(self, topic: str) -> None:
        if topic in self.topics and self.hub is not None:
            self.topics.discard(topic)
            await self.hub.leave(topic, self)

    async def activity(self) -> bool:
        """Count a player's action on the idle clock; sign out instead if the session already lapsed."""
        if self.user is None:
            return False
        self._counted = True
        now = time.time()
        if now - self._activity_at < activity_window():
            # Recorded a moment ago: a player laying tiles or chatting costs no session reads and
            # writes per action (they were most of a play's database work); the watchdog still
            # catches a lapsed session between two recordings.
            return True
        verdict = await db_verdict(self.session_key, self.user.pk, now)
        if verdict.state is not sessions.State.ACTIVE:
            await self._sign_out(verdict, self.user.pk)
            return False
        await db_touch(self.session_key, self.user.pk, now)
        self._activity_at = now
        return True

    def _note_action(self) -> None:
        """Note the action for the idle clock; the process's session check writes it with every
        other socket's (`watchdog.SessionWatch.check`), and judges the session with it meanwhile.

        Regression: each socket recorded its own, on the database thread, once per window; at 300
        tables the sockets that opened together recorded together every 30 s and held each one's
        next play for up to 2.6 s, and at a thousand tables the recordings were a sixth of the
        server's time (bench/load.py)."""
        self._acted_at = time.time()

    def signed_in(self) -> bool:
        return self.user is not None

    def current_user(self) -> User | None:
        """The signed-in player (read through a call: it changes while the socket awaits)."""
        return self.user

    # --- incoming -------------------------------------------------------------------------------

    def _refuse(self, error: envelope.ProtocolError, ident: int | str | None = None) -> None:
        reply = error.reply_to if error.reply_to is not None else ident
        self.push("error", {"reply_to": reply, "code": error.code, "message": error.detail})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A message that came through uvicorn's queue (while the socket opened, or under another
        server): taken as the protocol hands over the others (`_take`)."""
        self._take(text_data, bytes_data)

    def _take_now(self, text_data: str | None, bytes_data: bytes | None) -> None:
        """A message the protocol hands over as it arrives, in its `data_received`: a failure here
        ends the socket as a failure in `dispatch` does, and never reaches the protocol."""
        try:
            self._take(text_data, bytes_data)
        except Exception:
            log.exception("a socket failed while taking a message; closing it")
            if self._failing is None:
                self._fail_soon()

    def _take(self, text_data: str | None, bytes_data: bytes | None) -> None:
        """Charge, parse, rate limit and queue; the worker runs the commands. Nothing here touches
        the database, so a flood costs only this."""
        if self._closed or self._closing:
            return
        data = text_data if text_data is not None else bytes_data
        started = self.frame_budget.admit(len(data) if data is not None else 0)
        if started is None:  # refused unread: its id is not known
            self._limited(envelope.ProtocolError("rate_limited", "your messages cost too much; slow down"))
            return
        try:
            item: envelope.ClientMessage | envelope.ProtocolError = envelope.parse(data)
        except envelope.ProtocolError as error:
            item = error
        self.frame_budget.charge(started)
        ident = item.id if isinstance(item, envelope.ClientMessage) else item.reply_to
        if not self.bucket.take():
            self._limited(envelope.ProtocolError("rate_limited", "too many messages; slow down", ident))
            return
        if self.user is None and isinstance(item, envelope.ClientMessage):
            item = envelope.ProtocolError("unauthenticated", "this socket is not signed in", ident)
        if len(self.inbox) >= INBOX_LIMIT:
            self._refuse(
                envelope.ProtocolError("rate_limited", "too many messages waiting; slow down", ident)
            )
            return
        self.inbox.append(item)
        if not self._working:
            self._working = True
            self._spawn(self._work())

    def _limited(self, error: envelope.ProtocolError) -> None:
        """Refuse a frame over a limit; close the socket once it has ignored too many refusals."""
        self._refuse(error)
        if not self.patience.take():
            log.warning("closing a socket that keeps sending after being rate limited")
            self._finish(CLOSE_FLOODING, drop_queue=False)
            self._closing = True

    async def _work(self) -> None:
        """Run the queued commands one at a time, in the order they arrived, then end (the next
        command starts a new worker)."""
        try:
            while self.inbox:
                item = self.inbox.pop(0)
                if isinstance(item, envelope.ProtocolError):
                    self._refuse(item)
                else:
                    await self._run(item)
        finally:
            self._working = False

    async def _run(self, message: envelope.ClientMessage) -> None:
        """Answer one command; what was held for the answer (`hold_frames`) leaves with it."""
        self._answering = True
        started = time.perf_counter()
        try:
            await self._answer(message)
        finally:
            self._answering = False
            self._release_held()
            metrics.command_done(message.type, started)

    async def _answer(self, message: envelope.ClientMessage) -> None:
        ident = message.id
        try:
            found = commands.find(message.type)
            if found is None:
                raise envelope.ProtocolError("unknown_type", f"unknown message type {message.type!r}")
            if self.user is None:
                raise envelope.ProtocolError("unauthenticated", "this socket is not signed in")
            self._counted = False
            extra = await found.handler(self, message.payload)
            if found.activity and not self._counted and self.user is not None:
                # A player's action whose handler did not check the idle clock itself.
                self._note_action()
        except envelope.ProtocolError as error:
            self._refuse(error, ident)
            return
        except commands.CommandError as refusal:
            self.push("error", {"reply_to": ident, "code": refusal.code, "message": refusal.message})
            return
        if not self.signed_in():
            return  # signed out while the command ran: a lapsed session gets no answer
        self.push("ack", {**(extra or {}), "reply_to": ident})
