"""A table's commands reach the process that runs it, wherever the player's socket is.

Each table command is an *operation*: ``op(actor, connection, payload) -> ack fields``, run inside
the actor. `run` finds the table (`registry.locate`): run here, it is an ordinary call; run by another
live process, the request goes to that process's topic on the bus (``tables.process.<identity>``)
with a request id and this process's identity, the owner runs the operation for a stand-in
connection (`Remote`) with the requesting socket's player id (never one from the payload), and its
answer comes back on our own process topic: the ack fields or the refusal, plus what the operation
pushed to the socket and the topics it joined. No answer in `AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS`
(a join: a lease's length, `lease.join_forward_timeout`): ``busy``, and the client tries again.

Topics are joined here, on the socket's own process (events published by the owner reach it
through Redis). The table may move on while the join is on its way and after its answer, so a join
first listens with a buffer to every topic it may be handed (`_Heard`), then `_replay` pushes the
owner's snapshot or missed events, then what the buffers heard, each version once, and only then
hands the topics to the socket. (A topic first heard after the answer has the events stored since
read from the database instead: the actor stores before it publishes.)
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from amigos.web.realtime.commands import CommandError, Connection
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import lease, lobby, registry, rendering, store
from amigos.web.tables.actor import TableActor

log = logging.getLogger("amigos.tables")

REQUEST = "_tables.request"
REPLY = "_tables.reply"
# Hops before giving up when the lease moves while a request is on its way.
HOPS = 3
# How far apart two processes' clocks may be before an owner drops requests still waited for.
CLOCK_DRIFT_SECONDS = 1.0

Operation = Callable[[TableActor, Connection, dict[str, Any]], Awaitable[dict[str, Any]]]
_operations: dict[str, Operation] = {}
#: The operations that only a table in play needs: a table that ended is not rebuilt for them
#: (`registry.locate`'s ``ended``), they are refused with `table_not_found` instead.
_only_in_play: set[str] = set()


def operation(name: str, *, only_in_play: bool = False) -> Callable[[Operation], Operation]:
    """Register a table operation under ``name`` (the same code runs on every process).
    ``only_in_play``: news a table that ended has no use for, which must not bring its actor back."""

    def register(op: Operation) -> Operation:
        _operations[name] = op
        if only_in_play:
            _only_in_play.add(name)
        return op

    return register


def _ended_too(name: str) -> bool:
    """Whether operation ``name`` may bring back the actor of a table that ended."""
    return name not in _only_in_play


class Remote:
    """The connection an operation sees on the owning process: it records instead of sending."""

    def __init__(self, user_id: int, display_name: str = "") -> None:
        self._user_id = user_id
        self._display_name = display_name
        self.pushes: list[list[Any]] = []
        self.topics: list[str] = []
        self.loop = asyncio.get_running_loop()

    @property
    def user_id(self) -> int:
        return self._user_id

    @property
    def display_name(self) -> str:
        return self._display_name

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.pushes.append([kind, payload])

    def hold_frames(self) -> None:
        """Nothing to hold: the pushes are recorded and travel back with the answer anyway."""

    async def join(self, topic: str) -> None:
        if topic not in self.topics:
            self.topics.append(topic)

    async def leave(self, topic: str) -> None:
        if topic in self.topics:
            self.topics.remove(topic)

    async def activity(self) -> bool:
        return True

    @property
    def wants_lobby(self) -> bool:
        return False


class _Moved(Exception):
    """The process asked no longer holds the table: look it up again."""


class _TooLate(Exception):
    """The asker stopped waiting for this request before the owner's actor came to it."""


