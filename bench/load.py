"""Live tables under load, over real sockets.

    python bench/load.py --tables N --rate R --seconds S [--closed] [--bot-tables B]
                         [--database postgresql://...] [--json] [--quick] [--client-processes P]
                         [--timeline]

Starts its own server (`amigos serve`, production settings, SQLite in a scratch directory unless
--database names another database), creates N four-seat Amigos tables whose seats are all people
(every seat a client over its own WebSocket) and B tables of one client against three hard
computer players, starts them, and lets every client play the first legal play offered when its
turn comes: after a wait drawn between 0.5/R and 1.5/R seconds (about R plays per second per
table), or at once with --closed. The clients run in P processes (default 2), each with whole
tables: one Python process could not keep up with a thousand tables' sockets, and its own delays
counted as the server's. Every play is durable before it is broadcast (the table server's rule).
It prints JSON:

* `tables`, `bot_tables`, `plays` (acknowledged plays by the human tables), `plays_per_second`;
* `p50_ms`, `p99_ms` — from a client sending a play to the `played` event reaching each of the
  other three seats of its table;
* `memory_per_table_kb` — the server's resident memory after the tables started, less before,
  per table (human and computer tables alike);
* `errors` — refused commands other than `stale_version` (a race the protocol expects);
* `rematches` — matches that ended during the run (counted from the start of the clients) and
  went on at a rematch table: every seat votes for one and follows it there;
* `server_cpu_ms_per_play` — the server process's CPU over the measure, per play (not its workers':
  the computer players' and, on PostgreSQL, the archive's);
* `clients_cpu_ms_per_play` — the client processes' CPU over the same seconds, per play: they
  share the machine with the server, so what they spend is taken from it;
* `machine_loop_ns` — one turn of a plain loop on this machine (its speed, to compare days);
* `second_half_plays_per_second` — the same over the measure's second half only: in a closed
  loop the first matches end some ten seconds in, and from then on every table spends part of its
  time ending a match, voting and starting the next, so the second half reads that steady state;
* `second_half_server_cpu_ms_per_play` — `server_cpu_ms_per_play` over the second half only (the
  steady state's cost of a play, matches ending included);
* `timeline` (with --timeline) — the latencies' count, p50, p99 and maximum, second by second.

Goals (issue 9, one process on PostgreSQL): 1,000 tables at 1 play/s with p99 ≤ 50 ms; closed
loop ≥ 2,000 durable plays/s; ≤ 150 KB per table; with 50 hard computer tables the same p99.
`--quick` runs 4 tables for a few seconds (CI: it checks the bench runs; its figures judge nothing,
but it fails when a socket never joined, no play was acknowledged or a command was refused).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lobby as lobby_bench
from amigos.bench.commits import Commit, CommitProbe, slowest_by_second
from amigos.bench.commits import summary as commit_summary


def make_players(count: int) -> list[tuple[int, str]]:
    """N players with a live session each (made directly: no password hashing, no sign-in)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from amigos.web.accounts.identity import identifier_key, skeleton
    from amigos.web.accounts.models import User
    from amigos.web.accounts.services import LAST_ACTIVITY_KEY

    call_command("migrate", verbosity=0, interactive=False)
    made = []
    for n in range(count):
        user = User(email=f"mesa{n}@example.org", display_name=f"Mesa {n:05d}", password="!")  # noqa: S106
        # bulk_create skips save(), which fills the identity keys
        user.email_key, user.name_key = identifier_key(user.email), identifier_key(user.display_name)
        user.email_skeleton, user.name_skeleton = skeleton(user.email), skeleton(user.display_name)
        made.append(user)
    users = User.objects.bulk_create(made)
    result = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store[LAST_ACTIVITY_KEY] = time.time() + 3600  # active throughout the run
        store.create()
        assert store.session_key is not None
        result.append((int(user.pk), store.session_key))
    return result


def make_tables(
    players: list[tuple[int, str]], tables: int, bot_tables: int, kind: str = "live"
) -> list[tuple[int, list[int]]]:
    """Tables with every seat accepted, so the server starts them when it starts (no invitations);
    ``kind``: live, or correspondence (the soak's slow games)."""
    from django.utils import timezone

    from amigos.web.tables.models import Invitation, Seat, Table

    made = []
    now = timezone.now()
    index = 0
    for number in range(tables + bot_tables):
        humans = 4 if number < tables else 1
        seat_users = [players[index + seat][0] for seat in range(humans)]
        index += humans
        table = Table.objects.create(
            name=f"Mesa {number}",
            variant="amigos-100",
            players=4,
            target=100,
            organizer_id=seat_users[0],
            created_at=now,
            kind=kind,
        )
        Seat.objects.bulk_create(
            [
                Seat(
                    table=table,
                    number=seat,
                    user_id=seat_users[seat] if seat < humans else None,
                    level="" if seat < humans else "hard",
                    invitation=Invitation.ACCEPTED,
                )
                for seat in range(4)
            ]
        )
        made.append((table.pk, seat_users))
    return made


def sanctions() -> dict[str, Any]:
    """The cards the tables gave the seats and the accounts they suspended, read from the database
    after the run. The seats play their first legal tile at once, but on a loaded machine a turn
    can run out before the play arrives (or before the seat has its table): each such turn gives a
    yellow card, then another every 5 s, and 28 suspend the account for a week (docs/rules.md).
    The session check then signs the seat out (`signed_out` with reason `suspended`, close 4401)
    and ends its session, so its next socket is refused `unauthenticated` (issue 40)."""
    from django.db.models import Count

    from amigos.web.accounts.models import User
    from amigos.web.tables.models import Card

    counted = Card.objects.values_list("colour").annotate(Count("id")).order_by("colour")
    cards = {str(colour): int(number) for colour, number in counted}
    suspended = User.objects.filter(suspended_until__isnull=False).count()
    return {"cards": cards, "suspended_players": suspended}


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


