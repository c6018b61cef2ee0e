"""What a match's stored log says about each seat and the turn clock: read once, for the actor's
start and for the pure table's state read back (`restore`).

Why one reader: a restarted actor and `restore.table_state` both need, from the same log, who is
away (since when, marked "Abandono" or not), whose seat a computer player holds, each seat's
vote, its cards, and the turn clock last shown; each used to read them with its own loop, and
the two loops had begun to differ (a vote in a word no longer known was kept as None by one and
skipped by the other). The hand itself (deals and moves) is read by `Game.replay` at the actor
and by `restore` for the model, each into its own shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from amigos.table import VoteChoice
from amigos.web.tables.actor_votes import VOTE_CHOICES
from amigos.web.tables.log_entries import (
    CardGiven,
    ComputerHolds,
    Disconnected,
    HandEnded,
    HandStarted,
    HandVoided,
    LogEntry,
    MatchEnded,
    Passed,
    Played,
    Reconnected,
    SeatReturned,
    TurnClockShown,
    VoteCast,
    no_cards,
)

#: The card colours a seat's counts keep.
COLOURS = ("yellow", "blue", "red")


@dataclass
class SeatFacts:
    """One seat as the log leaves it. ``away_since``: the moment (ISO 8601, as logged) its
    absence began, "" when the entry did not say, None when the seat is not away. ``cards``:
    every card of the match by colour; ``practice``: those of a table with a computer player,
    which the site stores no `Card` row for."""

    away_since: str | None = None
    abandon: bool = False
    held: bool = False
    vote: VoteChoice | None = None
    cards: dict[str, int] = field(default_factory=no_cards)
    practice: dict[str, int] = field(default_factory=no_cards)


@dataclass
class LogFacts:
    """Every seat's facts, and the turn clock last shown if it still runs (``clock``) with the
    yellow cards its seat was given since (``clock_cards``)."""

    seats: list[SeatFacts]
    clock: TurnClockShown | None = None
    clock_cards: int = 0


def read(entries: Iterable[LogEntry], seat_count: int) -> LogFacts:
    """The facts of ``entries`` (one match's log, in order) for a table of ``seat_count`` seats."""
    facts = LogFacts([SeatFacts() for _ in range(seat_count)])
    for entry in entries:
        read_one(facts, entry)
    return facts


def read_one(facts: LogFacts, entry: LogEntry) -> None:
    """``facts`` after one more entry of the log."""
    if isinstance(entry, TurnClockShown):
        facts.clock, facts.clock_cards = entry, 0
        return
    if isinstance(entry, HandStarted | HandVoided | HandEnded | MatchEnded | Played | Passed):
        # The turn the clock timed is over (a deal or a move always shows the next clock).
        facts.clock = None
        return
    seat_number = getattr(entry, "seat", None)
    if not isinstance(seat_number, int) or not 0 <= seat_number < len(facts.seats):
        return
    seat = facts.seats[seat_number]
    if isinstance(entry, CardGiven):
        if entry.colour in COLOURS:
            seat.cards[entry.colour] += 1
            if entry.practice:
                seat.practice[entry.colour] += 1
        shown = facts.clock
        if shown is not None and entry.seat == shown.seat and entry.colour == "yellow":
            facts.clock_cards += 1
    elif isinstance(entry, Disconnected):
        facts.clock = None
        seat.away_since = entry.since or ""
        seat.abandon = entry.abandon
    elif isinstance(entry, Reconnected):
        seat.away_since, seat.abandon, seat.held = None, False, False
    elif isinstance(entry, ComputerHolds):
        seat.held = True
    elif isinstance(entry, SeatReturned):
        seat.held = False
    elif isinstance(entry, VoteCast):
        choice = VOTE_CHOICES.get(entry.choice)
        if choice is not None:
            seat.vote = choice