async def run(name: str, table_id: int, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Run operation ``name`` on the table, here or in the process that runs it."""
    op = _operations[name]
    for _ in range(HOPS):
        found = await registry.locate(table_id, connection.loop, ended=_ended_too(name))
        if found is None:
            raise CommandError("table_not_found", "no such table")
        if isinstance(found, TableActor):
            return await _here(found, op, connection, payload)
        heard = await _Heard.start(table_id) if name in JOINS else None
        try:
            try:
                reply = await _ask(found.owner, name, table_id, connection.user_id, payload)
            except _Moved:
                registry.sharing().leases.forget(table_id)
                continue
            # An owner that did not answer (`busy`) is still believed until the belief runs out (a
            # renewal period from its last answer): asking the database after each `busy` put a
            # statement on the database thread for each of the socket's retries, and at start-up,
            # when owners are late because that thread is queued, those retries queued it further.
            registry.sharing().leases.confirm(table_id, found.owner)
            await _replay(connection, table_id, reply, payload.get("since"), heard)
        finally:
            if heard is not None:
                await heard.stop()
        result = reply.get("result")
        return result if isinstance(result, dict) else {}
    raise CommandError("busy", "the table is changing hands; try again")


async def tell(name: str, table_id: int, connection: Connection, payload: dict[str, Any]) -> None:
    """Run operation ``name`` on the table without waiting for its answer when another process
    runs it: the request goes out with no address to answer to, and the owner sends nothing back.
    For news that is sent again anyway (a seat's heartbeat, every 20 s): at 300 tables across
    three hosts the heartbeats forwarded with `run` outnumbered the plays, and each answer was a
    publication, a message read and a future woken for nothing. A notice lost on its way (the
    table changing hands) is made good by the next one. Here (also when nobody ran the table and
    this process builds its actor), it is an ordinary call; no table: `table_not_found`."""
    found = await registry.locate(table_id, connection.loop, ended=_ended_too(name))
    if found is None:
        raise CommandError("table_not_found", "no such table")
    if isinstance(found, TableActor):
        await _here(found, _operations[name], connection, payload)
        return
    await get_hub().publish(
        registry.process_topic(found.owner),
        REQUEST,
        {
            "id": None,
            "reply_to": None,
            "op": name,
            "table_id": table_id,
            "user_id": connection.user_id,
            "payload": payload,
        },
    )


async def _here(
    actor: TableActor, op: Operation, connection: Connection, payload: dict[str, Any]
) -> dict[str, Any]:
    # The socket is the job's origin: what the table publishes to it while answering waits for
    # the answer, so that both leave in one write (`Connection.hold_frames`).
    return await actor.call(lambda: op(actor, connection, payload), origin=connection)


def _waits(name: str) -> float:
    """How long the asker waits for the owner's answer to operation ``name``."""
    return lease.join_forward_timeout() if name in JOINS else lease.forward_timeout()


async def _ask(owner: str, name: str, table_id: int, user_id: int, payload: dict[str, Any]) -> dict[str, Any]:
    waits = _waits(name)
    state = registry.sharing()
    request_id = secrets.token_hex(8)
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    state.replies[request_id] = answer
    try:
        await get_hub().publish(
            registry.process_topic(owner),
            REQUEST,
            {
                "id": request_id,
                "reply_to": state.leases.identity,
                "answer_by": time.time() + waits,
                "op": name,
                "table_id": table_id,
                "user_id": user_id,
                "payload": payload,
            },
        )
        reply = await asyncio.wait_for(answer, waits)
    except TimeoutError:
        raise CommandError("busy", "the table's process did not answer; try again") from None
    finally:
        state.replies.pop(request_id, None)
    error = reply.get("error")
    if isinstance(error, dict):
        if error.get("code") == "_moved":
            raise _Moved()
        raise CommandError(str(error.get("code")), str(error.get("message", "")))
    return reply


def on_message(kind: str, payload: dict[str, Any]) -> None:
    """The observer of this process's topic: requests to serve, answers to our own requests."""
    if kind == REQUEST:
        registry.keep(asyncio.get_running_loop().create_task(_serve(payload)))
    elif kind == REPLY:
        waiting = registry.sharing().replies.get(str(payload.get("id")))
        if waiting is not None and not waiting.done():
            waiting.set_result(payload)


registry.observe_processes(on_message)


async def _serve(request: dict[str, Any]) -> None:
    reply: dict[str, Any] = {"id": request.get("id")}
    try:
        op = _operations.get(str(request.get("op")))
        table_id, user_id = request.get("table_id"), request.get("user_id")
        if op is None or not isinstance(table_id, int) or not isinstance(user_id, int):
            raise CommandError("bad_payload", "unknown forwarded operation")
        if _given_up(request):
            return
        found = await registry.locate(table_id, ended=_ended_too(str(request.get("op"))))
        if _given_up(request):
            return
        if found is None:
            raise CommandError("table_not_found", "no such table")
        if not isinstance(found, TableActor):
            raise CommandError("_moved", found.owner)
        actor = found
        remote = Remote(user_id)
        payload = request.get("payload") or {}

        async def job() -> dict[str, Any]:
            # Asked once more when its turn in the actor's queue comes (a busy table's queue is
            # long at start-up): a join nobody waits for any more is not worked out for nobody.
            if _given_up(request):
                raise _TooLate()
            return await op(actor, remote, payload)

        reply["result"] = await actor.call(job)
        reply["pushes"] = remote.pushes
        reply["topics"] = remote.topics
    except _TooLate:
        return
    except CommandError as error:
        reply["error"] = {"code": error.code, "message": error.message}
    except Exception:
        log.exception("a forwarded table command failed")
        reply["error"] = {"code": "busy", "message": "the table could not answer; try again"}
    if request.get("reply_to") is None:
        return  # told, not asked (`tell`): nobody waits for an answer
    await get_hub().publish(registry.process_topic(str(request.get("reply_to"))), REPLY, reply)


def _given_up(request: dict[str, Any]) -> bool:
    """Whether the asker stopped waiting for this request's answer (`_ask`'s ``answer_by``, by the
    processes' clocks, kept in sync as the leases need): then it is not run at all.

    Why: the asker answers its socket `busy` when the owner is late, and the socket asks again; an
    owner that still ran every request it got late ran each command twice or more (the second
    time `stale_version` or a second join), and the work of requests nobody waited for made it
    later still. At start-up, with three hosts building 300 tables while 1,200 sockets joined,
    those joins were answered `busy` thousands of times and joining took minutes."""
    answer_by = request.get("answer_by")
    return isinstance(answer_by, (int, float)) and time.time() > answer_by + CLOCK_DRIFT_SECONDS


class _Buffer:
    """Listens to a topic for a socket until the socket takes the topic over."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, dict[str, Any]]] = []
        self.open = True

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        if self.open:
            self.heard.append((kind, payload))


#: The operations that join a table's topics: those topics are listened to before the owner is
#: asked (`_Heard`).
JOINS = frozenset({"table.join", "moderation.watch"})
#: The most seats a table has (each seat has a topic of its own).
SEATS = 4


class _Heard:
    """Every topic a join to the table may hand its socket (each seat's, the spectators', the
    chat's), listened to from before the join is sent to the owner until the socket has its own.

    Why: what the table publishes between the owner's answer and this process listening to the
    socket's topics never reaches it there, so `_replay` read the log after every forwarded join
    to find it: a statement on the database thread that each socket's opening and each table's
    commands share. With every socket joining at once those reads queued for seconds each (40
    tables across 3 hosts on a busy machine: 1.8 to 2.1 s a read, two thirds of them finding
    nothing; the joins were answered `busy` and asked again). A topic heard from before the owner
    was asked has missed nothing the join's answer lacks, so the log is not read at all. The
    topics the join does not hand over are let go again (a subscription each, on the bus, which
    takes them all at once: `Hub` subscribes topics side by side)."""

    def __init__(self, table_id: int) -> None:
        topics = [rendering.seat_topic(table_id, seat) for seat in range(SEATS)]
        topics += [rendering.watch_topic(table_id), rendering.chat_topic(table_id)]
        self.buffers = {topic: _Buffer() for topic in topics}

    @classmethod
    async def start(cls, table_id: int) -> _Heard:
        heard = cls(table_id)
        hub = get_hub()
        try:
            await asyncio.gather(*(hub.join(topic, buffer) for topic, buffer in heard.buffers.items()))
        except BaseException:
            await heard.stop()
            raise
        return heard

    async def stop(self) -> None:
        hub = get_hub()
        for buffer in self.buffers.values():
            buffer.open = False
        await asyncio.gather(*(hub.leave(topic, buffer) for topic, buffer in self.buffers.items()))


def _audience(table_id: int, topics: list[str]) -> tuple[bool, int | None]:
    """Whether the topics carry the table's events, and for which seat (None: spectators)."""
    for topic in topics:
        if topic == rendering.watch_topic(table_id):
            return True, None
        prefix = rendering.seat_topic(table_id, 0)[:-1]
        if topic.startswith(prefix) and topic[len(prefix) :].isdigit():
            return True, int(topic[len(prefix) :])
    return False, None


async def _replay(
    connection: Connection,
    table_id: int,
    reply: dict[str, Any],
    since: Any = None,
    heard: _Heard | None = None,
) -> None:
    """Push what the owner pushed, then join its topics here, with no event lost or doubled.

    The socket has what was pushed to it and no more: the events read from the log start after the
    version of the owner's snapshot or last pushed event (or the join's ``since`` when nothing was
    pushed), never after the answer's ``version``. That is the table's version once the operation
    ended, and a join commits events of its own after the snapshot (the seat back from away, and
    when it was the last one away, the turn's clock): they were published before this process
    listened to the seat's topic, so the log is the only way they reach the socket. Counting from
    the answer's version skipped them (issue 40: at 45 of 300 tables across three hosts the seat in
    turn never heard its clock start, and collected yellow cards until suspended).

    The log is read only for a topic first heard here, after the answer: the topics a join hands
    over were listened to from before it was sent (`_Heard`), and what they heard meanwhile is
    all the socket lacks."""
    pushes = [(str(kind), payload) for kind, payload in reply.get("pushes") or []]
    topics = [str(topic) for topic in reply.get("topics") or []]
    if not topics:
        for kind, payload in pushes:
            connection.push(kind, payload)
        return
    hub = get_hub()
    early = heard.buffers if heard is not None else {}
    buffers = {topic: early[topic] if topic in early else _Buffer() for topic in topics}
    # Side by side: each is a round trip to the bus when nobody here listens to the topic yet.
    late = [(topic, buffer) for topic, buffer in buffers.items() if topic not in early]
    await asyncio.gather(*(hub.join(topic, buffer) for topic, buffer in late))
    try:
        pushed: int | None = None
        for kind, payload in pushes:
            connection.push(kind, payload)
            if kind == "table.snapshot":
                pushed = max(pushed or 0, int(payload.get("version") or 0))
            elif kind == "table.events":
                versions = [int(event.get("version") or 0) for event in payload.get("events") or []]
                pushed = max([pushed or 0, *versions])
        if pushed is not None:
            last = pushed
        elif isinstance(since, int) and not isinstance(since, bool) and since >= 0:
            last = since  # up to date when it asked: the owner had nothing to send
        else:
            last = int((reply.get("result") or {}).get("version") or 0)
        events, audience = _audience(table_id, topics)
        if events and not all(topic in early for topic in topics):
            # A topic heard only from now on (none when `_Heard` listened): read what it missed.
            stored = await database_sync_to_async(store.rows_between)(table_id, last, 2**62)
            if stored:
                now = rendering.iso(timezone.now()) or ""
                connection.push("table.events", rendering.batch(table_id, stored, audience, now))
                last = stored[-1][0]
        for topic, buffer in buffers.items():
            # No await between closing the buffer and the socket's join adding it to the topic.
            buffer.open = False
            for kind, payload in buffer.heard:
                if kind == "table.events":
                    # Only the events after what the socket already has (a message heard while the
                    # log was read may hold some of both).
                    fresh = [
                        event
                        for event in payload.get("events") or []
                        if int(event.get("version") or 0) > last
                    ]
                    if not fresh:
                        continue
                    last = int(fresh[-1]["version"])
                    payload = {**payload, "events": fresh}
                connection.push(kind, payload)
            await connection.join(topic)
    finally:
        for topic, buffer in buffers.items():
            if topic not in early:  # those are let go by `_Heard.stop`
                await hub.leave(topic, buffer)


@operation("tables.wake")
async def _wake(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    await lobby.send_invitations(actor)
    return {}


async def wake(table_id: int) -> None:
    """A table was created outside its actor: load it, send its invitations or start it (in the
    process that runs it)."""
    await run("tables.wake", table_id, Remote(0), {})


@operation("tables.suspended")
async def _suspended(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    await actor.suspension_imposed(connection.user_id)
    return {}


async def tell_suspended(table_id: int, user_id: int) -> None:
    """The account of ``user_id`` was just suspended from outside the table (a desk decision, an
    administrator; `services.suspension_imposed`): the table, in the process that runs it, looks
    the suspension up itself and ends a match under way (`TableActor.suspension_imposed`). The
    stand-in connection is the suspended player's: no socket sends this, only a service of ours."""
    await run("tables.suspended", table_id, Remote(user_id), {})


def wake_soon(table_id: int) -> None:
    """From any thread: have the server's loop wake the table (nothing to do if no server runs)."""
    _soon(lambda: wake(table_id), f"table {table_id} could not be woken")


def tell_suspended_soon(table_id: int, user_id: int) -> None:
    """From any thread: have the server's loop tell the table of a suspension (`tell_suspended`;
    nothing to do if no server runs: a table rebuilt later looks at its seats' sockets afresh)."""
    _soon(lambda: tell_suspended(table_id, user_id), f"table {table_id} could not be told of a suspension")


def _soon(work: Callable[[], Awaitable[None]], failure: str) -> None:
    """Run ``work`` on the server's loop, from any thread, without waiting for it; a failure is
    logged as ``failure``."""
    loop = registry.server_loop()
    if loop is None or not loop.is_running():
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None

    async def logged() -> None:
        try:
            await work()
        except Exception:
            log.exception(failure)

    if running is loop:
        registry.keep(loop.create_task(logged()))
    else:
        # A fresh context: the caller's (a Django worker thread's) would make asgiref believe the
        # new task runs inside that thread and refuse its database calls.
        loop.call_soon_threadsafe(
            lambda: registry.keep(loop.create_task(logged())), context=contextvars.Context()
        )