#: The longest the sockets may take to open and join before the run goes on without the rest.
JOIN_GUARD_SECONDS = 600.0

#: How long a client waits for its socket to open (a browser waits minutes).
OPEN_TIMEOUT_SECONDS = 300.0

#: How long a client waits for the server to close its socket after the client's close frame.
CLOSE_TIMEOUT_SECONDS = 10.0

#: The events after which the turn last shown is over (the next one comes with its own clock).
TURN_ENDS = frozenset(
    {"played", "passed", "drew", "hand_ended", "hand_voided", "match_ended", "votes_closed"}
)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        # when each latency ended (perf_counter, the same clock in every process of the machine)
        self.arrivals: list[float] = []
        self.plays = 0
        # when each play was acknowledged (perf_counter), for the second half's rate
        self.acks: list[float] = []
        self.errors: list[str] = []
        # when each play was sent and the version it was sent against, by (table, tile): a tile is
        # laid once per hand, so an entry is the current hand's only when its version is not older
        # than the hand's start (a tile a seat laid in one hand can be a computer player's or the
        # system's play in a later one, which nobody here sent)
        self.pending: dict[tuple[int, str], tuple[float, int]] = {}
        # sockets that have their table's snapshot (measuring starts once every socket has it)
        self.joined = 0
        # sockets opened again after a failed opening or a lost connection, and the kinds of failure
        self.reconnects = 0
        self.failures: dict[str, int] = {}
        # matches that ended and were followed by a rematch table (counted by each seat's client)
        self.rematches = 0
        # acknowledged plays by the address of the host each seat's socket is on (--hosts)
        self.host_plays: dict[str, int] = {}


@dataclass
class Place:
    """Where a seat's client sits now: a rematch moves it to a new table, and maybe a new seat."""

    table: int
    seat: int
    host: tuple[str, int] | None = None  # (address, port) with --hosts; else the one server


class Pace:
    """The server's command limit, kept by the client (the server's own token bucket, with a
    lower rate and burst): a closed loop at a table whose server answers in a few milliseconds
    made one seat send over thirty plays in a quarter of a second, was refused with
    `rate_limited`, and its table then waited for the turn clock. A person cannot play ten tiles
    a second, so waiting here changes nothing the goals measure but the refusals."""

    def __init__(self, rate: float, burst: float) -> None:
        from amigos.web.realtime.limits import TokenBucket

        # with a margin: the frames reach the server later than they leave, some closer together
        self.bucket = TokenBucket(rate * 0.8, max(1.0, burst / 2))

    async def take(self) -> None:
        while not self.bucket.take():
            await asyncio.sleep((1 - self.bucket.tokens) / self.bucket.rate)


async def seat_client(
    plan: Plan, session: str, table: int, seat: int, stats: Stats, stop: asyncio.Event
) -> None:
    """One seat's client. Like a browser, it waits as long as the server takes to open its socket
    (the websockets library gives up after 10 s by default: at a thousand tables openings queued
    longer, their clients ended, and the bench waited for joins that never came), and it opens the
    socket again after a failure, waiting longer each time, as the table page does."""
    from websockets.exceptions import WebSocketException

    joined = [False]
    place = Place(table, seat, plan.seat_hosts.get((table, seat)) if plan.seat_hosts else None)
    pace = Pace(plan.command_rate, plan.command_burst)
    pause = 1.0
    while not stop.is_set():
        try:
            await _seat_session(plan, session, place, pace, stats, stop, joined)
            return
        except (OSError, TimeoutError, WebSocketException) as failure:
            stats.reconnects += 1
            kind = failure_kind(failure)
            stats.failures[kind] = stats.failures.get(kind, 0) + 1
            await asyncio.sleep(pause * random.uniform(0.5, 1.5))
            pause = min(pause * 2, 30.0)


def failure_kind(failure: BaseException) -> str:
    """What ended a socket, for the report: the exception's name, with the close code and reason
    when a close frame came (``ConnectionClosedError 1011 keepalive ping timeout``), so an
    overloaded run says which side gave up and why."""
    name = type(failure).__name__
    received = getattr(failure, "rcvd", None)
    if received is None:
        return name
    return f"{name} {received.code} {received.reason}".rstrip()


