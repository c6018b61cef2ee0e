"""The small types a table actor and its parts share: a seat's state, the job's pending write, the
clock, the next-table links the vote needs, and the table's durations.

They live apart from `actor` because the actor's parts (the `actor_*` modules) name them too,
and the actor imports those parts: were the types in `actor`, each part would have to import the
module that imports it. Nothing here names the actor, so no part depends on `actor`, even for
typing. `actor` re-exports them, so `from amigos.web.tables.actor import Clock` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from amigos.table import Phase, Timing
from amigos.web.tables import store
from amigos.web.tables.log_entries import LogEntry
from amigos.web.tables.seat_names import computer_name

#: Every duration of the live tables: the pure table's (`amigos.table.Timing`, the specs' numbers).
TIMING = Timing()
#: How long a seat may be unheard before it is away, made once: every play asks when each seat's
#: silence next matters, and making this `timedelta` from a float each time was a hundredth of it.
SILENCE = timedelta(seconds=TIMING.heartbeat_timeout)

#: The pure table's phase of each status but "playing" (dealing or playing: `phase_of`).
_PHASES = {"inviting": Phase.INVITING, "voting": Phase.VOTING}


def phase_of(status: str, in_hand: bool) -> Phase:
    """A table's status word in the pure table's words (`amigos.table.Phase`): a playing table
    plays a hand (``in_hand``: one is dealt and not over) or deals between two; a finished or
    cancelled table is closed. Asked by the actor and by the restore reader."""
    if status == "playing":
        return Phase.PLAYING if in_hand else Phase.DEALING
    return _PHASES.get(status, Phase.CLOSED)


#: The level a computer player plays at when it holds an absent person's seat (a person's seat has
#: no level of its own): what `ComputerHolds` names and what the seat's moves are thought at.
HOLDING_LEVEL = "normal"
#: Each presence duration of `TIMING` as a `timedelta`, made once, for `later`.
_SPANS = {
    seconds: timedelta(seconds=seconds)
    for seconds in (TIMING.heartbeat_timeout, TIMING.reconnect, TIMING.grace, TIMING.vote_absence)
}


def later(moment: datetime, seconds: float) -> datetime:
    """``seconds`` after ``moment``: how the pure table's presence rule (`amigos.table.next_presence`,
    which counts in seconds) adds a duration to the actor's moments. Its durations are made once
    (`_SPANS`): the rule is asked after every play."""
    span = _SPANS.get(seconds)
    return moment + (timedelta(seconds=seconds) if span is None else span)


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        """The aware UTC time, as Django's `timezone.now` gives it with ``USE_TZ`` (the site's
        setting), without reading the setting through its lazy object on every call: a play asks
        the clock several times, and that read was most of this call's cost (3% of the table
        server's time in the closed loop)."""
        return datetime.now(UTC)


class NextTables(Protocol):
    """The part of the actor's links (`actor.Links`) the vote uses: making the rematch or rotated
    table and waking it. None of it names the actor."""

    async def make_next_table(self, table_id: int, choice: str, now: datetime | None = None) -> int: ...
    async def wake(self, table_id: int) -> None: ...


@dataclass
class SeatState(store.SeatRow):
    """A seat as the live actor keeps it: the stored row, and whether its player is here."""

    connected: bool = True
    held_by_computer: bool = False

    @property
    def is_computer(self) -> bool:
        return self.user_id is None and bool(self.level)

    def label(self, players: int) -> str:
        """The seat's name at a table of ``players`` (a computer player's tells its seat)."""
        if self.is_computer:
            return computer_name(self.number, players, self.level)
        return self.name


@dataclass
class Pending:
    """What the current job will write and then publish: the log entries it appends, and the rest
    of the table's row (`store.Write`)."""

    entries: list[LogEntry] = field(default_factory=list)
    write: store.Write | None = None
