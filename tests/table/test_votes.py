"""After a match reaches its target: rematch, rotate or back to the lobby (spec §2.9.3)."""

from __future__ import annotations

import pytest

from amigos.table import (
    BackToLobby,
    Phase,
    TableError,
    Tick,
    Vote,
    VoteCast,
    VoteChoice,
    VoteResult,
    reseat,
)
from amigos.table.gathering import decide, vote_outcome

from .helpers import HUMANS, Table
from .test_lifecycle import KEYS, play_out, ready


def voting(players: tuple[str | None, ...] = HUMANS) -> tuple[Table, float]:
    table = ready(players)
    now = play_out(table, KEYS)
    assert table.state.phase is Phase.VOTING
    return table, now


def test_rematch_swaps_the_organizer_and_the_partner() -> None:
    assert reseat(("org", "right", "partner", "left"), 0, VoteChoice.REMATCH) == (
        ("partner", "right", "org", "left"),
        2,
    )


def test_rotate_partner_to_left_left_to_right_right_to_partner() -> None:
    assert reseat(("org", "right", "partner", "left"), 0, VoteChoice.ROTATE) == (
        ("org", "left", "right", "partner"),
        0,
    )


def test_rotation_from_an_organizer_not_at_seat_0() -> None:
    players, organizer = reseat(("partner", "left", "org", "right"), 2, VoteChoice.ROTATE)
    assert organizer == 2
    assert players[(organizer + 3) % 4] == "partner"  # the old partner now sits on the left
    assert players[(organizer + 1) % 4] == "left"  # the old left now sits on the right
    assert players[(organizer + 2) % 4] == "right"  # the old right is the new partner


def test_fewer_than_four_seats_rotate_by_one_and_rematch_keeps_the_seating() -> None:
    assert reseat(("a", "b", "c"), 0, VoteChoice.ROTATE) == (("c", "a", "b"), 1)
    assert reseat(("a", "b"), 0, VoteChoice.REMATCH) == (("a", "b"), 0)


@pytest.mark.parametrize("choice", [VoteChoice.REMATCH, VoteChoice.ROTATE])
def test_all_four_choose_the_same_and_the_next_match_is_seated(choice: VoteChoice) -> None:
    table, now = voting()
    for seat in range(3):
        assert VoteCast(seat, choice) in table.at(now, Vote(seat, choice))
    effects = table.at(now + 1, Vote(3, choice))
    players, organizer = reseat(HUMANS, 0, choice)
    assert VoteResult(choice, players, organizer) in effects
    assert not any(isinstance(effect, BackToLobby) for effect in effects)
    assert table.state.phase is Phase.CLOSED


def test_one_different_choice_sends_all_four_to_the_lobby() -> None:
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.REMATCH))
    effects = table.at(now, Vote(1, VoteChoice.ROTATE))
    assert VoteResult(VoteChoice.LOBBY, HUMANS, 0) in effects
    assert BackToLobby((0, 1, 2, 3)) in effects


def test_nobody_answering_in_time_sends_everyone_to_the_lobby() -> None:
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.REMATCH))
    assert table.at(now + 59.9, Tick()) == []
    effects = table.at(now + 60.0, Tick())
    assert BackToLobby((0, 1, 2, 3)) in effects


def test_computer_seats_do_not_vote_and_a_lone_player_decides() -> None:
    table, now = voting(("ana", None, None, None))
    with pytest.raises(TableError) as caught:
        table.at(now, Vote(1, VoteChoice.REMATCH))
    assert caught.value.code == "computer_seat"
    effects = table.at(now, Vote(0, VoteChoice.ROTATE))
    assert VoteResult(VoteChoice.ROTATE, *reseat(("ana", None, None, None), 0, VoteChoice.ROTATE)) in effects


def test_voting_twice_is_refused() -> None:
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.REMATCH))
    with pytest.raises(TableError) as caught:
        table.at(now, Vote(0, VoteChoice.REMATCH))
    assert caught.value.code == "already_voted"


def test_the_vote_rule_the_live_server_asks() -> None:
    """`decide` (while choices come in) and `vote_outcome` (when the vote closes, also by time)."""
    lobby, rematch, rotate = VoteChoice.LOBBY, VoteChoice.REMATCH, VoteChoice.ROTATE
    assert decide({0: rematch}, [0, 2]) is None
    assert decide({0: rematch, 2: rematch}, [0, 2]) is rematch
    assert decide({0: rematch, 2: rotate}, [0, 2]) is lobby  # two choices: nobody can agree now
    assert decide({2: lobby}, [0, 2]) is lobby  # the meeting room at once
    assert vote_outcome({0: rotate}, [0, 2]) is lobby  # time ran out before everyone chose
    assert vote_outcome({0: rotate, 2: rotate}, [0, 2]) is rotate
