"""The next presence deadline (`PresenceMixin._next_presence`, which the timer reads after every
play and the deadline's job when it fires) is the first of the full list of every seat's deadline
(built here as the rules say it), sorted by moment then seat (`amigos.table.next_presence`'s tie
rule, the pure table's), for any table: drawn seats (people, computers, held seats), statuses,
absences and the moments each seat was last heard from."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.table import Conduct, DeadlineKind, Phase
from amigos.web.tables.actor_presence import PresenceMixin
from amigos.web.tables.actor_types import SILENCE, TIMING, SeatState
from tests.web.tables.support import FakeClock

START = datetime(2026, 11, 28, 5, 0, tzinfo=UTC)


class Table(PresenceMixin):
    """The presence part alone, with the attributes the actor would set."""

    @property
    def phase(self) -> Phase:
        # As `TableActor.phase` says it, but for the hand (dealing or playing: both a live match).
        return {"inviting": Phase.INVITING, "playing": Phase.PLAYING, "voting": Phase.VOTING}.get(
            self.status, Phase.CLOSED
        )


moments = st.integers(min_value=-400, max_value=400).map(lambda seconds: START + timedelta(seconds=seconds))


@st.composite
def tables(draw: st.DrawFn) -> Table:
    table = Table()
    # half the tables are mid-match, where each seat's presence counts
    table.status = draw(st.one_of(st.just("playing"), st.sampled_from(["inviting", "voting", "finished"])))
    table.conduct = draw(st.sampled_from(list(Conduct)))
    table.clock = FakeClock(START)
    table.seats = []
    table.last_seen, table.away_since, table.vote_left = {}, {}, {}
    maybe = st.one_of(st.none(), moments)
    for number in range(draw(st.integers(min_value=2, max_value=4))):
        # mostly people, mostly in their own seats: the cases where the deadlines compete
        person = draw(st.sampled_from([True, True, True, False]))
        table.seats.append(
            SeatState(
                number=number,
                user_id=number + 1 if person else None,
                name=f"Jugador {number}",
                # a seat without a user is a computer player, of a level (`services` checks it)
                level="" if person else draw(st.sampled_from(["easy", "hard"])),
                invitation="accepted",
                invited_until=None,
                held_by_computer=person and draw(st.sampled_from([False, False, True])),
            )
        )
        # every seat has been heard from (the actor hears every seat when it is built)
        table.last_seen[number] = draw(moments)
        for moments_of in (table.away_since, table.vote_left):
            moment = draw(maybe)
            if moment is not None:
                moments_of[number] = moment
    return table


def every_presence_deadline(table: Table) -> list[tuple[datetime, DeadlineKind, int]]:
    """Each seat's deadline, earliest first, then by seat: a present person's silence (30 s after
    last heard), an away person's window; during the vote, each seat whose page left."""
    if table.status == "voting":
        absence = timedelta(seconds=TIMING.vote_absence)
        left = DeadlineKind.VOTE_ABSENCE
        return sorted(
            ((since + absence, left, seat) for seat, since in table.vote_left.items()),
            key=by_moment_then_seat,
        )
    if table.status != "playing" or table.conduct is Conduct.CORRESPONDENCE:
        return []
    found = []
    for seat in table.seats:
        if seat.user_id is None or seat.held_by_computer:
            continue
        number = seat.number
        if number in table.away_since:
            window = table.away_since[number] + timedelta(seconds=table._window())
            lapse = DeadlineKind.RECONNECT if table.conduct is Conduct.AMIGOS else DeadlineKind.GRACE
            found.append((window, lapse, number))
        else:
            found.append((table.last_seen[number] + SILENCE, DeadlineKind.HEARTBEAT, number))
    return sorted(found, key=by_moment_then_seat)


def by_moment_then_seat(deadline: tuple[datetime, DeadlineKind, int]) -> tuple[datetime, int]:
    return deadline[0], deadline[2]


@settings(max_examples=1000)
@given(tables())
def test_the_next_presence_deadline_is_the_first_of_the_sorted_list(table: Table) -> None:
    listed = every_presence_deadline(table)
    assert table._next_presence() == (listed[0] if listed else None)