class SeatSocket(asyncio.Protocol):
    """One socket of a seat's client: websockets' sans-I/O protocol (`ClientProtocol`) driven
    straight from the transport's callbacks, each message handled as it is read.

    Why not the library's asyncio connection: the clients share the machine's two cores with the
    server they measure, and in a closed loop that connection's machinery (a future woken for
    each message, its assembler and queue, a lock and a drain for each send) was half of their
    work. The frames, masks, pings and closing handshake are still the library's.

    At a match's end the seat votes for a rematch, as players who stay do, and follows the vote to
    the new table: a table that stopped at its first match's end would leave the closed loop with
    fewer tables each second (at 300 tables, 291 had ended their match within 40 s, and the plays
    a second fell by half over the run).

    It keeps the table's versions as the page does (docs/protocol.md): an event that is not the
    one after the version it has means something was lost, and a play refused `stale_version`
    means the table moved on; either way it joins again with `since` and, caught up, plays its
    turn if it is still its own. So does a `resync`. Before, it only ever played on a snapshot or
    a clock event as they came: a seat whose clock event was lost (issue 40, a join forwarded
    between hosts) stayed silent for minutes while the card events that did come showed the gap,
    and a play refused `stale_version` was dropped for good."""

    def __init__(
        self,
        plan: Plan,
        place: Place,
        pace: Pace,
        stats: Stats,
        joined: list[bool],
        protocol: ClientProtocol,
        request: Request,
    ) -> None:
        self.plan, self.place, self.pace, self.stats, self.joined = plan, place, pace, stats, joined
        self.protocol = protocol
        self.request = request
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[None] = loop.create_future()
        self.heartbeat: asyncio.Future[float] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.ident = 0
        self.version = 0
        self.hand_from = 0  # the version of the current hand's `hand_started`, as this seat saw it
        self.synced = False  # has the table's snapshot: events count from `version` on
        self.turn: dict[str, Any] | None = None  # the turn's clock, as last shown (None: no turn)
        self.turn_at = 0  # the version of that clock event (or of the snapshot showing it)
        self.played_for: int | None = None  # the `turn_at` of the turn a play was sent for
        self.rejoining = False  # joined again with `since` and waiting for the answer
        self.plays_sent: set[int] = set()  # the ids of the plays not yet answered
        self.votes_sent: set[int] = set()  # and of the votes
        self.joins_sent: dict[int, dict[str, Any]] = {}  # and of the joins, with what they asked
        self.joins_refused = 0  # joins answered `busy` in a row (`_join_again` waits longer each time)
        self.tasks: set[asyncio.Task[None]] = set()
        self.parts: list[bytes] = []  # a fragmented message's frames so far

    # the transport's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.protocol.send_request(self.request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if self.protocol.handshake_exc is not None:
                    self._fail_opening(self.protocol.handshake_exc)
                elif not self.opened.done():
                    self.opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                self.parts.append(bytes(event.data))
                if event.fin:
                    raw, self.parts = b"".join(self.parts), []
                    self.on_message(raw)
        self._flush()

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.protocol.state is not State.CLOSED:
            self.protocol.receive_eof()
        self._fail_opening(exc or ConnectionError("the socket closed while opening"))
        if not self.lost.done():
            self.lost.set_result(None)
        for task in list(self.tasks):
            task.cancel()

    def _fail_opening(self, error: BaseException) -> None:
        if not self.opened.done():
            self.opened.set_exception(error)
            self.opened.exception()  # retrieved: the opener may have given up already

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            self.protocol.data_to_send()  # dropped: nobody reads them now
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()  # the protocol's end of its writing (after a close)

    # the seat's side

    def send(self, kind: str, payload: dict[str, Any]) -> None:
        """Send a command now, if the socket is open (a closed one is being replaced)."""
        if self.protocol.state is not State.OPEN:
            return
        self.ident += 1
        if kind == "table.play":
            self.plays_sent.add(self.ident)
        elif kind == "table.vote":
            self.votes_sent.add(self.ident)
        elif kind == "table.join":
            self.joins_sent[self.ident] = payload
        self.protocol.send_text(orjson.dumps({"type": kind, "id": self.ident, "payload": payload}))
        self._flush()

    async def send_paced(self, kind: str, payload: dict[str, Any]) -> None:
        await self.pace.take()
        self.send(kind, payload)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def play(self, turn: dict[str, Any], at_version: int) -> None:
        """Lay the first legal play offered: at once in a closed loop when the command limit
        allows it (a task for each play was a tenth of the clients' work), else after the wait."""
        self.played_for = self.turn_at
        if not self.plan.delay and self.pace.bucket.take():
            self._send_play(turn, at_version)
        else:
            self.spawn(self._play_later(turn, at_version))

    async def _play_later(self, turn: dict[str, Any], at_version: int) -> None:
        if self.plan.delay:
            # Each wait drawn around the mean: the tables all start at the same moment, and
            # waiting exactly 1/R seconds kept their plays in step, a thousand plays arriving
            # within a few milliseconds once a second, which no real room of players does.
            await asyncio.sleep(self.plan.delay * random.uniform(0.5, 1.5))
        await self.pace.take()
        self._send_play(turn, at_version)

    def _send_play(self, turn: dict[str, Any], at_version: int) -> None:
        entry = turn["legal"][0]
        place = self.place
        self.stats.pending[(place.table, entry["tile"])] = (time.perf_counter(), at_version)
        self.send(
            "table.play",
            {
                "table_id": place.table,
                "version": at_version,
                "tile": entry["tile"],
                "arm": entry["arms"][0] if entry["arms"] else None,
                "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
            },
        )

    async def beat(self, stop: asyncio.Event) -> None:
        # A seat whose page stops beating for 30 s is away and its table waits (docs/rules.md):
        # the clients beat as the browser does, at the period the welcome names (the page's
        # `startHeartbeats`; 20 s by default), the first beat at a random moment of it.
        period = await self.heartbeat
        await asyncio.sleep(random.uniform(0, period))
        while not stop.is_set():
            await self.send_paced("heartbeat", {})
            await asyncio.sleep(period)

    async def _join_again(self, join: dict[str, Any]) -> None:
        # Twice as long after each `busy` in a row, up to about 16 s: a table that is slow to
        # answer at start-up (its host building hundreds of tables) is not asked again every
        # second by each of its seats, which only made it slower.
        self.joins_refused += 1
        await asyncio.sleep(random.uniform(0.5, 1.5) * min(2 ** (self.joins_refused - 1), 16))
        await self.send_paced("table.join", join)

    def rejoin(self) -> None:
        """Join the table again from the version this seat has (the page's `rejoin`): the server
        sends what came after it, then answers; the turn is played once the answer comes."""
        if self.rejoining:
            return
        self.rejoining = True
        said = "table.join since (a gap, stale_version or resync)"
        self.stats.failures[said] = self.stats.failures.get(said, 0) + 1
        since = self.version if self.synced else None
        self.spawn(self.send_paced("table.join", {"table_id": self.place.table, "since": since}))

    def _take(self, events: list[dict[str, Any]]) -> None:
        """A table's events, applied in version order: one already had is skipped, one after a gap
        is not applied (nor any after it) and the seat joins again from what it has."""
        place, stats = self.place, self.stats
        for event in events:
            version = event["version"]
            if version <= self.version:
                continue  # had already (a catch-up and a live message may overlap)
            if version != self.version + 1:
                self.rejoin()
                return
            self.version = version
            data = event["data"]
            kind = event["kind"]
            if kind == "played" and data["seat"] != place.seat:
                sent = stats.pending.get((place.table, data["tile"]))
                if sent is not None and sent[1] >= self.hand_from:
                    now = time.perf_counter()
                    stats.latencies.append(now - sent[0])
                    stats.arrivals.append(now)
            if kind == "hand_started":
                self.hand_from = version
            elif kind == "clock":
                self.turn, self.turn_at = data, version
            elif kind in TURN_ENDS:
                self.turn = None
            if kind == "match_ended":
                self.spawn(self.send_paced("table.vote", self._vote(version)))
            elif kind == "votes_closed" and data["next_table_id"] is not None:
                if place.seat == 0:
                    stats.rematches += 1
                old, place.table = place.table, data["next_table_id"]
                self.version, self.hand_from, self.synced, self.turn = 0, 0, False, None
                self.played_for, self.rejoining = None, False
                self.spawn(self.move(old, place.table))
                return

    async def move(self, old: int, new: int) -> None:
        await self.send_paced("table.leave", {"table_id": old})
        await self.send_paced("table.join", {"table_id": new, "since": None})

    def on_message(self, raw: bytes) -> None:
        # orjson: the clients share the cores with the server, and the standard library's parser
        # was a fifth of their work.
        envelope = orjson.loads(raw)
        kind, payload = envelope["type"], envelope["payload"]
        place, stats = self.place, self.stats
        if kind == "welcome":
            if not self.heartbeat.done():
                self.heartbeat.set_result(float(payload["heartbeat_seconds"]))
        elif kind == "resync":
            # The server's bus lost messages: ask for what came after our version now, rather than
            # noticing the gap at the next event, which may never come (our own turn's clock).
            self.rejoin()
        elif kind == "table.snapshot":
            if payload["table_id"] != place.table:
                return
            self.joins_sent.clear()  # joined: nothing to ask again
            self.joins_refused = 0
            place.seat = payload["seat"]  # a rematch may seat the client elsewhere
            if not self.joined[0]:
                self.joined[0] = True
                stats.joined += 1
            self.version, self.synced = payload["version"], True
            self.turn, self.turn_at = payload["turn"], payload["version"]
        elif kind == "table.events":
            if payload["table_id"] != place.table or not self.synced:
                return  # the old table's last events, or events before the snapshot that comes
            self._take(payload["events"])
        elif kind == "ack" and payload["reply_to"] in self.plays_sent:
            self.plays_sent.discard(payload["reply_to"])
            stats.plays += 1
            if self.place.host is not None:
                where = self.place.host[0]
                stats.host_plays[where] = stats.host_plays.get(where, 0) + 1
            stats.acks.append(time.perf_counter())
        elif kind == "ack" and payload["reply_to"] in self.joins_sent:
            # joined again: what was missed came before this answer
            self.joins_sent.pop(payload["reply_to"])
            self.joins_refused = 0
            self.rejoining = False
        elif kind == "signed_out":
            # The server signed the seat out; the socket closes with 4401, and an ended session
            # (idle, suspended) refuses the next opening `unauthenticated`. The reason is counted:
            # on a loaded machine seats whose turn ran out collected 28 yellow cards, a week's
            # suspension by the rules (issue 40), and the close code alone did not say so.
            said = f"signed_out {payload.get('reason')}"
            stats.failures[said] = stats.failures.get(said, 0) + 1
        elif kind == "error":
            # `reply_to` is null or absent when the socket itself was refused (the server closes it)
            reply = payload.get("reply_to")
            if reply is None:
                stats.errors.append(f"{payload['code']} (the socket)")
                return
            if reply in self.plays_sent:
                self.plays_sent.discard(reply)
                if payload["code"] == "stale_version":
                    # The table moved on while the play travelled: catch up, then play again if
                    # the turn is still this seat's (the page's `playAgain`).
                    self.played_for = None
                    self.rejoin()
                    return
            join = self.joins_sent.pop(reply, None)
            if join is not None and payload["code"] == "busy":
                # The table was changing hands (its owner starting, stopping or late to renew):
                # the page asks again a moment later, and so does the seat.
                stats.failures["table.join busy (asked again)"] = (
                    stats.failures.get("table.join busy (asked again)", 0) + 1
                )
                self.spawn(self._join_again(join))
                return
            if join is not None:
                self.rejoining = False
            if reply in self.votes_sent:
                self.votes_sent.discard(reply)
                if payload["code"] == "stale_version":
                    # another seat's vote came first (each vote is an event): vote again
                    self.spawn(self.send_paced("table.vote", self._vote(self.version)))
                    return
            if payload["code"] != "stale_version":
                stats.errors.append(payload["code"])
        turn = self.turn
        if (
            turn is not None
            and not self.rejoining
            and not self.plays_sent
            and self.played_for != self.turn_at
            and turn["seat"] == place.seat
            and turn["legal"]
        ):
            self.play(turn, self.version)

    def _vote(self, at_version: int) -> dict[str, Any]:
        return {"table_id": self.place.table, "version": at_version, "choice": "rematch"}


