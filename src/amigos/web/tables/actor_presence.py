"""Who is at the table: the part of the table actor that carries a seat's presence to the pure table.

A live match counts on its players being there (docs/rules.md, "Connection and absence"): a page
joining or closing, its heartbeats, a silence, the window an absent player has to come back, what
its lapse does and how the table goes on after a return are all rules of the pure table
(`amigos.table.presence`), which decides them when it is given `Reconnected`, `Disconnected`,
`Heartbeat`, `CommandHeard` or `Suspend` (`actor_decide`). What stays here is I/O: which sockets of
this process are seated where, the heartbeats taken at once (outside any job, see
`heard_at_once`), and the suspension looked up in the database before a seat is judged away, which
the model cannot do. `TableActor` inherits this part, and every method here runs inside the actor.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.table import Phase, inputs, tracks_absence
from amigos.table.common import MATCH_PHASES
from amigos.table.presence import Heard, Sign, absent_seats, heard_from, window
from amigos.web.tables import suspensions

if TYPE_CHECKING:
    from amigos.table import Conduct, TableState
    from amigos.web.tables.actor_types import Clock, SeatState
    from amigos.web.tables.log_entries import LogEntry


class PresenceMixin:
    """Presence at the table, for `TableActor` (which sets the attributes below)."""

    conduct: Conduct
    seats: list[SeatState]
    clock: Clock
    model_state: TableState
    model_origin: datetime
    # The sockets seated at each seat (this process), and the heartbeats taken at once since the
    # model's last step, in the model's seconds (`heard_at_once`; `ModelMixin._feed` hands them on).
    sockets: dict[int, set[object]]
    heard_at: dict[int, float]

    if TYPE_CHECKING:
        # Defined by `TableActor` and its other parts.
        async def _decided(
            self, given: inputs.TableInput, *, at: float | None = None, quiet: bool = False
        ) -> list[LogEntry]: ...
        def seat_held_by(self, user_id: int) -> int | None: ...
        def _moment(self, seconds: float) -> datetime: ...
        def _arm(self) -> None: ...
        def _open_invitees(self) -> list[int]: ...
        async def _tell_cancelled(self, invitees: list[int]) -> None: ...

    @property
    def paused(self) -> bool:
        """Whether the match waits for an absent player (no clock runs meanwhile): the pure
        table's state says so (`TableState.paused`)."""
        return self.model_state.paused

    @property
    def away_since(self) -> dict[int, datetime]:
        """Each seat found absent, with since when (the pure table's seats, as moments)."""
        return {
            number: self._moment(seat.away_since)
            for number, seat in enumerate(self.model_state.seats)
            if seat.away_since is not None
        }

    def _window_end(self, seat: int) -> datetime | None:
        """When the absent seat's window to come back runs out (None: not away, held by a computer
        player, or no absence counts now), from the pure table's state (`presence.window`)."""
        state = self.model_state
        info = state.seats[seat]
        since = info.away_since
        if (
            since is None
            or info.held_by_computer
            or not tracks_absence(state.phase in MATCH_PHASES, self.conduct)
        ):
            return None
        return self._moment(since + window(self.conduct, state.config.timing))

    def _absent_seats(self) -> tuple[int, ...]:
        """The people's seats away now, as the pure rule `absent_seats` says: written in the record
        as the match ends (docs/record-format.md, ``absent``)."""
        return absent_seats(
            (not seat.is_computer, seat.away_since is not None, seat.held_by_computer)
            for seat in self.model_state.seats
        )

    async def _suspended(self, seat: int) -> bool:
        """Whether the account at ``seat`` is suspended now (asked of the database)."""
        user_id = self.seats[seat].user_id
        if user_id is None:
            return False
        return bool(await database_sync_to_async(suspensions.account_suspended)(user_id, self.clock.now()))

    async def suspension_imposed(self, user_id: int) -> None:
        """Moderation suspended ``user_id`` away from the table (`suspension_news`; inside the
        actor): if the player holds a seat here (an invitation not yet answered counts: the pure
        table's seats are its accounts) and the account is suspended now, asked of the database
        rather than taken from the news, the pure table is told (`Suspend`) and ends what a
        suspension ends: the match being played (at a correspondence table too, where no socket
        closing or silence would ever tell it), a table still inviting (its other invitees told
        as when the organizer cancels it) or the vote, closed for the meeting room."""
        seat = self.seat_held_by(user_id)
        if seat is None or not await self._suspended(seat):
            return
        # Only a table still inviting has open invitations, and a suspension cancels it.
        invited = [invitee for invitee in self._open_invitees() if invitee != user_id]
        await self._decided(inputs.Suspend(seat), quiet=True)
        if self.model_state.phase is Phase.CLOSED:
            await self._tell_cancelled(invited)

    async def played_by(self, seat: int) -> None:
        """A move or a request for a new deal came from the seat's page but was refused before the
        table judged it (the version its page had seen): a sign of life all the same, as the pure
        table's rule `command_heard` says (`CommandHeard`)."""
        await self._decided(inputs.CommandHeard(seat), quiet=True)

    async def attach(self, key: object, seat: int) -> None:
        """A socket of the seat's player joined the table (inside the actor): the pure table hears
        the seat (`Reconnected`: back if it was away, and an absence from the vote ends)."""
        self.sockets.setdefault(seat, set()).add(key)
        await self._decided(inputs.Reconnected(seat), quiet=True)
        self._arm()

    def heard_at_once(self, seat: int) -> bool:
        """A heartbeat from the seat's player, taken without a job when that is all it is: a
        present player's silence simply counts from now (kept in `heard_at`, which the model's
        next step takes first). False when it is more (the player was away and is back, which is
        stored and told): then it goes through `heard` in the actor.

        Why: every seated page beats every 20 s, and pages that opened together (all of them,
        after a restart) beat together. A job each, with its task, its place in the queue and the
        timer set again, was work enough that a thousand tables' beats arriving within a few
        seconds doubled the server's load and its plays' delays (bench/load.py). The timer is not
        set again: the silence deadline only moves later, so a timer set for the earlier one fires,
        finds nothing due and is set for what is (`_deadline_due`)."""
        info = self.model_state.seats[seat]
        heard = heard_from(
            Sign.HEARTBEAT,
            computer=info.is_computer,
            away=info.away_since is not None,
            held=info.held_by_computer,
            page_open=info.page_open,
        )
        if heard is Heard.BACK:
            return False
        if heard is Heard.PRESENT:
            self.heard_at[seat] = (self.clock.now() - self.model_origin).total_seconds()
        return True

    async def heard(self, seat: int) -> None:
        """A heartbeat from the seat's player that brings it back (inside the actor)."""
        if self.seats[seat].is_computer:
            return
        await self._decided(inputs.Heartbeat(seat), quiet=True)
        self._arm()

    async def detach(self, key: object, seat: int) -> None:
        """A socket of the seat's player closed or left the table (inside the actor). With no
        socket left, the pure table is told (`Disconnected`: away during a live match, an absence
        from the vote during it); but first, where that would find the seat away, whether the
        player's account was suspended from outside the table (a desk decision, an
        administrator), whose sockets the session watchdog just closed: then the match ends for
        suspension instead (`Suspend`)."""
        keys = self.sockets.get(seat)
        if keys is None or key not in keys:
            return
        keys.discard(key)
        if keys or self.seats[seat].is_computer:
            return
        state = self.model_state
        info = state.seats[seat]
        tracking = tracks_absence(state.phase in MATCH_PHASES, self.conduct)
        if tracking and info.away_since is None and await self._suspended(seat):
            await self._decided(inputs.Suspend(seat), quiet=True)
        else:
            await self._decided(inputs.Disconnected(seat), quiet=True)
        self._arm()
