"""The vote after a match: the part of the table actor that opens, counts and closes it.

When a match ends the seated people choose a rematch, a rotation or the meeting room
(`amigos.table.gathering.decide` and `vote_outcome` decide, for the pure table too). The vote has
its own state (`votes`, `next_table_id`) and its own way out (creating the next table and waking it), so it is
kept apart from the actor's queue and commands; `TableActor` inherits it, and every method here
runs inside the actor, like the rest of its jobs.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from amigos.table import VoteChoice, inputs
from amigos.table.gathering import decide, vote_outcome
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import store
from amigos.web.tables.actor_types import TIMING, Pending, SeatState
from amigos.web.tables.log_entries import LogEntry, MatchEnded, VoteCast, VotesClosed
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.table import TableError
    from amigos.web.tables.actor_types import Clock, NextTables
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import TurnClockShown

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
        def _feed(self, given: inputs.TableInput, *, decided: bool = False) -> TableError | None: ...
        async def _decided(self, given: inputs.TableInput) -> None: ...

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

    async def _cast(self, seat: int, choice: VoteChoice, *, left: bool = False) -> None:
        """Store a seat's choice, and close the vote when the pure table's rule
        (`amigos.table.gathering.decide`) says it is decided."""
        self.votes[seat] = choice
        pending = Pending(entries=[VoteCast(seat, VOTE_WORDS[choice], left)])
        if decide(self.votes, self._voters()) is not None:
            pending.entries += await self._close_votes()
        now = self.clock.now()
        pending.write = store.Write(at=now)
        if self.status != "voting":
            pending.write.status = self.status
            pending.write.ended_at = now
            pending.write.deadline = (None, "")
            pending.write.next_table_id = self.next_table_id
        await self._commit(pending)
        await self._wake_next_table()

    def _voters(self) -> list[int]:
        """The seats that vote after a match: the people's (computer players do not vote)."""
        return [s.number for s in self.seats if not s.is_computer]

    def _after_match(self, pending: Pending) -> None:
        assert pending.write is not None
        now = self.clock.now()
        self.status = "voting"
        self.votes = {}
        self.clock_info = None
        write = pending.write
        write.status = "voting"
        write.record = self.game.record(absent=self._absent_seats())
        write.record_ended = True
        write.termination = self.game.termination
        deadline = now + timedelta(seconds=TIMING.vote)
        write.deadline = (deadline, "votes")
        # The match's end tells when the vote closes.
        pending.entries = [
            replace(entry, votes_deadline=iso(deadline)) if isinstance(entry, MatchEnded) else entry
            for entry in pending.entries
        ]

    async def _close_votes(self) -> list[LogEntry]:
        """Close the vote: the same rematch or rotate from every human seat creates the next table
        (stored before anyone is told, so `votes_closed` names it); anything else is the meeting
        room ("communicate"). Also when the vote's time ran out (`vote_outcome`)."""
        result = vote_outcome(self.votes, self._voters())
        if result is not VoteChoice.LOBBY:
            try:
                self.next_table_id = await self.links.make_next_table(self.id, result.value, self.clock.now())
            except Exception:
                log.exception("table %s: could not create the next table; back to the lobby", self.id)
                result, self.next_table_id = VoteChoice.LOBBY, None
        self.status = "finished"
        return [VotesClosed(VOTE_WORDS[result], self.next_table_id)]

    def _vote_closed_by_suspension(self) -> Pending:
        """A seated player was suspended during the vote (the pure rule `suspension_ending`): the
        vote closes for the meeting room with no next table, stored as a vote that is not
        unanimous closes (`votes_closed`, ``communicate``), and everyone goes back to the meeting
        room."""
        now = self.clock.now()
        self.status, self.next_table_id = "finished", None
        write = store.Write(at=now, status="finished", ended_at=now, deadline=(None, ""))
        return Pending(entries=[VotesClosed(VOTE_WORDS[VoteChoice.LOBBY], None)], write=write)

    async def _wake_next_table(self) -> None:
        """Start the table the vote created (its seats all accepted: the match starts at once)."""
        if self.next_table_id is None or self.status != "finished":
            return
        try:
            await self.links.wake(self.next_table_id)
        except Exception:
            # its players' pages load it anyway (joining a table wakes it)
            log.exception("table %s: could not start the next table %s", self.id, self.next_table_id)