async def _seat_session(
    plan: Plan,
    session: str,
    place: Place,
    pace: Pace,
    stats: Stats,
    stop: asyncio.Event,
    joined: list[bool],
) -> None:
    """One socket of a seat's client, until ``stop``; ``joined`` holds whether the seat has ever had
    its table's snapshot (it counts once, whatever the reconnections). Like a browser it sends no
    keepalive pings of its own (the server's keep the socket alive) and never stops reading."""
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    address, port = place.host or ("127.0.0.1", plan.port)
    # A browser takes messages of any size the server sends.
    protocol = ClientProtocol(parse_uri(f"ws://{address}:{port}/ws/?lobby=0"), max_size=None)
    request = protocol.connect()
    request.headers["Origin"] = f"http://{address}:{port}"
    request.headers["Cookie"] = f"sessionid={session}"
    loop = asyncio.get_running_loop()

    def made() -> SeatSocket:
        return SeatSocket(plan, place, pace, stats, joined, protocol, request)

    async def open_socket() -> SeatSocket:
        _, socket = await loop.create_connection(made, address, port)
        try:
            await socket.opened
        except BaseException:
            if socket.transport is not None:
                socket.transport.abort()
            raise
        return socket

    socket = await asyncio.wait_for(open_socket(), OPEN_TIMEOUT_SECONDS)
    await socket.send_paced("table.join", {"table_id": place.table, "since": None})
    beating = loop.create_task(socket.beat(stop))
    stopping = loop.create_task(stop.wait())
    try:
        await asyncio.wait((socket.lost, stopping), return_when=asyncio.FIRST_COMPLETED)
        if not socket.lost.done():
            if socket.protocol.state is State.OPEN:
                socket.protocol.send_close()
                socket._flush()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(socket.lost), CLOSE_TIMEOUT_SECONDS)
            if not socket.lost.done() and socket.transport is not None:
                socket.transport.abort()
            return
        if stop.is_set():
            return
        raise socket.protocol.close_exc
    finally:
        beating.cancel()
        stopping.cancel()
        for task in list(socket.tasks):
            task.cancel()


