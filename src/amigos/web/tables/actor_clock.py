"""The turn clock: the part of the table actor that starts a turn's clock after the inputs the
actor still decides itself (a match starting, a deal, a player back), and gives a card the
presence rules call for (the blue card).

What a turn's clock is and what its running out does are the pure table's rules
(`amigos.table.clock`); running out is carried out by the model itself (`actor_decide`: the
yellow cards, the system's move, a correspondence day run out). This part turns the clock's
moments into the stored deadline and the protocol's words. No clock runs while the table waits
for an absent player. `TableActor` inherits it, and every method here runs inside the actor.

A clock started here counts in seconds from the turn's start (0): its moments are the small offsets
the server adds to that moment.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from amigos.table import CardReason, DeadlineKind, Situation, TurnClock
from amigos.table.clock import clock_due, turn_clock
from amigos.table.sanctions import CardFate, card_fate
from amigos.web.tables.actor_types import TIMING, Pending, SeatState
from amigos.web.tables.entry_writing import legal_plays
from amigos.web.tables.log_entries import TurnClockShown, no_cards
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.table import Conduct
    from amigos.web.tables.actor_types import Clock
    from amigos.web.tables.game import Game

#: The protocol's name for each situation (docs/protocol.md, "The turn clock").
WORDS: dict[Situation, str] = {
    Situation.BLOCKING: "blocking",
    Situation.SINGLE: "single",
    Situation.OPEN: "normal",
    Situation.TIMED: "timed",
    Situation.COMPUTER: "computer",
    Situation.CORRESPONDENCE: "correspondence",
}

#: The stored deadline's kind for each of the clock's deadlines (a correspondence day run out is
#: stored as "abandon"; logs of older versions may also hold "overdue" and "default_move").
STORED: dict[DeadlineKind, str] = {
    DeadlineKind.CARD: "card",
    DeadlineKind.SYSTEM_PLAY: "system_play",
    DeadlineKind.TURN: "abandon",
}


class TurnClockMixin:
    """The turn clock and its cards, for `TableActor` (which sets the attributes below)."""

    seats: list[SeatState]
    game: Game
    clock: Clock
    conduct: Conduct
    deadline_at: datetime | None
    cards: dict[int, dict[str, int]]
    # The clock shown for the turn under way (None when no clock runs).
    clock_info: TurnClockShown | None

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.

        @property
        def paused(self) -> bool: ...

    def _set_clock(self, pending: Pending) -> None:
        """Start the turn clock of the seat in turn (its legal plays go to that seat only).

        While the table waits for an absent player no clock runs (docs/rules.md, "Connection and
        absence"): the clock starts afresh when the player is back."""
        assert pending.write is not None
        write = pending.write
        now = self.clock.now()
        seat = self.game.to_move
        assert seat is not None and self.game.hand is not None
        if self.paused:
            self.clock_info = None
            write.deadline = (None, "")
            return
        state = self.seats[seat]
        computer = state.is_computer or state.held_by_computer
        clock = turn_clock(self.game.hand, self.conduct, TIMING, 0.0, computer)
        seconds = int(clock.budget)
        # seat, deadline, seconds, situation, legal (by position: this runs on every play)
        entry = TurnClockShown(
            seat,
            iso(now + timedelta(seconds=seconds)),
            seconds,
            WORDS[clock.situation],
            legal_plays(self.game.hand, seat),
        )
        pending.entries.append(entry)
        self.clock_info = entry
        write.deadline = _deadline(clock, now)

    def _give_card(self, pending: Pending, seat: int, colour: str, reason: CardReason) -> None:
        """Show the card and count it, as the pure rule `card_fate` says: none for a computer's
        seat; at a practice table (one with a computer player) shown but never on the ladder."""
        state = self.seats[seat]
        fate = card_fate([other.user_id for other in self.seats], seat, reason)
        if fate is CardFate.NOT_GIVEN:
            return
        assert state.user_id is not None  # `card_fate` gives a seat without an account none
        counts = self.cards.setdefault(seat, no_cards())
        counts[colour] += 1
        practice = fate is CardFate.PRACTICE
        assert pending.write is not None
        # The game notes it for the record (practice cards too, as the pure table's record does).
        at = iso(pending.write.at)
        card = self.game.give_card(seat, state.user_id, colour, reason.value, dict(counts), practice, at)
        pending.entries.append(card)
        if practice:
            return
        hand = self.game.current()
        pending.write.cards.append(
            {
                "user_id": state.user_id,
                "match": self.game.match_number,
                "hand": None if hand is None else hand.number,
                "colour": colour,
                "reason": reason.value,
            }
        )


def _deadline(clock: TurnClock, started: datetime) -> tuple[datetime, str]:
    """The stored deadline of ``clock`` (its moments counted from ``started``)."""
    due = clock_due(clock)
    assert due is not None  # every clock the rules start acts at some moment
    return started + timedelta(seconds=due[0]), STORED[due[1]]
