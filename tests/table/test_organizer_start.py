"""Who starts the match once every seat has accepted (spec §2, the organizer's box with the start
button; issue 38, item 4): the organizer, whenever another person sits at a live table; nobody
presses anything for a player alone against computer players or for a correspondence game."""

from __future__ import annotations

import itertools

import pytest

from amigos.table import (
    Accept,
    BackToLobby,
    Cancel,
    Cancellation,
    Conduct,
    Deadline,
    Phase,
    TableCancelled,
    TableError,
    Timing,
    cancel_refusal,
    open_table,
    organizer_starts,
    start_refusal,
    start_window,
)

from .helpers import Table, config

LIVE = (Conduct.AMIGOS, Conduct.TIMED)


@pytest.mark.parametrize("conduct", LIVE)
def test_the_organizer_starts_when_another_person_sits_at_a_live_table(conduct: Conduct) -> None:
    assert organizer_starts([0, 2], 0, conduct)
    assert organizer_starts([1, 3], 3, conduct)  # after a rotation the organizer sits elsewhere
    assert organizer_starts([0, 1, 2, 3], 2, conduct)


@pytest.mark.parametrize("conduct", LIVE)
def test_alone_against_the_computer_the_match_starts_at_once(conduct: Conduct) -> None:
    assert not organizer_starts([0], 0, conduct)
    assert not organizer_starts([2], 2, conduct)


def test_a_correspondence_game_starts_with_the_last_acceptance() -> None:
    assert not organizer_starts([0, 1, 2, 3], 0, Conduct.CORRESPONDENCE)


def test_every_seating_waits_exactly_when_someone_else_is_a_person() -> None:
    for people in itertools.chain.from_iterable(itertools.combinations(range(4), n) for n in range(1, 5)):
        for organizer in people:
            expected = len(people) > 1
            assert organizer_starts(people, organizer, Conduct.AMIGOS) is expected, (people, organizer)


def test_only_the_organizer_starts_only_once_and_only_when_everyone_accepted() -> None:
    assert start_refusal(by_organizer=True, inviting=True, everyone_accepted=True) is None
    assert start_refusal(by_organizer=False, inviting=True, everyone_accepted=True) == "not_organizer"
    assert start_refusal(by_organizer=True, inviting=False, everyone_accepted=True) == "already_started"
    assert start_refusal(by_organizer=True, inviting=True, everyone_accepted=False) == "not_all_accepted"
    # Someone else is refused as not the organizer whatever the table is doing.
    for inviting, everyone in itertools.product((True, False), repeat=2):
        refusal = start_refusal(by_organizer=False, inviting=inviting, everyone_accepted=everyone)
        assert refusal == "not_organizer"


def test_the_table_waits_for_its_organizer_as_long_as_for_an_invitation() -> None:
    assert start_window(Timing()) == 30.0
    assert start_window(Timing(invitation=12.5)) == 12.5


def test_who_may_call_a_table_off_is_one_rule() -> None:
    """`cancel_refusal`, the rule the live server's `table.cancel` asks: the organizer, before the
    match; the start button asks it first (`start_refusal`), so both refuse alike."""
    assert cancel_refusal(by_organizer=True, inviting=True) is None
    assert cancel_refusal(by_organizer=False, inviting=True) == "not_organizer"
    assert cancel_refusal(by_organizer=False, inviting=False) == "not_organizer"
    assert cancel_refusal(by_organizer=True, inviting=False) == "already_started"
    for by_organizer, inviting in itertools.product((False, True), repeat=2):
        refusal = cancel_refusal(by_organizer=by_organizer, inviting=inviting)
        if refusal is not None:
            assert (
                start_refusal(by_organizer=by_organizer, inviting=inviting, everyone_accepted=True) == refusal
            )


def test_the_organizer_calls_the_table_off_before_the_match() -> None:
    state, _ = open_table(config(), 0.0)
    table = Table(state)
    table.at(1.0, Accept(1))
    for seat in (1, 2, 3):
        with pytest.raises(TableError) as caught:
            table.at(2.0, Cancel(seat))
        assert caught.value.code == "not_organizer"
    effects = table.at(3.0, Cancel(0))
    assert effects == [TableCancelled(Cancellation.ORGANIZER), BackToLobby((0, 1, 2, 3)), Deadline(None)]
    assert table.state.phase is Phase.CLOSED
    with pytest.raises(TableError) as caught:
        table.at(4.0, Cancel(0))  # already called off: it cannot be called off again
    assert caught.value.code == "already_started"


def test_a_started_table_cannot_be_called_off() -> None:
    table = Table(open_table(config(players=("ana", None, None, None)), 0.0)[0])
    assert table.state.phase is Phase.DEALING
    with pytest.raises(TableError) as caught:
        table.at(1.0, Cancel(0))
    assert caught.value.code == "already_started"
    with pytest.raises(TableError) as caught:
        table.at(1.0, Cancel(1))  # a computer's seat is no organizer
    assert caught.value.code == "not_organizer"