@dataclass(frozen=True)
class Plan:
    """What every client process needs: where the server is, the players' sessions, how long a
    seat waits before playing (0: closed loop), how long the measure lasts, and the server's
    limit on each socket's commands (a second and at once), which the clients keep."""

    port: int
    players: dict[int, str]
    delay: float
    seconds: float
    command_rate: float
    command_burst: float
    timeline: bool = False
    # with --hosts: the host (address, port) each seat's socket opens on, by (table, seat)
    seat_hosts: dict[tuple[int, int], tuple[str, int]] | None = None


async def _clients(plan: Plan, made: list[tuple[int, list[int]]], ready: Any) -> dict[str, Any]:
    """One client process's share of the tables: open and join every seat, wait at ``ready`` (a
    barrier shared with the other client processes and the parent) so that all measure the same
    seconds, then play for ``plan.seconds``."""
    stats = Stats()
    stop = asyncio.Event()
    clients = []
    for number, (table, users) in enumerate(made):
        for seat, user_id in enumerate(users):
            clients.append(
                asyncio.create_task(seat_client(plan, plan.players[user_id], table, seat, stats, stop))
            )
        if number % 50 == 49:
            await asyncio.sleep(0.05)
    # Every socket opens and joins its table (each table already started with the server) before
    # anything is measured: at a thousand tables that alone takes a while, and counting it would
    # measure the joins, not the play.
    opened = time.perf_counter()
    while stats.joined < len(clients) and time.perf_counter() - opened < JOIN_GUARD_SECONDS:
        await asyncio.sleep(0.1)
    join_seconds = time.perf_counter() - opened
    # The clients' own cycle collector stays off while they measure: its passes over two thousand
    # sockets paused this process for hundreds of milliseconds, and every play it was reading
    # then counted the pause as the server's (1,000 tables, the server collecting nothing: p99
    # 107 ms with the clients collecting, 58 ms without).
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.to_thread(ready.wait)
    await asyncio.sleep(1.0)
    start_plays, start, cpu = stats.plays, time.perf_counter(), time.process_time()
    stats.latencies.clear()
    stats.arrivals.clear()
    stats.acks.clear()
    await asyncio.sleep(plan.seconds)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    gc.enable()
    plays = stats.plays - start_plays
    latencies = list(stats.latencies)
    arrivals = list(stats.arrivals)
    half = start + elapsed / 2
    second_half = sum(1 for moment in stats.acks if half <= moment < start + elapsed)
    stop.set()
    await asyncio.gather(*clients, return_exceptions=True)
    return {
        "plays": plays,
        "second_half": second_half,
        "elapsed": elapsed,
        "cpu": cpu,
        "latencies": latencies,
        "arrivals": arrivals,
        "start": start,
        "errors": stats.errors,
        "sockets": len(clients),
        "joined": stats.joined,
        "join_seconds": join_seconds,
        "reconnects": stats.reconnects,
        "failures": stats.failures,
        "rematches": stats.rematches,
        "host_plays": stats.host_plays,
    }


def _client_process(plan: Plan, made: list[tuple[int, list[int]]], ready: Any, results: Any) -> None:
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings uvloop
        results.put(asyncio.run(_clients(plan, made, ready)))
        return
    results.put(uvloop.run(_clients(plan, made, ready)))


