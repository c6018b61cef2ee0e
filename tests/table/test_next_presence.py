"""The one rule of when a seat's presence next matters (`next_presence`): a present person's
silence, an absent person's window, a page closed during the vote; the earliest first, then the
lower seat, whatever the kind. The pure table's `next_deadline` and the live server's actor both
ask it, so they take deadlines due together in the same order."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from amigos.table import (
    CardGiven,
    CardReason,
    Colour,
    Conduct,
    DeadlineKind,
    Disconnected,
    Heartbeat,
    Notice,
    NoticeKind,
    Phase,
    Tick,
    Timing,
    next_deadline,
    next_presence,
)
from amigos.table.presence import window

from .helpers import HUMANS, OPEN, Table, config, playing

TIMING = Timing()
HEARTBEAT, RECONNECT, GRACE = DeadlineKind.HEARTBEAT, DeadlineKind.RECONNECT, DeadlineKind.GRACE


@dataclass(frozen=True)
class Seat:
    is_computer: bool = False
    held_by_computer: bool = False


PEOPLE = (Seat(), Seat(), Seat(), Seat())


def due(
    heard: dict[int, float],
    away: dict[int, float] | None = None,
    left: dict[int, float] | None = None,
    *,
    seats: tuple[Seat, ...] = PEOPLE,
    phase: Phase = Phase.PLAYING,
    conduct: Conduct = Conduct.AMIGOS,
) -> tuple[float, DeadlineKind, int] | None:
    return next_presence(phase, conduct, TIMING, seats, heard, away or {}, left or {}, operator.add)


def test_a_window_and_another_seats_silence_due_together_go_by_seat() -> None:
    """Seat 0's window (away since 0 s, 300 s at an Amigos table) and seat 1's silence (last heard
    at 270 s) both fall due at 300 s: the lower seat's goes first, whatever its kind."""
    heard = {0: 0.0, 1: 270.0, 2: 290.0, 3: 290.0}
    assert due(heard, {0: 0.0}) == (300.0, RECONNECT, 0)
    # ... and the other way round: seat 0's silence before seat 1's window.
    heard = {0: 270.0, 1: 0.0, 2: 290.0, 3: 290.0}
    assert due(heard, {1: 0.0}) == (300.0, HEARTBEAT, 0)


def test_the_earliest_goes_first_whatever_the_seat() -> None:
    heard = {0: 280.0, 1: 0.0, 2: 100.0, 3: 271.0}
    assert due(heard, {1: 0.0}) == (130.0, HEARTBEAT, 2)
    assert due({0: 50.0, 1: 0.0, 2: 50.0, 3: 50.0}, {1: 0.0, 3: -1.0}) == (80.0, HEARTBEAT, 0)
    assert due({0: 50.0, 1: 0.0, 2: 50.0, 3: 50.0}, {1: 0.0, 3: -251.0}) == (49.0, RECONNECT, 3)


def test_silences_or_windows_due_together_go_to_the_lower_seat() -> None:
    assert due({0: 9.0, 1: 5.0, 2: 7.0, 3: 5.0}) == (35.0, HEARTBEAT, 1)
    assert due({0: 290.0, 1: 0.0, 2: 290.0, 3: 0.0}, {3: 2.0, 1: 2.0}) == (302.0, RECONNECT, 1)


def test_computer_players_and_seats_they_hold_have_none() -> None:
    heard = {0: 0.0, 1: 0.0, 2: 10.0, 3: 0.0}
    seats = (Seat(is_computer=True), Seat(held_by_computer=True), Seat(), Seat())
    # Seat 1, held, is away but its window no longer runs; seat 3 is away.
    assert due(heard, {1: 0.0, 3: 0.0}, seats=seats) == (40.0, HEARTBEAT, 2)
    assert due(heard, {1: 0.0}, seats=(Seat(is_computer=True), Seat(held_by_computer=True))) is None


def test_the_window_is_the_conducts() -> None:
    assert due({0: 0.0, 1: 200.0}, {0: 0.0}, conduct=Conduct.TIMED) == (120.0, GRACE, 0)
    assert window(Conduct.TIMED, TIMING) == TIMING.grace
    assert due({0: 0.0, 1: 200.0}, {0: 0.0}, conduct=Conduct.CORRESPONDENCE) is None


