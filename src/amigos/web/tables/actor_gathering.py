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

from typing import TYPE_CHECKING, Any

from amigos.table import inputs
from amigos.web.realtime.commands import CommandError
from amigos.web.tables.actor_types import Pending, SeatState

if TYPE_CHECKING:
    from amigos.table import Conduct
    from amigos.web.tables.actor_types import Clock
    from amigos.web.tables.log_entries import LogEntry

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
        def seat_held_by(self, user_id: int) -> int | None: ...
        async def _commit(self, pending: Pending) -> None: ...
        async def _tell_invitee(self, user_id: int, reason: str) -> None: ...
        async def _decided(
            self, given: inputs.TableInput, *, at: float | None = None, quiet: bool = False
        ) -> list[LogEntry]: ...

    async def accept(self, user_id: int) -> dict[str, Any]:
        """The invited player accepts (the pure table decides: `actor_decide`); the last
        acceptance starts the match, or waits for the organizer's button."""
        seat = self._held_seat(user_id, "not_invited", ANSWER_REFUSALS["not_invited"])
        await self._decided(inputs.Accept(seat))
        await self._tell_invitee(user_id, "accepted")
        return {"seat": seat}

    async def start_by_organizer(self, user_id: int) -> dict[str, Any]:
        """The organizer presses the start button once every seat has accepted (docs/protocol.md,
        `table.start`): the pure table judges it (`start_refusal`) and starts the match."""
        await self._decided(
            inputs.Start(self._held_seat(user_id, "not_organizer", START_REFUSALS["not_organizer"]))
        )
        return {"version": self.version}

    async def refuse(self, user_id: int) -> dict[str, Any]:
        """The invited player refuses: the table is cancelled (the pure table decides); the player
        is told their answer, and every other open invitation closes on its page."""
        seat = self._held_seat(user_id, "not_invited", ANSWER_REFUSALS["not_invited"])
        others = [invitee for invitee in self._open_invitees() if invitee != user_id]
        await self._decided(inputs.Refuse(seat))
        await self._tell_invitee(user_id, "refused")
        await self._tell_cancelled(others)
        return {}

    async def cancel(self, user_id: int) -> dict[str, Any]:
        """The organizer calls the table off before its match starts (spec §1.2.3): every open
        invitation is closed, the table is `cancelled` (reason ``organizer``) and every page goes
        back to the meeting room, as when an invitation is refused."""
        invited = self._open_invitees()
        await self._decided(
            inputs.Cancel(self._held_seat(user_id, "not_organizer", CANCEL_REFUSALS["not_organizer"]))
        )
        await self._tell_cancelled(invited)
        return {}

    def _held_seat(self, user_id: int, code: str, message: str) -> int:
        """The seat the account holds here, whatever its invitation; refused with ``code`` when it
        holds none (whether it may answer, start or call off is the pure table's to judge)."""
        seat = self.seat_held_by(user_id)
        if seat is None:
            raise CommandError(code, message)
        return seat

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
