"""The table actor: the one writer of a table, one message at a time.

Every change of a table (a play, an invitation answered, a vote, a deadline reached, a computer
player's move) is a job in the actor's queue, run alone. A job checks who sent the command (their
seat, the version they saw), hands it to the pure table (`amigos.table.advance`, `actor_decide`),
writes the log entries of its step (`log_entries`), stores them (with the new version, deadline,
cards and record) in one transaction, and only then publishes each, once per audience, as
`log_codec.wire` shows it. If storing fails the actor stops: its memory may be ahead of the
database, so the registry drops it and the next command rebuilds it from the log.

Time comes from an injected clock, and deadlines are fired by `fire_deadline`, which the actor's
own timer calls when the time comes (tests call it directly with a fake clock).

The actor is one class, but its jobs are kept in small modules by what they are about, each a part
`TableActor` inherits: the queue and publishing (`actor_queue`), who may send a command
(`actor_senders`), the invitations and the organizer's start and cancellation
(`actor_gathering`), who is at the table (`actor_presence`), the vote after a match
(`actor_votes`), what a seat or a spectator sees (`actor_view`), the timers, the deadlines' job
and computer players (`actor_timer`), every input handed to the pure table and its step stored
(`actor_decide`), and the pure table's state (`actor_model`). This module keeps the restart, the
plays and storing; the types all of them share are in `actor_types`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from amigos.engine import Action, Play, find_variant, new_deal_key
from amigos.engine.deal import random_seat
from amigos.table import (
    Mode,
    Phase,
    VoteChoice,
    conduct_of,
    inputs,
)
from amigos.table.senders import sender_refusal
from amigos.web.lobby import chat as lobby_chat
from amigos.web.realtime.commands import CommandError, Connection
from amigos.web.realtime.hub import Hub
from amigos.web.realtime.queues import OneReaderQueue
from amigos.web.tables import chat_lines, log_codec, log_facts, rendering, socket_keys, store, storing
from amigos.web.tables.actor_decide import DecideMixin
from amigos.web.tables.actor_gathering import GatheringMixin
from amigos.web.tables.actor_model import ModelMixin
from amigos.web.tables.actor_presence import PresenceMixin
from amigos.web.tables.actor_queue import Job, QueueMixin, background
from amigos.web.tables.actor_senders import SENDER_REFUSALS, SendersMixin
from amigos.web.tables.actor_timer import TimerMixin
from amigos.web.tables.actor_types import (
    TIMING,
    Clock,
    NextTables,
    Pending,
    SeatState,
    SystemClock,
    phase_of,
)
from amigos.web.tables.actor_view import SeatViewMixin
from amigos.web.tables.actor_votes import VotesMixin
from amigos.web.tables.game import Game, Refused, parse_play
from amigos.web.tables.log_entries import (
    Disconnected,
    HandEnded,
    Reconnected,
    SeatChanged,
    TurnClockShown,
    no_cards,
)
from amigos.web.tables.rendering import iso

# The names other modules import from here (the shared types are defined in `actor_types`).
__all__ = [
    "REBUILD_ATTEMPTS",
    "REBUILD_SECONDS",
    "Clock",
    "Links",
    "Pending",
    "SeatState",
    "SystemClock",
    "TableActor",
    "parse_action",
]

log = logging.getLogger("amigos.tables")


class Links(NextTables, Protocol):
    """What the actor tells the rest of the site (the lobby, the archive, the next table).

    Implemented by `amigos.web.tables.links` and handed over by the registry: the modules behind
    it import the actor, so the actor must not import them. It is defined here, beside the actor
    its methods name, so that no part of the actor has to import this module."""

    async def table_changed(self, actor: TableActor, *, statuses: bool = True) -> None: ...
    async def invitation_answered(self, actor: TableActor, user_id: int, reason: str) -> None: ...
    async def seat_presence(self, actor: TableActor, seats: list[tuple[int, bool]]) -> None: ...
    async def hand_over(self, actor: TableActor) -> None: ...


class TableActor(
    QueueMixin,
    SendersMixin,
    GatheringMixin,
    PresenceMixin,
    VotesMixin,
    SeatViewMixin,
    TimerMixin,
    DecideMixin,
    ModelMixin,
):
    """One live table's single writer. Its parts (queue, senders, gathering, presence, turn clock,
    vote, view, timers) are inherited from the mixins named in the module's docstring; their
    methods run inside the actor too.

    Its fields are slots: past 30 names an object's attribute dict stops sharing its keys with the
    class's other objects, and the actor has 36, about 1.5 KB a table more than slots."""

    __slots__ = (
        "_entry_context",
        "_firing",
        "_origin",
        "_queue",
        "_task",
        "_thinking",
        "_timer",
        "broken",
        "cards",
        "chat",
        "clock",
        "clock_info",
        "conduct",
        "deadline_at",
        "deadline_kind",
        "game",
        "heard_at",
        "hub",
        "id",
        "kind",
        "links",
        "loop",
        "model_origin",
        "model_state",
        "name",
        "next_table_id",
        "organizer_id",
        "seats",
        "sockets",
        "status",
        "target",
        "timing",
        "variant",
        "version",
        "votes",
    )

    def __init__(self, loaded: store.Loaded, hub: Hub, links: Links, clock: Clock | None = None) -> None:
        self.id = loaded.id
        self.hub = hub
        self.links: Links = links
        self.clock: Clock = clock or SystemClock()
        self.name = loaded.name
        self.variant = find_variant(loaded.variant, loaded.players)
        self.target = loaded.target
        self.kind = loaded.kind
        self.organizer_id = loaded.organizer_id
        self.status = loaded.status
        self.version = loaded.version
        self.deadline_at = loaded.deadline_at
        self.deadline_kind = loaded.deadline_kind
        self.seats = [
            SeatState(row.number, row.user_id, row.name, row.level, row.invitation, row.invited_until)
            for row in loaded.seats
        ]
        self.cards: dict[int, dict[str, int]] = loaded.cards
        self.chat = loaded.chat
        self.votes: dict[int, VoteChoice] = {}
        self.next_table_id: int | None = None
        # Live or correspondence: the kind its records name, and its rules of time (below).
        mode = Mode.CORRESPONDENCE if self.kind == "correspondence" else Mode.LIVE
        self.game = Game(self.id, self.variant, self._names(), mode=mode.value)
        log_entries = [log_codec.decode(kind, data) for _, kind, data in loaded.log]
        self.game.replay(log_entries)
        # What the log says of each seat and of the turn clock (`log_facts`). A card's counts come
        # from the Card rows; a practice card (a table with a computer player) has none, for it
        # never counts toward a suspension: it is counted from the log.
        facts = log_facts.read(log_entries, len(self.seats))
        self.clock_info: TurnClockShown | None = facts.clock
        for number, seat_facts in enumerate(facts.seats):
            if seat_facts.vote is not None:
                self.votes[number] = seat_facts.vote
            if any(seat_facts.practice.values()):
                counts = self.cards.setdefault(number, no_cards())
                for colour, count in seat_facts.practice.items():
                    counts[colour] = counts.get(colour, 0) + count
        # The rules of time this table follows, and the turn under way (docs/rules.md).
        self.conduct = conduct_of(self.variant, mode)
        # Every duration, the pause between hands from the site's setting (so the pure table fed
        # the same `Timing` waits as long).
        self.timing = replace(TIMING, hand_pause=float(settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS))
        # Who is at the table is the pure table's state (docs/rules.md, "Connection and
        # absence"), read back from the log with every seat heard from now; the actor keeps the
        # sockets seated at each seat (this process) and the heartbeats taken at once since the
        # model's last step (`PresenceMixin.heard_at_once`).
        self._model_open(loaded, self.clock.now())
        self.sockets: dict[int, set[object]] = {}
        self.heard_at: dict[int, float] = {}
        for number, seat_facts in enumerate(facts.seats):
            self.seats[number].held_by_computer = seat_facts.held
        self.broken = False
        # The loop the actor lives in, kept: Python 3.11's `asyncio.get_running_loop()` makes a
        # system call (getpid) on every call, and every play would make several.
        self.loop = asyncio.get_running_loop()
        self._queue: OneReaderQueue[Job] = OneReaderQueue(self.loop)
        # The socket whose command the running job answers, if it came from one (see `_publish`).
        self._origin: Connection | None = None
        self._task: asyncio.Task[None] | None = None
        # The next deadline's timer, and the jobs it started that have not ended (see `_arm`).
        self._timer: asyncio.TimerHandle | None = None
        self._firing: set[asyncio.Task[None]] = set()
        self._thinking: asyncio.Task[None] | None = None

    # -- running (the queue itself is `actor_queue`'s) ------------------------------------------------

    def _rebuild_later(self) -> None:
        """A broken actor is rebuilt from the log by the next command for its table; when only
        computer players are to move (or the player in turn waits on a paused clock), no command
        comes, so the table is woken after a pause, again and again until the database answers."""

        async def rebuild() -> None:
            for attempt in range(REBUILD_ATTEMPTS):
                await asyncio.sleep(min(REBUILD_SECONDS * 2**attempt, 30.0))
                try:
                    await self.links.wake(self.id)
                    return
                except CommandError as refusal:
                    if refusal.code == "table_not_found":
                        return  # deleted meanwhile: nothing to rebuild
                    log.warning("table %s could not be rebuilt yet (%s)", self.id, refusal.code)
                except Exception:
                    log.warning("table %s could not be rebuilt yet (attempt %s)", self.id, attempt + 1)

        task = self.loop.create_task(rebuild(), name=f"amigos-table-{self.id}-rebuild")
        background.add(task)
        task.add_done_callback(background.discard)

    async def resume(self) -> None:
        """After a (re)start: send pending invitations' deadlines, start a full table, wake bots."""
        await self.call(self._resume)

    async def _resume(self) -> None:
        """What a rebuilt table does at once is the pure table's to decide (`TakeOver`,
        `amigos.table.on_restart`): start a match every seat accepted, cancel one that can never
        start (its open invitations closed on their pages), or give the player in turn a full
        clock again, everyone told why; else nothing (the organizer's button may be awaited)."""
        invited = self._open_invitees()
        await self._decided(inputs.TakeOver())
        if self.phase is Phase.CLOSED and invited:
            await self._tell_cancelled(invited)
        self._arm()

    # -- reading -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """What the table is doing, in the pure table's words (`amigos.table.Phase`): a playing
        table is dealing between two hands."""
        return phase_of(self.status, self.game.in_hand)

    def _names(self) -> tuple[str, ...]:
        return tuple(seat.label(self.variant.players) for seat in self.seats)

    @property
    def organizer_seat(self) -> int:
        """The organizer's seat: 0 when the table was created, wherever a rematch or rotation put
        the organizer on a next table."""
        for seat in self.seats:
            if seat.user_id == self.organizer_id:
                return seat.number
        return 0

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id and seat.invitation == "accepted":
                return seat.number
        return None

    def seat_held_by(self, user_id: int) -> int | None:
        """The seat the account holds here, whatever its invitation (None: none)."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.number
        return None

    def is_member(self, user_id: int) -> bool:
        return self.seat_held_by(user_id) is not None

    # -- commands (each runs inside the actor through `call`) ----------------------------------------

    async def join(
        self, connection: Connection, as_seat: bool, since: int | None, key: str | None = None
    ) -> dict[str, Any]:
        """Subscribe ``connection`` to the table as its player's seat or as a spectator, and send
        it what it missed since version ``since`` (or a snapshot). ``key`` names the socket for
        presence (`socket_keys.key_of`); it differs from the connection when the join was
        forwarded from another process."""
        user_id = connection.user_id
        audience: int | None = None
        if as_seat:
            audience = self.seat_of(user_id)
            if sender_refusal(seated=audience is not None) is not None:
                raise CommandError("not_seated", SENDER_REFUSALS["not_seated"])
        elif self.kind == "correspondence" and not self.is_member(user_id):
            raise CommandError("table_not_found", "no such table")
        topic = (
            rendering.seat_topic(self.id, audience)
            if audience is not None
            else rendering.watch_topic(self.id)
        )
        await connection.join(topic)
        await connection.join(rendering.chat_topic(self.id))
        mode = "snapshot"
        now = iso(self.clock.now()) or ""
        if since is not None and 0 <= since <= self.version and self.version - since <= store.TAIL:
            # A client already up to date reads nothing: after the bus lost messages every socket
            # at a table joins again with `since` (docs/protocol.md, "resync"), most of them having
            # missed nothing.
            missed = (
                await database_sync_to_async(store.rows_between)(self.id, since, self.version)
                if since < self.version
                else []
            )
            mode = "events"
            if missed:
                connection.push("table.events", rendering.batch(self.id, missed, audience, now))
        if mode == "snapshot":
            connection.push("table.snapshot", self.snapshot(audience))
        if audience is not None:
            await self.attach(key or socket_keys.key_of(connection), audience)
        return {"table_id": self.id, "seat": audience, "version": self.version, "mode": mode}

    async def play(self, user_id: int, version: int, action: Action) -> dict[str, Any]:
        """A player's move: who sent it is the actor's to check (a seat here, the version seen);
        the move itself, the pure table's to judge and carry out (`actor_decide`)."""
        seat = await self._moving_sender(user_id, version)
        await self._decided(inputs.Move(seat, action))
        return {"version": self.version}

    async def post_chat(self, user_id: int, text: str) -> dict[str, Any]:
        seat = self.seat_of(user_id)
        cleaned = lobby_chat.clean_text(text)
        if not cleaned:
            raise CommandError("empty", "the line is empty")
        if len(cleaned) > settings.AMIGOS_CHAT_MAX_LENGTH:
            raise CommandError("too_long", "the line is too long")
        line = await database_sync_to_async(chat_lines.post_chat)(
            self.id, user_id, seat, cleaned, self.clock.now()
        )
        self.chat = [*self.chat[-29:], line]
        await self.hub.publish(rendering.chat_topic(self.id), "table.chat", line)
        return {"id": line["id"]}

    # -- the rules of a job ----------------------------------------------------------------------------

    async def reshuffle(self, user_id: int, version: int) -> dict[str, Any]:
        """Cuban: the player's seat, offered a new deal, asks for it (docs/protocol.md,
        `table.reshuffle`). The pure table judges it, voids the deal (its key revealed) and asks
        for the next, which is dealt at once (`actor_decide`)."""
        seat = await self._moving_sender(user_id, version)
        await self._decided(inputs.AskReshuffle(seat))
        return {"version": self.version}

    def _seat_by_lot(self) -> int:
        """A seat drawn at random (`amigos.engine.deal.random_seat`) to lead a match's first hand
        where the rules need the server to choose (tests replace it through this module)."""
        return random_seat(self.variant.players)

    def _new_key(self) -> str:
        """A fresh deal key from the CSPRNG (`amigos.engine.new_deal_key`): every deal's key is
        drawn here (tests replace it through this module to deal known hands)."""
        return new_deal_key()

    # -- storing, then telling ----------------------------------------------------------------------

    async def _commit(self, pending: Pending) -> None:
        assert pending.write is not None
        write = pending.write
        entries = pending.entries
        # Each entry becomes its stored row once: the same row is stored and published.
        rows = write.rows = [log_codec.encode(entry) for entry in entries]
        try:
            version = await storing.append(self.id, self.version, write, self.loop)
        except Exception:
            self.broken = True
            log.exception("table %s: could not store its log entries; it will be rebuilt", self.id)
            self._rebuild_later()
            raise CommandError("busy", "the table is being reloaded; try again") from None
        first = self.version + 1
        self.version = version
        if write.deadline is not None:
            self.deadline_at, self.deadline_kind = write.deadline
        now = iso(self.clock.now()) or ""
        await self._publish([(first + offset, kind, data) for offset, (kind, data) in enumerate(rows)], now)
        seats_changed = any(type(entry) is SeatChanged for entry in entries)
        if write.status is not None or seats_changed or any(type(entry) is HandEnded for entry in entries):
            await self._status_changed(statuses=write.status is not None or seats_changed)
        presence = [
            (entry.seat, isinstance(entry, Disconnected))
            for entry in entries
            if isinstance(entry, (Disconnected, Reconnected))
        ]
        if presence and self.status == "playing":
            await self.links.seat_presence(self, presence)
        if write.record_ended:
            await self._archive()
        self._arm()

    async def _status_changed(self, *, statuses: bool = True) -> None:
        await self.links.table_changed(self, statuses=statuses)

    async def _tell_invitee(self, user_id: int, reason: str) -> None:
        await self.hub.publish(
            rendering.user_topic(user_id), "table.invitation_closed", {"table_id": self.id, "reason": reason}
        )
        await self.links.invitation_answered(self, user_id, reason)

    async def _archive(self) -> None:
        await self.links.hand_over(self)


#: A table whose log entries could not be stored is rebuilt after this pause (doubling, up to 30 s).
REBUILD_SECONDS = 1.0
REBUILD_ATTEMPTS = 12


def parse_action(tile: object, arm: object, lead_left: object) -> Play:
    try:
        return parse_play(tile, arm, lead_left)
    except Refused as refusal:
        raise CommandError(refusal.code, refusal.message) from None
