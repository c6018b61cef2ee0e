"""Who may act: the part of the table actor that checks a command's sender before the command.

The rules are the pure table's (`amigos.table.senders.sender_refusal`: a seat here, then the
version the page saw; `amigos.table.presence.command_heard`: which refused commands still show
the page is there). This part only asks them with the actor's state and turns a refusal into the
protocol's error; whether the table is in play for the seat is the model's to judge with the
command (`actor_decide`).
`TableActor` inherits it, and every method here runs inside the actor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amigos.table.presence import command_heard
from amigos.table.senders import sender_refusal
from amigos.web.realtime.commands import CommandError

if TYPE_CHECKING:
    from amigos.web.tables.actor_types import SeatState

#: The English messages of a command's refusals by who sent it (`sender_refusal`'s codes).
SENDER_REFUSALS = {
    "not_seated": "you hold no seat at this table",
    "stale_version": "the table is at version {version}",
}


class SendersMixin:
    """The sender's checks, for `TableActor` (which sets the attributes below)."""

    seats: list[SeatState]
    status: str
    version: int

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.

        @property
        def paused(self) -> bool: ...
        def seat_of(self, user_id: int) -> int | None: ...
        async def played_by(self, seat: int) -> None: ...

    def _acting_seat(self, user_id: int, version: int) -> int:
        """The sender's seat, refused in the pure table's order (`amigos.table.senders.sender_refusal`:
        ``not_seated``, then ``stale_version``) before the command's own refusals."""
        seat, refusal = self._sender(user_id, version)
        self._refuse_sender(refusal)
        assert seat is not None
        return seat

    async def _moving_sender(self, user_id: int, version: int) -> int:
        """The seat of a move's or a request for a new deal's sender (`_acting_seat`). The pure
        table hears the seat itself when it judges the command (`actor_decide`); a command refused
        here for its version came from the player's page all the same, which is there: the actor
        hears the seat first (`played_by`), as the pure table's rule `command_heard` says. Only a
        sender with no seat here is heard from by nobody."""
        seat, refusal = self._sender(user_id, version)
        if seat is not None and refusal is not None and command_heard(refusal):
            await self.played_by(seat)
        self._refuse_sender(refusal)
        assert seat is not None
        return seat

    def _sender(self, user_id: int, version: int) -> tuple[int | None, str | None]:
        """The sender's seat (None: none here) and why the command is refused by who sent it and
        which version they saw (`sender_refusal`; None: it is not)."""
        seat = self.seat_of(user_id)
        return seat, sender_refusal(seated=seat is not None, saw=version, version=self.version)

    def _refuse_sender(self, refusal: str | None) -> None:
        if refusal is not None:
            raise CommandError(refusal, SENDER_REFUSALS[refusal].format(version=self.version))
