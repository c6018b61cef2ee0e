"""Gathering the players: the part of the table actor that answers invitations and the organizer.

Before its match a table invites its seats (docs/rules.md, "Creating a table and starting"): each
invited player accepts or refuses, the organizer starts the match once every seat has accepted or
calls the table off, and an invitation refused or run out cancels the table. Who may start or call
it off, whether every seat has accepted, whether the match then waits for the button, and for how
long, are the pure table's rules (`amigos.table`: `start_refusal`, `cancel_refusal`, `start_window`;
`amigos.table.gathering`: `all_accepted`, `when_seated`); this part stores and tells what they
decide. `TableActor` inherits it, and every method here runs inside the
actor, like the rest of its jobs.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from amigos.table import cancel_refusal, inputs, start_refusal, start_window
from amigos.table.gathering import WhenSeated, all_accepted, answer_refusal, when_seated
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import store
from amigos.web.tables.actor_types import TIMING, Pending, SeatState
from amigos.web.tables.log_entries import InvitationRefused, LogEntry, SeatChanged, TableCancelled

if TYPE_CHECKING:
    from amigos.table import Conduct, TableError
    from amigos.web.tables.actor_types import Clock

#: The stored deadline of a table whose seats have all accepted and which waits for its organizer.
START_DEADLINE = "start"

#: The English messages of `table.start`'s refusals (the page shows its own words for each code).
START_REFUSALS = {
    "not_organizer": "only the table's organizer may start the match",
    "already_started": "the match has already started",
    "not_all_accepted": "not every seat has accepted yet",
}

#: The English messages of an answer's refusals (`amigos.table.gathering.answer_refusal`'s codes).
ANSWER_REFUSALS = {
    "not_invited": "no open invitation for you at this table",
    "invitation_expired": "the invitation is over",
}

#: The English messages of `table.cancel`'s refusals (`amigos.table.cancel_refusal`'s codes).
CANCEL_REFUSALS = {
    "not_organizer": "only the table's organizer may cancel it",
    "already_started": "the match has started; the table cannot be cancelled",
}


class GatheringMixin:
    """Invitations, the organizer's start and cancellation, for `TableActor` (which sets the
    attributes below)."""

    status: str
    seats: list[SeatState]
    organizer_id: int
    conduct: Conduct
    clock: Clock
    version: int
    deadline_kind: str

    if TYPE_CHECKING:
        # Defined by `TableActor` and its other parts.

        @property
        def organizer_seat(self) -> int: ...
        def seat_dict(self, seat: SeatState) -> dict[str, Any]: ...
        def _start_match(self) -> Pending: ...
        async def _commit(self, pending: Pending) -> None: ...
        async def _tell_invitee(self, user_id: int, reason: str) -> None: ...
        def _feed(self, given: inputs.TableInput, *, decided: bool = False) -> TableError | None: ...

    async def accept(self, user_id: int) -> dict[str, Any]:
        seat = self._invited_seat(user_id)
        self._feed(inputs.Accept(seat.number))
        now = self.clock.now()
        seat.invitation = "accepted"
        seat.invited_until = None
        pending = Pending(entries=[SeatChanged(self.seat_dict(seat))])
        pending.write = store.Write(
            at=now,
            seats=[{"number": seat.number, "invitation": "accepted", "invited_until": None}],
        )
        seated = self._when_seated() if self._everyone_accepted() else None
        if seated is WhenSeated.WAIT_FOR_START:
            # Everyone is seated: the organizer's button starts the match (spec §2), within a
            # window after which the table is cancelled as an unanswered invitation would be.
            pending.write.deadline = (now + timedelta(seconds=start_window(TIMING)), START_DEADLINE)
        elif seated is WhenSeated.START:
            started = self._start_match()
            pending.entries += started.entries
            assert started.write is not None
            started.write.seats = pending.write.seats
            pending.write = started.write
        await self._commit(pending)
        await self._tell_invitee(user_id, "accepted")
        return {"seat": seat.number}

    async def start_by_organizer(self, user_id: int) -> dict[str, Any]:
        """The organizer presses the start button once every seat has accepted (docs/protocol.md,
        `table.start`): the match starts as the last acceptance started it before."""
        refusal = start_refusal(
            by_organizer=user_id == self.organizer_id,
            inviting=self.status == "inviting",
            everyone_accepted=self._everyone_accepted(),
        )
        if refusal is not None:
            raise CommandError(refusal, START_REFUSALS[refusal])
        self._feed(inputs.Start(self.organizer_seat))
        pending = self._start_match()
        assert pending.write is not None
        if pending.write.deadline is None:
            pending.write.deadline = (None, "")  # the start window's deadline is spent
        await self._commit(pending)
        return {"version": self.version}

    async def refuse(self, user_id: int) -> dict[str, Any]:
        seat = self._invited_seat(user_id)
        self._feed(inputs.Refuse(seat.number))
        await self._close_invitations([seat], "refused")
        return {}

    async def cancel(self, user_id: int) -> dict[str, Any]:
        """The organizer calls the table off before its match starts (spec §1.2.3): every open
        invitation is closed, the table is `cancelled` (reason ``organizer``) and every page goes
        back to the meeting room, as when an invitation is refused."""
        refusal = cancel_refusal(
            by_organizer=user_id == self.organizer_id, inviting=self.status == "inviting"
        )
        if refusal is not None:
            raise CommandError(refusal, CANCEL_REFUSALS[refusal])
        self._feed(inputs.Cancel(self.organizer_seat))
        invited = self._open_invitees()
        await self._commit(self._cancel([], "expired", TableCancelled("organizer")))
        await self._tell_cancelled(invited)
        return {}

    def _open_invitees(self) -> list[int]:
        """The accounts whose invitation to this table is still open: the pages to tell when the
        table is cancelled before they answered (read before the cancellation closes them)."""
        return [
            seat.user_id for seat in self.seats if seat.invitation == "pending" and seat.user_id is not None
        ]

    async def _tell_cancelled(self, invitees: list[int]) -> None:
        """Each of ``invitees`` learns that the table they were invited to is cancelled (their
        invitation closes on their pages), whoever called it off."""
        for invitee in invitees:
            await self._tell_invitee(invitee, "cancelled")

    def _invited_seat(self, user_id: int) -> SeatState:
        """The seat whose invitation the player answers, refused as the pure table's rule
        (`amigos.table.gathering.answer_refusal`) says: ``not_invited`` without an open invitation,
        ``invitation_expired`` once its moment came (even before the deadline's timer fired: the
        table is then cancelled as expired)."""
        found = next(
            (
                seat
                for seat in self.seats
                if seat.user_id == user_id and seat.invitation == "pending" and self.status == "inviting"
            ),
            None,
        )
        until = found.invited_until if found is not None else None
        refusal = answer_refusal(invited=found is not None, until=until, now=self.clock.now())
        if refusal is not None:
            raise CommandError(refusal, ANSWER_REFUSALS[refusal])
        assert found is not None
        return found

    def _everyone_accepted(self) -> bool:
        """Whether every seat has accepted (`amigos.table.gathering.all_accepted`)."""
        return all_accepted(
            (seat.is_computer, seat.user_id is not None and seat.invitation == "accepted")
            for seat in self.seats
        )

    def _people(self) -> list[int]:
        """The seats held by people (an account), in order."""
        return [seat.number for seat in self.seats if not seat.is_computer and seat.user_id is not None]

    def _when_seated(self) -> WhenSeated:
        """What the last acceptance does here (`amigos.table.gathering.when_seated`)."""
        return when_seated(self._people(), self.organizer_seat, self.conduct)

    def _waits_for_organizer(self) -> bool:
        """Every seat accepted and the organizer has not started yet: the table waits for the
        button (its stored deadline says so, which a table seated whole by a rematch never has)."""
        waiting = self.status == "inviting" and self.deadline_kind == START_DEADLINE
        return waiting and self._everyone_accepted()

    async def _close_invitations(self, answered: list[SeatState], reason: str) -> None:
        """Invitations were refused or ran out (``reason``): the table never starts (docs/rules.md,
        "Creating a table and starting"). One job stores who did not come (`invitation_refused`)
        and the table's end (`cancelled`); then every invited player's page is told, and the
        lobby frees every seat's status and drops the table from its list (`_commit`)."""
        numbers = {seat.number for seat in answered}
        others = [
            seat.user_id for seat in self.seats if seat.invitation == "pending" and seat.number not in numbers
        ]
        await self._commit(self._cancel(answered, reason))
        for seat in answered:
            if seat.user_id is not None:
                await self._tell_invitee(seat.user_id, reason)
        await self._tell_cancelled([user_id for user_id in others if user_id is not None])

    def _cancel(
        self, answered: list[SeatState], reason: str, ending: TableCancelled = store.CANCELLED
    ) -> Pending:
        """The log entries and the write of a table cancelled because of ``answered``'s
        invitations: theirs marked ``reason``, every other open invitation closed ("expired"), and
        the table's ``ending`` entry (why it is cancelled), with no deadline left: nothing
        rebuilds or wakes it again."""
        now = self.clock.now()
        numbers = {seat.number for seat in answered}
        entries: list[LogEntry] = []
        changed: list[dict[str, Any]] = []
        for seat in self.seats:
            if seat.invitation != "pending":
                continue
            mark = reason if seat.number in numbers else "expired"
            if seat.number in numbers:
                entries.append(InvitationRefused(seat.number, seat.user_id, seat.name, reason))
            seat.invitation = mark
            seat.invited_until = None
            changed.append({"number": seat.number, "invitation": mark, "invited_until": None})
        entries.append(ending)
        self.status = "cancelled"
        write = store.Write(at=now, seats=changed, status="cancelled", ended_at=now, deadline=(None, ""))
        return Pending(entries=entries, write=write)
