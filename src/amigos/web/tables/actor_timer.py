"""Timers and computer players: the part of the table actor that wakes it when a deadline falls
due and lets a computer player think when its turn comes.

The pure table says when something next falls due (`amigos.table.next_deadline`: a seat's
presence, a turn's clock, an invitation, the deal, the vote); the loop's own timer puts the
deadline's job in the actor's queue like any command when it comes (`fire_deadline`), and the job
(`_on_deadline`) hands the pure table a `Tick` for each deadline due, in time order, whose steps
the actor stores and tells (`actor_decide`). A computer player thinks outside the event loop
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
from amigos.table import DeadlineKind, Phase, inputs, presence_deadline
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import thinking
from amigos.web.tables.actor_types import HOLDING_LEVEL
from amigos.web.tables.log_entries import InvitationRefused

if TYPE_CHECKING:
    from amigos.table import Deadline, TableState
    from amigos.web.tables.actor_types import Clock, SeatState
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import LogEntry

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
    model_origin: datetime
    model_state: TableState
    # The next deadline's timer, the jobs it started that have not ended, and the computer
    # player's thinking under way.
    _timer: asyncio.TimerHandle | None
    _firing: set[asyncio.Task[None]]
    _thinking: asyncio.Task[None] | None

    if TYPE_CHECKING:
        # Defined by `TableActor` and its other parts.
        async def _decided(
            self, given: inputs.TableInput, *, at: float | None = None, quiet: bool = False
        ) -> list[LogEntry]: ...
        def _model_due(self) -> Deadline | None: ...
        def _with_heartbeats(self) -> TableState: ...
        def _moment(self, seconds: float) -> datetime: ...

        @property
        def paused(self) -> bool: ...
        async def call(self, job: Callable[[], Awaitable[T]], origin: Any = None) -> T: ...
        async def _suspended(self, seat: int) -> bool: ...
        def _open_invitees(self) -> list[int]: ...
        async def _tell_invitee(self, user_id: int, reason: str) -> None: ...
        async def _tell_cancelled(self, invitees: list[int]) -> None: ...

    def _arm(self) -> None:
        """Set the timer for the pure table's next deadline and let a computer player think if it
        is its turn.

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
        """The earliest moment something may fall due at the table, as the pure table finds it
        (`amigos.table.next_deadline`: a seat's presence, or the table's own deadline)."""
        due = self._model_due()
        return None if due is None or due.at is None else self._moment(due.at)

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
        """Whatever fell due by now happens, one deadline at a time in time order, each carried
        out by the pure table at the moment it fell due (`Tick`): a seat's silence or window, a
        page closed during the vote, the turn's clock, an invitation's or the start button's
        window, the deal, the vote's time. One thing only the server can know comes first: before
        a seat's silence or window lapses, whether its player's account was suspended from
        outside the table (whose session watchdog closes the sockets): then the pure table is
        told that instead (`Suspend`), and ends what a suspension ends. Invitations a lapse
        closed are then told on their pages."""
        invited = self._open_invitees()
        looked_up: set[int] = set()
        while not self.broken:
            due = self._model_due()
            now = self.clock.now()
            if due is None or due.at is None or self._moment(due.at) > now:
                break
            lapse = presence_deadline(self._with_heartbeats())
            seat = None if lapse is None or lapse.kind not in PRESENCE_LAPSES else lapse.seat
            if (
                lapse is not None
                and seat is not None
                and seat not in looked_up
                and lapse.at is not None
                and self._moment(lapse.at) <= now
            ):
                looked_up.add(seat)
                if await self._suspended(seat):
                    await self._decided(inputs.Suspend(seat), quiet=True)
                continue  # either way, ask again: a heartbeat may have come during the look-up
            for entry in await self._decided(inputs.Tick(), at=due.at, quiet=True):
                if type(entry) is InvitationRefused and entry.user_id in invited:
                    await self._tell_invitee(entry.user_id, entry.reason)
                    invited.remove(entry.user_id)
        if invited and self.model_state.phase is Phase.CLOSED:
            # The table closed with invitations still open (the start button's window): closed
            # on their pages as a cancellation.
            await self._tell_cancelled(invited)
        if not self.broken:
            self._arm()

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


#: The deadlines at which a seat is judged away or its window lapses: its player's suspension is
#: looked up first (`_on_deadline`).
PRESENCE_LAPSES = frozenset({DeadlineKind.HEARTBEAT, DeadlineKind.RECONNECT, DeadlineKind.GRACE})
