"""The table rules in plain data that both tables ask: the pure table over its `TableState`, the
server's actor over its own seats. Each is the only place its rule is written out: who has
accepted, what the last acceptance does, whose seats a computer already holds when a window lapses,
and when absence counts at all."""

from __future__ import annotations

import itertools

import pytest

from amigos.table import Conduct, tracks_absence, waits_for_absent
from amigos.table.gathering import WhenSeated, all_accepted, organizer_starts, when_seated
from amigos.table.presence import Lapse, others_held, window_lapse


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        ([], True),
        ([(False, True)], True),
        ([(False, False)], False),
        ([(True, False)], True),  # a computer player's seat is never invited: it counts as accepted
        ([(True, True), (False, True), (True, False), (False, True)], True),
        ([(False, True), (False, True), (False, False), (True, True)], False),
        ([(True, False), (True, False)], True),
    ],
)
def test_every_seat_has_accepted_when_each_person_did(seats: list[tuple[bool, bool]], expected: bool) -> None:
    assert all_accepted(seats) is expected
    assert all_accepted(iter(seats)) is expected  # any iterable, read once


@pytest.mark.parametrize(
    ("people", "organizer", "conduct", "expected"),
    [
        ([0, 2], 0, Conduct.AMIGOS, WhenSeated.WAIT_FOR_START),
        ([0, 1, 2, 3], 2, Conduct.TIMED, WhenSeated.WAIT_FOR_START),
        ([1, 3], 3, Conduct.AMIGOS, WhenSeated.WAIT_FOR_START),
        ([0], 0, Conduct.AMIGOS, WhenSeated.START),  # alone against computer players
        ([2], 2, Conduct.TIMED, WhenSeated.START),
        ([0, 1], 0, Conduct.CORRESPONDENCE, WhenSeated.START),  # nobody sits together
        ([0], 0, Conduct.CORRESPONDENCE, WhenSeated.START),
    ],
)
def test_the_last_acceptance_waits_for_the_button_or_starts(
    people: list[int], organizer: int, conduct: Conduct, expected: WhenSeated
) -> None:
    assert when_seated(people, organizer, conduct) is expected


@pytest.mark.parametrize("conduct", list(Conduct))
@pytest.mark.parametrize("people", [[0], [0, 1], [1, 3], [0, 1, 2, 3]])
def test_the_last_acceptance_waits_exactly_when_the_organizer_starts(
    conduct: Conduct, people: list[int]
) -> None:
    for organizer in people:
        waits = when_seated(people, organizer, conduct) is WhenSeated.WAIT_FOR_START
        assert waits is organizer_starts(people, organizer, conduct)


@pytest.mark.parametrize(
    ("held", "computer", "seat", "expected"),
    [
        ([False, False, False, False], [False, False, False, False], 0, [False, False, False]),
        ([False, True, False, True], [False, False, False, False], 0, [True, False, True]),
        ([False, True, False, True], [False, False, False, False], 1, [False, False, True]),
        ([False, False, False, False], [False, True, False, True], 0, [False]),  # computers skipped
        ([True, False, True, False], [False, True, False, True], 2, [True]),
        ([False, False], [False, True], 0, []),  # a person alone: nobody else
        ([False, False, False], [True, True, False], 2, []),
    ],
)
def test_others_held_lists_every_other_persons_seat(
    held: list[bool], computer: list[bool], seat: int, expected: list[bool]
) -> None:
    assert others_held(held, computer, seat) == expected


@pytest.mark.parametrize(
    ("held", "computer", "seat", "lapse"),
    [
        ([False, True, True, True], [False, False, False, False], 0, Lapse.ABANDONED),
        ([False, True, False, True], [False, False, False, False], 0, Lapse.HELD),
        ([False, False, False, False], [False, True, True, True], 0, Lapse.ABANDONED),
        ([False, False, True, False], [False, True, False, True], 0, Lapse.ABANDONED),
    ],
)
def test_a_timed_window_lapse_reads_others_held(
    held: list[bool], computer: list[bool], seat: int, lapse: Lapse
) -> None:
    assert window_lapse(Conduct.TIMED, others_held(held, computer, seat)) is lapse
    assert window_lapse(Conduct.AMIGOS, others_held(held, computer, seat)) is Lapse.BLUE_CARD


def test_others_held_wants_one_fact_of_each_kind_per_seat() -> None:
    with pytest.raises(ValueError):
        others_held([False, False], [False], 0)


@pytest.mark.parametrize(
    ("in_match", "conduct", "expected"),
    [
        (True, Conduct.AMIGOS, True),
        (True, Conduct.TIMED, True),
        (True, Conduct.CORRESPONDENCE, False),  # no heartbeat: no absence
        (False, Conduct.AMIGOS, False),  # before or after the match nobody is waited for
        (False, Conduct.TIMED, False),
        (False, Conduct.CORRESPONDENCE, False),
    ],
)
def test_absence_counts_only_during_a_live_match(in_match: bool, conduct: Conduct, expected: bool) -> None:
    assert tracks_absence(in_match, conduct) is expected


@pytest.mark.parametrize(("in_match", "conduct"), list(itertools.product([False, True], list(Conduct))))
def test_a_table_waits_for_the_absent_only_where_absence_counts(in_match: bool, conduct: Conduct) -> None:
    assert waits_for_absent(in_match, conduct, [True]) is tracks_absence(in_match, conduct)
    assert not waits_for_absent(in_match, conduct, [False, False])
