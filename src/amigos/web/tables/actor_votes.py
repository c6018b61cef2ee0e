"""The vote after a match: the part of the table actor that opens, counts and closes it.

When a match ends the seated people choose a rematch, a rotation or the meeting room
(`amigos.table.gathering.decide` and `vote_outcome` decide, for the pure table too). The vote has
its own state (`votes`, `next_table_id`) and its own way out (creating the next table and waking it), so it is
kept apart from the actor's queue and commands; `TableActor` inherits it, and every method here
runs inside the actor, like the rest of its jobs.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from amigos.table import VoteChoice, inputs
from amigos.web.realtime.commands import CommandError
from amigos.web.tables.actor_types import Pending, SeatState

if TYPE_CHECKING:
    from amigos.web.tables.actor_types import Clock, NextTables
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import LogEntry, TurnClockShown

log = logging.getLogger("amigos.tables")

#: The protocol's word for each choice (docs/protocol.md, `table.vote`: the meeting room is
#: "communicate"), and back.
VOTE_WORDS: dict[VoteChoice, str] = {
    VoteChoice.REMATCH: "rematch",
    VoteChoice.ROTATE: "rotate",
    VoteChoice.LOBBY: "communicate",
}
VOTE_CHOICES: dict[str, VoteChoice] = {word: choice for choice, word in VOTE_WORDS.items()}


class VotesMixin:
    """The end-of-match vote, for `TableActor` (which sets the attributes below)."""

    id: int
    version: int
    status: str
    seats: list[SeatState]
    game: Game
    clock: Clock
    links: NextTables
    clock_info: TurnClockShown | None
    # Each seat's choice in the vote under way, and the table it created (rematch or rotation).
    votes: dict[int, VoteChoice]
    next_table_id: int | None

    if TYPE_CHECKING:
        # Defined by `TableActor`.
        async def _decided(
            self, given: inputs.TableInput, *, at: float | None = None, quiet: bool = False
        ) -> list[LogEntry]: ...

        async def _commit(self, pending: Pending) -> None: ...
        def _acting_seat(self, user_id: int, version: int) -> int: ...
        def _absent_seats(self) -> tuple[int, ...]: ...

    async def vote(self, user_id: int, version: int, choice: str) -> dict[str, Any]:
        """A seated player's choice after the match (docs/protocol.md, `table.vote`). Who sent it
        is checked first, then its word (a malformed payload is refused before the table is
        asked), then the pure table decides (`actor_decide`: ``not_voting`` once no vote is open;
        a vote decided creates the next table before it is stored)."""
        seat = self._acting_seat(user_id, version)
        chosen = VOTE_CHOICES.get(choice) if isinstance(choice, str) else None
        if chosen is None:
            raise CommandError("bad_choice", "choose rematch, rotate or communicate")
        await self._decided(inputs.Vote(seat, chosen))
        return {"version": self.version}

    async def _wake_next_table(self) -> None:
        """Start the table the vote created (its seats all accepted: the match starts at once)."""
        if self.next_table_id is None or self.status != "finished":
            return
        try:
            await self.links.wake(self.next_table_id)
        except Exception:
            # its players' pages load it anyway (joining a table wakes it)
            log.exception("table %s: could not start the next table %s", self.id, self.next_table_id)
