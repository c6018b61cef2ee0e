"""Timers and computer players: the part of the table actor that wakes it when a deadline falls
due and lets a computer player think when its turn comes.

A deadline (a seat's presence, or the stored one: a turn's clock, an invitation, the deal, the
vote) is fired by the loop's own timer, which puts the deadline's job in the actor's queue like any
command (`fire_deadline`). The job (`_on_deadline`) takes whatever fell due in time order, and
what the table's own deadline does is the pure table's rule (`amigos.table.table_due`); the
actor's other parts store and tell it. A computer player thinks outside the event loop
(`thinking`, a process pool) and plays through the queue too.
`TableActor` inherits this part, and every method here runs inside the actor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings

from amigos.engine import seat_view
from amigos.table import DeadlineKind, Due, inputs, presence_first, table_due
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import thinking
from amigos.web.tables.actor_clock import STORED
from amigos.web.tables.actor_gathering import START_DEADLINE
from amigos.web.tables.actor_types import HOLDING_LEVEL, Pending
from amigos.web.tables.log_entries import TableCancelled

if TYPE_CHECKING:
    from amigos.table import Phase, TableError
    from amigos.web.tables.actor_types import Clock, SeatState
    from amigos.web.tables.game import Game

log = logging.getLogger("amigos.tables")

T = TypeVar("T")


class TimerMixin:
    """The deadline's timer and the computer players' thinking, for `TableActor` (which sets the
    attributes below)."""

    loop: asyncio.AbstractEventLoop
    id: int
    seats: list[SeatState]
    game: Game
    clock: Clock
    status: str
    version: int
    broken: bool
    deadline_at: datetime | None
    deadline_kind: str
    next_table_id: int | None
    # The next deadline's timer, the jobs it started that have not ended, and the computer
    # player's thinking under way.
    _timer: asyncio.TimerHandle | None
    _firing: set[asyncio.Task[None]]
    _thinking: asyncio.Task[None] | None

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.
        def _feed(self, given: inputs.TableInput, *, decided: bool = False) -> TableError | None: ...
        async def _decided(self, given: inputs.TableInput) -> None: ...

        @property
        def paused(self) -> bool: ...
        def _next_presence(self) -> tuple[datetime, DeadlineKind, int] | None: ...
        async def call(self, job: Callable[[], Awaitable[T]], origin: Any = None) -> T: ...
        async def _commit(self, pending: Pending) -> None: ...
        @property
        def phase(self) -> Phase: ...
        def _waits_for_organizer(self) -> bool: ...
        async def _presence_lapsed(self, kind: DeadlineKind, seat: int, at: datetime) -> None: ...
        async def _suspended(self, seat: int) -> bool: ...
        async def _model_reread(self) -> None: ...
        async def _close_invitations(self, answered: list[SeatState], reason: str) -> None: ...
        def _cancel(
            self, answered: list[SeatState], reason: str, ending: TableCancelled = ...
        ) -> Pending: ...
        def _end_unfinished(
            self, termination: str, seat: int | None, pending: Pending | None = None
        ) -> Pending: ...

    def _arm(self) -> None:
        """Set the timer for the stored deadline and let a computer player think if it is its turn.

        The timer is the loop's own (`call_later`), not a task asleep until the deadline: every play
        sets a new deadline, and cancelling a sleeping task runs it once more to unwind it, while a
        timer handle is just marked cancelled. Only a deadline that falls due starts a task.

        A timer already set that falls due no later than the new deadline is kept: a play mostly
        moves the deadline later (the next turn's clock, the seat just heard from), and cancelling
        and setting a timer on every play cost more than the timer firing early now and then. One
        that fires early finds nothing due and is set again (`_deadline_due`)."""
        loop = self.loop
        self._set_timer(self._next_deadline(), keep_earlier=True)
        seat = self.game.to_move
        if (
            seat is not None
            and self.status == "playing"
            and not self.paused
            and (self.seats[seat].is_computer or self.seats[seat].held_by_computer)
            and (self._thinking is None or self._thinking.done())
        ):
            self._thinking = loop.create_task(self._think(seat, self.version))

    def _next_deadline(self) -> datetime | None:
        """The earliest moment something may fall due: a seat's presence or the stored deadline."""
        presence = self._next_presence()
        due = None if presence is None else presence[0]
        stored = self.deadline_at if self.status in ("inviting", "playing", "voting") else None
        if stored is not None and (due is None or stored < due):
            due = stored
        return due

    def _set_timer(self, due: datetime | None, *, keep_earlier: bool) -> None:
        """The timer for ``due`` (none for None); with ``keep_earlier``, a timer already set that
        falls due no later stays (`_arm`)."""
        timer = self._timer
        if due is None:
            if timer is not None:
                timer.cancel()
                self._timer = None
            return
        loop = self.loop
        at = loop.time() + max((due - self.clock.now()).total_seconds(), 0.0)
        if timer is not None:
            # uvloop runs a `call_at` already due as a plain call soon, whose handle has no `when`:
            # that timer fires at once, so it is the earliest there can be.
            when = getattr(timer, "when", None)
            if keep_earlier and (when is None or when() <= at):
                return
            timer.cancel()
        self._timer = loop.call_at(at, self._deadline_due)

    def _deadline_due(self) -> None:
        """The timer's callback: the deadline's job goes into the queue like any command; a timer
        kept from an earlier deadline (`_arm`) that finds nothing due yet is only set again, without
        a task or a job (at a thousand tables a play a second, early timers fired fifty times a
        second)."""
        self._timer = None
        due = self._next_deadline()
        if due is not None and due > self.clock.now():
            self._set_timer(due, keep_earlier=False)
            return
        task = self.loop.create_task(self._fire_deadline_quietly())
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _fire_deadline_quietly(self) -> None:
        with contextlib.suppress(CommandError):
            await self.fire_deadline()

    async def fire_deadline(self) -> None:
        """The stored deadline has come (called by the timer, or by a test with a fake clock)."""
        await self.call(self._on_deadline)

    async def _on_deadline(self) -> None:
        """Whatever fell due by now happens, in time order: a seat's heartbeat or absence window,
        then the table's own deadline (invitation, deal, vote, turn clock). The turn's clock, the
        deal and the vote's time are the pure table's to carry out (`_model_decides_deadline`);
        the rest is still the actor's, the model fed the same `Tick` beside it."""
        if await self._model_decides_deadline():
            await self._decided(inputs.Tick())
        else:
            self._feed(inputs.Tick())
        while not self.broken:
            now = self.clock.now()
            presence = self._next_presence()
            table_due = self.deadline_at is not None and now >= self.deadline_at
            # Which goes first is the pure table's rule (`amigos.table.presence_first`): ties go to
            # the table's deadline.
            if presence is not None and presence[0] <= now and presence_first(presence[0], self.deadline_at):
                at, kind, seat = presence
                await self._presence_lapsed(kind, seat, at)
                continue
            if not table_due:
                break
            if DUE_KINDS.get(self.deadline_kind) in MODEL_DEADLINES:
                # The pure table's own deadline, due behind a presence the actor carried out: the
                # model, fed this job's Tick beside the actor, first reads back what was stored
                # (what it was fed before is not compared), then carries the deadline out at the
                # moment it fell due.
                await self._model_reread()
                await self._decided(inputs.Tick())
                if self.deadline_at is not None and self.deadline_at <= now:
                    self.deadline_at = None  # nothing the model still has due: never spin on it
                continue
            if not await self._table_deadline(now):
                # Nothing to do for it any more (the turn it timed moved on): forget it, so the
                # timer does not spin on a moment already past.
                self.deadline_at = None
        if not self.broken:
            self._arm()

    async def _model_due_first(self) -> None:
        """Before an input the actor still decides (a page joining or closing, a player back):
        a deadline of the pure table's own that fell due and whose timer has not fired yet is
        carried out first, as a punctual timer would have. Else the model, fed the input, would
        carry it out where the actor stores nothing, and have to read the table back."""
        if await self._model_decides_deadline():
            await self._decided(inputs.Tick())

    async def _model_decides_deadline(self) -> bool:
        """Whether what fell due first is the pure table's to carry out (`actor_decide`): the
        turn's clock (a card, the system's move, a correspondence day run out), the next deal or
        the vote's time, due no later than any seat's presence (ties go to the table's deadline:
        `amigos.table.presence_first`). The model then carries out a presence due with it too,
        unless that seat's account was suspended, which only the actor can look up: then the
        actor carries out the lapse (`_presence_lapsed`, which ends what the suspension ends)."""
        now = self.clock.now()
        at = self.deadline_at
        if at is None or now < at or DUE_KINDS.get(self.deadline_kind) not in MODEL_DEADLINES:
            return False
        presence = self._next_presence()
        if presence is None or presence[0] > now:
            return True
        if not presence_first(presence[0], at):
            return presence[1] is DeadlineKind.VOTE_ABSENCE or not await self._suspended(presence[2])
        return False

    async def _table_deadline(self, now: datetime) -> bool:
        """Act on the table's stored deadline, as the pure table's rule (`amigos.table.table_due`)
        decides from its kind and the table's facts; False when it no longer applies."""
        invited = {seat.number: seat.invited_until for seat in self.seats if seat.invitation == "pending"}
        due = table_due(
            DUE_KINDS.get(self.deadline_kind),
            self.phase,
            paused=self.paused,
            awaits_start=self._waits_for_organizer(),
            invitations=invited,
            now=now,
        )
        what = due.what
        if what is Due.EXPIRE_INVITATIONS:
            await self._close_invitations([self.seats[number] for number in due.lapsed], "expired")
        elif what is Due.LATER:
            # Due for a seat that has answered since: the others' time runs on.
            self.deadline_at = due.later
        elif what is Due.NOT_STARTED:
            # The organizer never pressed the button: everyone goes back to the meeting room.
            await self._commit(self._cancel([], "expired", TableCancelled("not_started")))
        else:
            # Nothing to do for it any more (`Due.FORGET`); the turn's clock, the deal and the
            # vote's time are the pure table's (`MODEL_DEADLINES`), never asked here.
            return False
        return True

    async def _think(self, seat: int, version: int) -> None:
        hand = self.game.hand
        if hand is None:
            return
        level = self.seats[seat].level or HOLDING_LEVEL
        view = seat_view(hand, seat)
        delay = settings.AMIGOS_TABLE_BOT_DELAY_MS / 1000
        started = self.loop.time()
        action = await thinking.think(view, level)
        rest = delay - (self.loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)

        async def play() -> None:
            if self.version != version or self.game.to_move != seat:
                return  # the table moved on (a deadline fired): this answer is old
            await self._decided(inputs.Move(seat, action, by_computer=True))

        try:
            await self.call(play)
        except CommandError:
            log.warning("table %s: a computer player's move was refused", self.id)
        # Not in a `finally`: a cancelled task (the actor stopping) must not wait on the actor again.
        self._thinking = None
        if not self.broken:
            with contextlib.suppress(CommandError):
                await self.call(self._rearm)

    async def _rearm(self) -> None:
        self._arm()


#: The deadlines the pure table carries out itself when they fall due (`_model_decides_deadline`).
MODEL_DEADLINES = frozenset(
    {DeadlineKind.CARD, DeadlineKind.SYSTEM_PLAY, DeadlineKind.TURN, DeadlineKind.DEAL, DeadlineKind.VOTE}
)

#: The pure table's kind of each stored deadline: the turn clock's as `actor_clock.STORED` writes
#: them, read back through the same map, and the words logs of older versions may also hold
#: ("overdue", "default_move").
DUE_KINDS: dict[str, DeadlineKind] = {
    "invitation": DeadlineKind.INVITATION,
    START_DEADLINE: DeadlineKind.START,
    "deal": DeadlineKind.DEAL,
    "votes": DeadlineKind.VOTE,
    **{word: kind for kind, word in STORED.items()},
    "overdue": DeadlineKind.CARD,
    "default_move": DeadlineKind.TURN,
}