def timeline(parts: list[dict[str, Any]], commits: list[Commit] | None = None) -> list[dict[str, Any]]:
    """The measured latencies second by second (by when each reached its seat): how many, their
    p50 and p99, and the longest. A run's p99 alone does not say whether its tail is spread evenly
    or comes from a few bad seconds (the first hands ending at every table at once, say). With the
    database's probe commits (PostgreSQL), each second also has the slowest of them
    (`commit_max_ms`): a bad second whose commit was as slow was the disk's, not the server's."""
    start = min(part["start"] for part in parts)
    seconds: dict[int, list[float]] = {}
    for part in parts:
        for latency, arrival in zip(part["latencies"], part["arrivals"], strict=True):
            seconds.setdefault(int(arrival - start), []).append(latency)
    slowest = None if commits is None else slowest_by_second(commits, start)
    rows = []
    for second, found in sorted(seconds.items()):
        row: dict[str, Any] = {
            "second": second,
            "samples": len(found),
            "p50_ms": round(lobby_bench.percentile(found, 0.50) * 1000, 1),
            "p99_ms": round(lobby_bench.percentile(found, 0.99) * 1000, 1),
            "max_ms": round(max(found) * 1000, 1),
        }
        if slowest is not None:
            row["commit_max_ms"] = slowest.get(second)
        rows.append(row)
    return rows


def _summed(counts: list[dict[str, int]]) -> dict[str, int]:
    """The client processes' counts of each failure, added up."""
    total: dict[str, int] = {}
    for part in counts:
        for kind, count in part.items():
            total[kind] = total.get(kind, 0) + count
    return dict(sorted(total.items()))


