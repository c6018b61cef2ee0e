"""`log_facts.read`: what a match's log says of each seat and of the turn clock, which a restarted
actor and the model's state read back (`restore`) both take from it."""

from __future__ import annotations

from amigos.table import VoteChoice
from amigos.web.tables import log_facts
from amigos.web.tables.log_entries import (
    CardGiven,
    ComputerHolds,
    Disconnected,
    Passed,
    Reconnected,
    SeatReturned,
    TurnClockShown,
    VoteCast,
)

AT = "2026-11-22T20:00:00.000Z"


def clock(seat: int) -> TurnClockShown:
    return TurnClockShown(seat, "2026-11-22T20:00:20.000Z", 20, "normal", [])


def card(seat: int, colour: str, practice: bool = False) -> CardGiven:
    return CardGiven(seat, None, colour, "timeout", {}, practice, AT)


def test_cards_count_by_colour_and_practice_cards_apart() -> None:
    facts = log_facts.read(
        [card(1, "yellow"), card(1, "yellow", practice=True), card(1, "blue"), card(2, "red", practice=True)],
        4,
    )
    assert facts.seats[1].cards == {"yellow": 2, "blue": 1, "red": 0}
    assert facts.seats[1].practice == {"yellow": 1, "blue": 0, "red": 0}
    assert facts.seats[2].practice == {"yellow": 0, "blue": 0, "red": 1}
    assert facts.seats[0].cards == {"yellow": 0, "blue": 0, "red": 0}


def test_the_clock_last_shown_runs_until_a_move_or_an_absence_and_counts_its_yellow_cards() -> None:
    facts = log_facts.read([clock(2), card(2, "yellow"), card(3, "yellow"), card(2, "yellow")], 4)
    assert facts.clock == clock(2) and facts.clock_cards == 2
    assert log_facts.read([clock(2), Passed(2, (3, 4), True, None, AT)], 4).clock is None
    assert log_facts.read([clock(2), Disconnected(1, AT, None, False)], 4).clock is None
    assert log_facts.read([clock(2), card(2, "yellow"), clock(3)], 4).clock_cards == 0


def test_presence_away_held_and_back() -> None:
    facts = log_facts.read(
        [Disconnected(1, AT, None, True), ComputerHolds(1, "normal"), Disconnected(2, None, None, False)], 4
    )
    assert (facts.seats[1].away_since, facts.seats[1].abandon, facts.seats[1].held) == (AT, True, True)
    assert facts.seats[2].away_since == ""  # away, since a moment the entry did not say
    back = log_facts.read([Disconnected(1, AT, None, True), ComputerHolds(1, "normal"), Reconnected(1)], 4)
    assert (back.seats[1].away_since, back.seats[1].abandon, back.seats[1].held) == (None, False, False)
    returned = log_facts.read([ComputerHolds(0, "normal"), SeatReturned(0)], 4)
    assert not returned.seats[0].held


def test_votes_in_known_words_only_and_seats_out_of_range_ignored() -> None:
    facts = log_facts.read(
        [VoteCast(0, "rematch"), VoteCast(1, "rotate"), VoteCast(1, "nonsense"), VoteCast(9, "rematch")], 2
    )
    assert [seat.vote for seat in facts.seats] == [VoteChoice.REMATCH, VoteChoice.ROTATE]
