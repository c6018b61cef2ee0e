"""A live table's log, one typed value per kind of entry.

Each accepted action of a table appends entries to its stored log (a tile played, a clock started,
a card given, a seat away...). The log is what rebuilds the table after a restart, and each entry
is also what the table publishes, rendered for each audience. Here each kind is one frozen, slotted
class, defined once: the actor and `game` build these values, and the readers of the log (the
actor's rebuild, `Game.replay`) get them back. How an entry is stored and spelt on the wire, its
kind's name included, is `log_codec`'s business alone.

Nested values the engine's codec writes (a placement, an outcome, a score sheet, a turn's legal
plays, a seat as the protocol shows it) stay the JSON values it made (`Json`): they go to the
database and the wire as they are, and re-typing them here would only copy them on every play.

Why "log entry" and not "event": the pure table's inputs and the Recreo's events are events too;
these are rows of a table's log (docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from amigos.table import NoticeKind

#: A JSON value as the engine's codec (or the actor) wrote it: kept, never read field by field here.
Json = Any


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A match begins: its number at the table, the players' names, the first leader if chosen,
    and when (``at``, as the protocol writes a moment: the record's ``started``; None in entries
    stored before it was kept)."""

    match: int
    players: tuple[str, ...]
    first_leader: int | None
    at: str | None = None


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand is dealt. ``key`` and ``hands`` are secret until the hand ends (the rendering keeps
    them); ``reshuffle`` (Cuban) names the seats offered a new deal, each told only of its own.
    ``lead_draw``: the first hand's draw for the lead, ``(seat, tile)`` in draw order, or None.
    ``at``: when it was dealt (the hand's start in the record and in the pure table; logs of older
    versions lack it), kept off the wire as every entry's moment is."""

    number: int
    id: str
    commitment: str
    leader: int
    key: str
    hands: tuple[tuple[str, ...], ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    reshuffle: tuple[int, ...] = ()
    lead_draw: tuple[tuple[int, str], ...] | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True)
class HandVoided:
    """Cuban: ``seat`` asked for a new deal; this deal is void and its key revealed."""

    number: int
    seat: int
    id: str
    key: str
    commitment: str


@dataclass(frozen=True, slots=True)
class Played:
    """A tile laid. ``system``: the system or a computer player moved, for ``reason`` (None in
    entries stored before reasons were); ``at``: when, as the protocol writes a moment."""

    seat: int
    tile: str
    arm: str | None
    lead_left: int | None
    ends: dict[str, int]
    placement: Json
    points: int
    system: bool
    reason: str | None
    hand_sizes: tuple[int, ...]
    at: str


@dataclass(frozen=True, slots=True)
class Passed:
    """A seat passes (``automatic``: the server passed for it, having no tile to play)."""

    seat: int
    ends: tuple[int, ...]
    automatic: bool
    reason: str | None
    at: str


@dataclass(frozen=True, slots=True)
class Drew:
    """A seat drew ``tile`` from the boneyard (only that seat sees which)."""

    seat: int
    tile: str
    boneyard_size: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    """A hand is over: its outcome, every hand revealed, the key, and the score sheet after it."""

    number: int
    id: str
    outcome: Json
    revealed: tuple[tuple[str, ...], ...]
    key: str
    commitment: str
    sheet: Json


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """A match is over. ``offender``: the seat whose doing ended it unfinished (stored as ``seat``
    whenever it ended short of its target); ``votes_deadline``: when the vote after a match to
    its target closes; ``at``: when it ended (the record's ``ended``; None in entries stored
    before it was kept)."""

    termination: str
    winner: int | None
    sheet: Json
    completed: bool
    offender: int | None = None
    votes_deadline: str | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True)
class TurnClockShown:
    """The turn clock of the seat in turn: its deadline, length and situation, and that seat's
    legal plays (only that seat sees them, and the others the clock only when it is public)."""

    seat: int
    deadline: str | None
    seconds: int
    situation: str
    legal: Json


@dataclass(frozen=True, slots=True)
class Notice:
    """A word to the table about a seat: ``code``, one of `NOTICE_CODES`."""

    code: str
    seat: int | None


#: The code a `Notice` entry stores for each of the pure table's notices that is a word to the
#: table (the others are entries of their own: a seat away or back, an invitation refused).
NOTICE_CODES: dict[NoticeKind, str] = {
    NoticeKind.NO_BLOCKING_SITUATION: "no_blocking",
    NoticeKind.FRESH_TIME: "fresh_time",
}


def no_cards() -> dict[str, int]:
    """A seat's card counts by colour before any card (a new dict: counts are added to)."""
    return {"yellow": 0, "blue": 0, "red": 0}


@dataclass(frozen=True, slots=True)
class CardGiven:
    """A card to a seat's player, with their counts after it (``practice``: a table with computer
    players, whose cards never reach the account). ``at``: when it was given, the record's
    ``cards`` ``at`` (None in entries stored before it was kept); the hand it was given in is
    the one in play where the entry stands in the log, which `Game.replay` knows."""

    seat: int
    user_id: int | None
    colour: str
    reason: str
    cards: dict[str, int]
    practice: bool = False
    at: str | None = None


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """A seat as the protocol shows it, after its invitation was answered."""

    seat: Json


@dataclass(frozen=True, slots=True)
class InvitationRefused:
    """An invited player did not come (``reason``: "refused" or "expired")."""

    seat: int
    user_id: int | None
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class TableCancelled:
    """The table ends before its match started (``reason``: "invitations", "organizer",
    "not_started")."""

    reason: str


@dataclass(frozen=True, slots=True)
class VoteCast:
    """A seat's choice after a match (``left``: cast for a player who left the table)."""

    seat: int
    choice: str
    left: bool = False


@dataclass(frozen=True, slots=True)
class VotesClosed:
    """The vote is over: its result, and the next table it made (rematch or rotation)."""

    result: str
    next_table_id: int | None


@dataclass(frozen=True, slots=True)
class Disconnected:
    """A seat's player is away since ``since`` (``abandon``: while the table already waited)."""

    seat: int
    since: str | None
    reconnect_deadline: str | None
    abandon: bool


@dataclass(frozen=True, slots=True)
class Reconnected:
    """An away seat's player is back."""

    seat: int


@dataclass(frozen=True, slots=True)
class ComputerHolds:
    """A computer player of ``level`` holds an absent player's seat."""

    seat: int
    level: str


@dataclass(frozen=True, slots=True)
class SeatReturned:
    """The player took their seat back from the computer player holding it."""

    seat: int


@dataclass(frozen=True, slots=True)
class Unrecognized:
    """A stored row of a kind this code does not know (none is written today): kept as it is, so
    reading an old log never fails and writing it back changes nothing."""

    kind: str
    data: Json


#: Every entry a table's log holds.
LogEntry = (
    MatchStarted
    | HandStarted
    | HandVoided
    | Played
    | Passed
    | Drew
    | HandEnded
    | MatchEnded
    | TurnClockShown
    | Notice
    | CardGiven
    | SeatChanged
    | InvitationRefused
    | TableCancelled
    | VoteCast
    | VotesClosed
    | Disconnected
    | Reconnected
    | ComputerHolds
    | SeatReturned
    | Unrecognized
)
