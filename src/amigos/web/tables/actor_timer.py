"""Timers and computer players: the part of the table actor that wakes it when a deadline falls
due and lets a computer player think when its turn comes.

A deadline (a seat's presence, or the stored one: a turn's clock, an invitation, the deal, the
vote) is fired by the loop's own timer, which puts the deadline's job in the actor's queue like any
command (`TableActor.fire_deadline`); what the job does is the actor's rules of a job. A computer
player thinks outside the event loop (`thinking`, a process pool) and plays through the queue too.
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
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import thinking

if TYPE_CHECKING:
    from amigos.engine import Action
    from amigos.web.tables.actor_types import Clock, Pending, SeatState
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
    # The next deadline's timer, the jobs it started that have not ended, and the computer
    # player's thinking under way.
    _timer: asyncio.TimerHandle | None
    _firing: set[asyncio.Task[None]]
    _thinking: asyncio.Task[None] | None

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.

        @property
        def paused(self) -> bool: ...
        def _next_presence(self) -> tuple[datetime, str, int] | None: ...
        async def fire_deadline(self) -> None: ...
        async def call(self, job: Callable[[], Awaitable[T]], origin: Any = None) -> T: ...
        async def _commit(self, pending: Pending) -> None: ...
        def _act(self, seat: int, action: Action, *, system: bool, reason: str | None = None) -> Pending: ...

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

    async def _think(self, seat: int, version: int) -> None:
        hand = self.game.hand
        if hand is None:
            return
        level = self.seats[seat].level or "normal"
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
            await self._commit(self._act(seat, action, system=False, reason="computer"))

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