def test_only_a_live_match_counts_silences_and_windows() -> None:
    heard, away = {0: 0.0, 1: 0.0}, {0: 0.0}
    assert due(heard, away, phase=Phase.DEALING) == (30.0, HEARTBEAT, 1)
    for phase in (Phase.INVITING, Phase.VOTING, Phase.CLOSED):
        assert due(heard, away, phase=phase) is None


def test_during_the_vote_the_first_page_closed_has_left() -> None:
    left = {3: 5.0, 1: 5.0, 0: 6.0}
    assert due({}, {}, left, phase=Phase.VOTING) == (15.0, DeadlineKind.VOTE_ABSENCE, 1)
    assert due({}, {}, left, phase=Phase.PLAYING) is None  # only the vote counts them


def test_moments_may_be_the_servers_datetimes() -> None:
    start = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def at(seconds: float) -> datetime:
        return start + timedelta(seconds=seconds)

    found = next_presence(
        Phase.PLAYING,
        Conduct.AMIGOS,
        TIMING,
        PEOPLE[:2],
        {0: at(0), 1: at(270)},
        {0: at(0)},
        {},
        lambda moment, seconds: moment + timedelta(seconds=seconds),
    )
    assert found == (at(300), RECONNECT, 0)


def test_the_pure_table_takes_the_lower_seats_window_before_the_others_silence() -> None:
    """The issue's case at the pure table: seat 0's page closed at 0 s and seat 1 was last heard at
    270 s: at 300 s seat 0's window runs out (a blue card, the match ends by abandonment) before
    seat 1 is found away, so it never is."""
    table = Table(playing(OPEN, config("amigos-100", HUMANS)))
    table.at(0.0, Disconnected(0))
    for now in range(10, 300, 10):
        for seat in (1, 2, 3) if now <= 270 else (2, 3):
            table.at(float(now), Heartbeat(seat))
    deadline = next_deadline(table.state)
    assert deadline is not None
    assert (deadline.at, deadline.kind, deadline.seat) == (300.0, RECONNECT, 0)
    effects = table.at(300.0, Tick())
    assert effects[0] == CardGiven(0, Colour.BLUE, CardReason.NO_RETURN, 300.0)
    assert table.state.phase is Phase.CLOSED
    away = (NoticeKind.PLAYER_AWAY, NoticeKind.ABANDON)
    told = [effect for effect in effects if isinstance(effect, Notice) and effect.kind in away]
    assert not [effect for effect in told if effect.seat == 1]


#: Moments in whole seconds: sums of them are exact, so ties are real ties.
moments = st.integers(min_value=-400, max_value=400).map(float)


@given(st.data())
def test_the_answer_is_the_earliest_of_every_seats_deadline_then_the_lower_seat(data: st.DataObject) -> None:
    """For drawn seats (people, computers, held seats), absences and moments last heard, the answer
    is the least of every seat's own deadline by (moment, seat)."""
    phase = data.draw(st.sampled_from(list(Phase)))
    conduct = data.draw(st.sampled_from(list(Conduct)))
    count = data.draw(st.integers(min_value=1, max_value=4))
    seats = tuple(
        data.draw(st.sampled_from([Seat(), Seat(), Seat(is_computer=True), Seat(held_by_computer=True)]))
        for _ in range(count)
    )
    heard = {seat: data.draw(moments) for seat in range(count)}
    maybe = st.dictionaries(st.integers(min_value=0, max_value=count - 1), moments)
    away, left = data.draw(maybe), data.draw(maybe)
    every: list[tuple[float, DeadlineKind, int]] = []
    if phase is Phase.VOTING:
        every = [
            (since + TIMING.vote_absence, DeadlineKind.VOTE_ABSENCE, seat) for seat, since in left.items()
        ]
    elif phase in (Phase.DEALING, Phase.PLAYING) and conduct is not Conduct.CORRESPONDENCE:
        for seat, info in enumerate(seats):
            if info.is_computer or info.held_by_computer:
                continue
            if seat in away:
                lapse = RECONNECT if conduct is Conduct.AMIGOS else GRACE
                every.append((away[seat] + window(conduct, TIMING), lapse, seat))
            else:
                every.append((heard[seat] + TIMING.heartbeat_timeout, HEARTBEAT, seat))
    expected = min(every, key=lambda found: (found[0], found[2]), default=None)
    assert due(heard, away, left, seats=seats, phase=phase, conduct=conduct) == expected