def drive(
    plan: Plan,
    pid: int | list[int],
    made: list[tuple[int, list[int]]],
    tables: int,
    processes: int,
    database: str | None = None,
) -> dict[str, Any]:
    """Drive the tables from ``processes`` client processes (each a share of the tables, all four
    seats of a table in the same one): one process of Python sockets cannot keep up with thousands
    of them, and the bench must measure the server, not its own clients. With a PostgreSQL
    ``database`` a probe times the database's own commits meanwhile (`database_commits`)."""
    context = multiprocessing.get_context("fork")
    processes = max(1, min(processes, len(made)))
    ready = context.Barrier(processes + 1)
    results: Any = context.Queue()
    pids = pid if isinstance(pid, list) else [pid]  # --hosts: every host's server process

    def memory_now() -> int:
        return sum(resident_kb(one) for one in pids)

    def cpu_now() -> float:
        return sum(lobby_bench.cpu_seconds(one) for one in pids)

    before = memory_now()
    before_cpu = cpu_now()
    workers = [
        context.Process(
            target=_client_process,
            args=(plan, made[part::processes], ready, results),
            daemon=True,
        )
        for part in range(processes)
    ]
    for worker in workers:
        worker.start()
    probe = CommitProbe(database).start() if database and database.startswith("postgres") else None
    ready.wait(timeout=JOIN_GUARD_SECONDS + 60)
    join_cpu = cpu_now() - before_cpu
    time.sleep(1.0)
    memory = memory_now() - before
    cpu = cpu_now()
    time.sleep(plan.seconds / 2)
    half_cpu = cpu_now()
    time.sleep(plan.seconds / 2)
    half_cpu = cpu_now() - half_cpu
    cpu = cpu_now() - cpu
    memory_end = memory_now() - before
    parts = [results.get(timeout=JOIN_GUARD_SECONDS) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    commits = None if probe is None else probe.stop()
    latencies = [latency for part in parts for latency in part["latencies"]]
    errors = [code for part in parts for code in part["errors"]]
    plays = sum(part["plays"] for part in parts)
    elapsed = max(part["elapsed"] for part in parts)
    measured_from = min(part["start"] for part in parts)
    clients_cpu = sum(part["cpu"] for part in parts)
    second_half = sum(part["second_half"] for part in parts)
    return {
        "tables": tables,
        "bot_tables": len(made) - tables,
        "plays": plays,
        "plays_per_second": round(plays / elapsed, 1),
        "second_half_plays_per_second": round(second_half / (elapsed / 2), 1),
        "latency_samples": len(latencies),
        "p50_ms": round(lobby_bench.percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(lobby_bench.percentile(latencies, 0.99) * 1000, 2),
        "memory_per_table_kb": round(max(memory, 0) / max(len(made), 1), 1),
        "memory_end_per_table_kb": round(max(memory_end, 0) / max(len(made), 1), 1),
        "server_cpu_ms_per_play": round(1000 * cpu / plays, 3) if plays else None,
        "clients_cpu_ms_per_play": round(1000 * clients_cpu / plays, 3) if plays else None,
        "second_half_server_cpu_ms_per_play": (
            round(1000 * half_cpu / second_half, 3) if second_half else None
        ),
        "sockets": sum(part["sockets"] for part in parts),
        "sockets_joined": sum(part["joined"] for part in parts),
        "join_seconds": round(max(part["join_seconds"] for part in parts), 1),
        "join_server_cpu_ms_per_socket": round(
            1000 * join_cpu / max(sum(part["joined"] for part in parts), 1), 2
        ),
        "reconnects": sum(part["reconnects"] for part in parts),
        "rematches": sum(part["rematches"] for part in parts),
        "failure_kinds": sorted(set().union(*(part["failures"] for part in parts))),
        "failure_counts": _summed([part["failures"] for part in parts]),
        "client_processes": processes,
        "errors": len(errors),
        "error_codes": sorted(set(errors)),
        "database_commits": None if commits is None else commit_summary(commits, measured_from, elapsed),
        "timeline": timeline(parts, commits) if plan.timeline else None,
        "host_plays": _summed([part["host_plays"] for part in parts]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0, help="plays per second per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--closed", action="store_true", help="play as fast as the server answers")
    parser.add_argument("--bot-tables", type=int, default=0)
    parser.add_argument("--database", help="a database URL instead of a scratch SQLite file")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output format)")
    parser.add_argument("--quick", action="store_true", help="4 tables, 3 seconds (CI)")
    parser.add_argument(
        "--timeline", action="store_true", help="add the latencies second by second (`timeline`)"
    )
    parser.add_argument(
        "--client-processes", type=int, default=2, help="processes that run the clients' sockets (default 2)"
    )
    parser.add_argument(
        "--hosts",
        type=int,
        default=0,
        help="N server hosts (amigos.bench.hosts), each seat on another than its table's owner",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=0,
        help="with --hosts: computer players on a worker service of N processes",
    )
    parser.add_argument("--redis", default=HOSTS_REDIS, help="with --hosts: the Redis they share")
    parser.add_argument("--keep-logs", action="store_true", help="with --hosts: keep the hosts' logs")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.seconds, args.bot_tables = 4, 3.0, 1
    from amigos.bench.hosts import stop_on_signals
    from amigos.bench.machine import machine_loop_ns

    loop_ns = machine_loop_ns()
    if args.hosts:
        # SIGTERM or SIGINT (a `timeout`, a CI runner) stops as Ctrl+C does: the hosts and
        # namespaces go too
        stop_on_signals()
        result = run_hosts(args)
        result.update({"bench": "load", "quick": args.quick, "closed": args.closed, "rate": args.rate})
        result["machine_loop_ns"] = loop_ns
        print(json.dumps(result, indent=2))
        problem = broken(result) if args.quick else None
        if problem is not None:
            print(f"bench/load.py --quick --hosts: {problem}", file=sys.stderr)
            return 1
        return 0
    with tempfile.TemporaryDirectory(prefix="amigos-bench-load-") as data_dir:
        env = lobby_bench.server_env(data_dir, args.database)
        env["AMIGOS_TABLE_HAND_PAUSE_SECONDS"] = "0"
        env["AMIGOS_TABLE_BOT_DELAY_MS"] = "0"
        env.update(IDLE_FOR_SLOW_JOINS)
        os.environ.update(env)
        players = make_players(args.tables * 4 + args.bot_tables)
        made = make_tables(players, args.tables, args.bot_tables)
        sessions = dict(players)
        from django.db import connections

        connections.close_all()  # the client processes are forked: they must not share a connection
        port = lobby_bench.free_port()
        server = lobby_bench.start_server(port, env)
        try:
            # the seat in turn waits 1/R on average, so a table makes about R plays a second
            delay = 0.0 if args.closed else 1.0 / args.rate
            from django.conf import settings

            plan = Plan(
                port,
                sessions,
                delay,
                args.seconds,
                settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND,
                settings.AMIGOS_SOCKET_COMMAND_BURST,
                args.timeline,
            )
            result = drive(plan, server.pid, made, args.tables, args.client_processes, args.database)
            result.pop("host_plays")  # one server: nothing to break down
            result.update(sanctions())
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:  # the figures are taken: do not lose them to a slow stop
                print("the server took over 30 s to stop; killed", file=sys.stderr)
                server.kill()
                server.wait()
    result.update(
        {
            "bench": "load",
            "quick": args.quick,
            "closed": args.closed,
            "rate": args.rate,
            "machine_loop_ns": loop_ns,
        }
    )
    print(json.dumps(result, indent=2))
    problem = broken(result) if args.quick else None
    if problem is not None:
        print(f"bench/load.py --quick: {problem}", file=sys.stderr)
        return 1
    return 0


#: The seats' sessions are made before the server starts, and a seat counts as active only from
#: its first play: on a loaded machine, a thousand tables' joins took over five minutes, the
#: sessions went idle (10 minutes from their making) and the server signed the seats out (their
#: sockets closed 4401, opened again and refused `unauthenticated`). People do not wait that long
#: at a table that has not started; the benches measure the tables, not the idle clock.
IDLE_FOR_SLOW_JOINS = {"AMIGOS_IDLE_TIMEOUT_SECONDS": "86400"}

#: With --hosts and no --database: a database of the bench's own (dropped and created again).
HOSTS_DATABASE = "postgresql://postgres@127.0.0.1:5432/amigos_hosts"
HOSTS_REDIS = "redis://127.0.0.1:6379/14"


def run_hosts(args: argparse.Namespace) -> dict[str, Any]:
    """The load over ``args.hosts`` hosts: each table's seats open their sockets on the hosts
    that do not own the table, so every command is forwarded and every event crosses the bus."""
    from amigos.bench.hosts import Cluster, reset_database

    database = args.database or HOSTS_DATABASE
    reset_database(database)
    with tempfile.TemporaryDirectory(prefix="amigos-bench-load-") as data_dir:
        env = lobby_bench.server_env(data_dir, database)
        env.update(
            {
                "AMIGOS_TABLE_HAND_PAUSE_SECONDS": "0",
                "AMIGOS_TABLE_BOT_DELAY_MS": "0",
                **IDLE_FOR_SLOW_JOINS,
                "AMIGOS_METRICS_TOKEN": METRICS_TOKEN,
                "PYTHONPATH": str(lobby_bench.ROOT / "src"),
            }
        )
        os.environ.update(env)
        players = make_players(args.tables * 4 + args.bot_tables)
        made = make_tables(players, args.tables, args.bot_tables)
        from django.db import connections

        connections.close_all()
        with Cluster(
            args.hosts, database, args.redis, env, bot_workers=args.bot_workers, keep_logs=args.keep_logs
        ) as cluster:
            start_seconds = _started(args.tables + args.bot_tables, cluster)
            owners = _owners([table for table, _ in made], cluster)
            connections.close_all()  # forked clients must not share it
            seat_hosts: dict[tuple[int, int], tuple[str, int]] = {}
            sockets = [0] * len(cluster.hosts)
            for table, users in made:
                others = [host for host in cluster.hosts if host.index != owners.get(table)] or cluster.hosts
                for seat in range(len(users)):
                    host = others[(table + seat) % len(others)]
                    seat_hosts[(table, seat)] = (host.address, host.port)
                    sockets[host.index] += 1
            from django.conf import settings

            plan = Plan(
                0,
                dict(players),
                0.0 if args.closed else 1.0 / args.rate,
                args.seconds,
                settings.AMIGOS_SOCKET_COMMANDS_PER_SECOND,
                settings.AMIGOS_SOCKET_COMMAND_BURST,
                args.timeline,
                seat_hosts,
            )
            pids = [host.pid for host in cluster.hosts if host.pid is not None]
            result = drive(plan, pids, made, args.tables, args.client_processes, database)
            host_plays = result.pop("host_plays")
            result["hosts"] = [
                {
                    "host": host.name,
                    "address": host.address,
                    "tables_owned": sum(1 for owner in owners.values() if owner == host.index),
                    "sockets": sockets[host.index],
                    "plays": host_plays.get(host.address, 0),
                    "resident_mb": round(cluster.resident_kb(host) / 1024, 1),
                }
                for host in cluster.hosts
            ]
            result["start_seconds"] = start_seconds
            result["handovers"] = handovers(cluster)
            result.update(sanctions())
            result["namespaces"] = cluster.namespaces
            result["bot_workers"] = args.bot_workers
            result["seats_on_owner"] = sum(
                1 for (table, _), where in seat_hosts.items()
                if owners.get(table) is not None and cluster.hosts[owners[table]].address == where[0]
            )  # fmt: skip
    return result


#: What a host logs when a table it ran went to another host (`registry`: a renewal or a look-up
#: found another holder); each change of hands is logged once, by the host that lost the table.
#: The hosts' /metrics token (`handovers` reads their counters).
METRICS_TOKEN = secrets.token_hex(16)
LOST_TABLE = re.compile(r"^table (\d+): (?:its lease went to|another process holds its lease)")


def handovers(cluster: Any) -> dict[str, Any]:
    """How often tables changed hands while the hosts ran (read from the hosts' logs), and the
    tables each host adopted from another (`amigos_leases_taken_over_total` on its /metrics):
    with every host alive throughout, both should stay 0."""
    per_table: dict[int, int] = {}
    for host in cluster.hosts:
        if host.log is None or not host.log.exists():
            continue
        for line in host.log.read_text(errors="replace").splitlines():
            if not line.startswith("{"):
                continue
            with contextlib.suppress(ValueError):
                found = LOST_TABLE.match(str(json.loads(line).get("message", "")))
                if found:
                    per_table[int(found[1])] = per_table.get(int(found[1]), 0) + 1
    adopted = {host.name: _metric(host, "amigos_leases_taken_over_total") for host in cluster.hosts}
    return {
        "changes": sum(per_table.values()),
        "tables": len(per_table),
        "most_for_one_table": max(per_table.values(), default=0),
        "adopted_by_host": adopted,
    }


def _metric(host: Any, name: str) -> int | None:
    """One figure of the host's /metrics (None: not answered)."""
    ask = urllib.request.Request(  # noqa: S310 (the host's own http address)
        f"{host.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
    )
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(ask, timeout=10) as answer:  # noqa: S310
        for line in answer.read().decode().splitlines():
            if line.startswith(f"{name} "):
                return int(float(line.split()[1]))
    return None


def _started(tables: int, cluster: Any, seconds: float = JOIN_GUARD_SECONDS) -> float:
    """Wait until the hosts run an actor for every table (`amigos_live_tables` summed), as a
    one-process run's tables start with the server; how many seconds that took. Why: a table's
    lease is taken before its log is read and its match started, and the seats that joined before
    that waited for it, were answered `busy` and asked again."""
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        if sum(_metric(host, "amigos_live_tables") or 0 for host in cluster.hosts) >= tables:
            break
        time.sleep(0.5)
    return round(time.monotonic() - began, 1)


def _owners(tables: list[int], cluster: Any, seconds: float = 120.0) -> dict[int, int]:
    """Which host owns each table once every table has an owner (the lease's holder names the
    process: ``host:pid:boot:random``), by the host's index."""
    from amigos.web.tables.models import Table

    by_pid = {str(host.pid): host.index for host in cluster.hosts}
    deadline = time.monotonic() + seconds
    found: dict[int, int] = {}
    while time.monotonic() < deadline:
        rows = Table.objects.filter(pk__in=tables).values_list("pk", "owner")
        found = {
            pk: by_pid[owner.split(":")[1]] for pk, owner in rows if owner and owner.split(":")[1] in by_pid
        }
        if len(found) == len(tables):
            break
        time.sleep(0.5)
    return found


def broken(result: dict[str, Any]) -> str | None:
    """What says the bench itself is broken, not slow (CI runs `--quick`, whose figures judge
    nothing): a socket that never had its table, no play acknowledged, or a refused command."""
    if result["sockets_joined"] < result["sockets"]:
        return f"{result['sockets'] - result['sockets_joined']} sockets never joined their table"
    if result["plays"] == 0:
        return "no play was acknowledged"
    if result["errors"]:
        return f"refused commands: {result['error_codes']}"
    return None


if __name__ == "__main__":
    raise SystemExit(main())
