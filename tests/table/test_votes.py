"""After a match reaches its target: rematch, rotate or back to the lobby (spec §2.9.3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amigos.table import (
    BackToLobby,
    Deadline,
    DeadlineKind,
    Disconnected,
    Heartbeat,
    Leave,
    Phase,
    Reconnected,
    TableError,
    Tick,
    Vote,
    VoteCast,
    VoteChoice,
    VoteResult,
    next_deadline,
    reseat,
)
from amigos.table.gathering import decide, vote_outcome, vote_refusal
from amigos.table.presence import first_to_leave, leaves_vote

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


def test_a_later_choice_replaces_the_earlier_one_while_the_vote_is_open() -> None:
    """Regression: the pure table refused a second choice (``already_voted``) while the server
    takes it in place of the first, as docs/protocol.md says (`table.vote`)."""
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.REMATCH))
    assert VoteCast(0, VoteChoice.ROTATE) in table.at(now, Vote(0, VoteChoice.ROTATE))
    for seat in (1, 2):
        table.at(now, Vote(seat, VoteChoice.ROTATE))
    assert table.state.phase is Phase.VOTING
    effects = table.at(now + 1, Vote(3, VoteChoice.ROTATE))
    assert VoteResult(VoteChoice.ROTATE, *reseat(HUMANS, 0, VoteChoice.ROTATE)) in effects


def test_a_choice_after_the_vote_closed_is_refused_as_the_server_does() -> None:
    """Regression: the pure table said ``wrong_phase`` where the server says ``not_voting``."""
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.LOBBY))
    with pytest.raises(TableError) as caught:
        table.at(now, Vote(1, VoteChoice.LOBBY))
    assert caught.value.code == "not_voting"  # the table is closed: as the server says
    table, now = voting()
    table.at(now + 60.0, Tick())
    with pytest.raises(TableError) as caught:
        table.at(now + 60.0, Vote(1, VoteChoice.LOBBY))
    assert caught.value.code == "not_voting"
    assert vote_refusal(voting=False) == "not_voting" and vote_refusal(voting=True) is None


def test_a_page_closed_10_seconds_during_the_vote_is_a_choice_of_the_meeting_room() -> None:
    """Its last page closed and none came back within `Timing.vote_absence`: the player left, a
    choice of the meeting room (``left``) that replaces theirs and closes the vote at once."""
    table, now = voting()
    table.at(now, Vote(1, VoteChoice.REMATCH))
    table.at(now + 1.0, Disconnected(1))
    deadline = next_deadline(table.state)
    assert deadline == Deadline(now + 11.0, DeadlineKind.VOTE_ABSENCE, 1)
    assert table.at(now + 10.999, Tick()) == []
    effects = table.at(now + 11.0, Tick())
    assert VoteCast(1, VoteChoice.LOBBY, left=True) in effects
    assert VoteResult(VoteChoice.LOBBY, HUMANS, 0) in effects
    assert table.state.phase is Phase.CLOSED


def test_a_reload_during_the_vote_comes_back_in_time_and_a_heartbeat_is_no_page() -> None:
    table, now = voting()
    table.at(now, Disconnected(2))
    table.at(now + 9.0, Reconnected(2))  # a reload: the page joined again
    assert table.state.seats[2].vote_absent_since is None
    assert table.at(now + 30.0, Tick()) == [] and table.state.phase is Phase.VOTING
    table.at(now + 30.0, Disconnected(2))
    table.at(now + 35.0, Heartbeat(2))  # no page joined: the absence runs on
    effects = table.at(now + 40.0, Tick())
    assert VoteCast(2, VoteChoice.LOBBY, left=True) in effects
    assert table.state.phase is Phase.CLOSED


def test_the_first_page_closed_leaves_first_and_computer_seats_never_leave() -> None:
    table, now = voting(("ana", "beto", None, "dani"))
    table.at(now, Disconnected(3))
    table.at(now + 2.0, Disconnected(1))
    table.at(now + 3.0, Disconnected(2))  # a computer player has no page to close
    assert table.state.seats[2].vote_absent_since is None
    effects = table.at(now + 20.0, Tick())
    assert [effect for effect in effects if isinstance(effect, VoteCast)] == [
        VoteCast(3, VoteChoice.LOBBY, left=True)
    ]
    assert first_to_leave({3: 5.0, 1: 5.0, 0: 6.0}) == (5.0, 1)
    assert first_to_leave({}) is None


def test_leaving_on_purpose_during_the_vote_replaces_a_choice() -> None:
    """Regression: ``Leave`` from a seat that had chosen was refused (``already_voted``); a player
    who leaves sends everyone to the meeting room (docs/rules.md, "After the match")."""
    table, now = voting()
    table.at(now, Vote(0, VoteChoice.REMATCH))
    effects = table.at(now + 1.0, Leave(0))
    assert VoteCast(0, VoteChoice.LOBBY, left=True) in effects
    assert table.state.phase is Phase.CLOSED


def test_who_leaves_the_vote_the_rule_the_live_server_asks() -> None:
    assert leaves_vote(True, False, pages_left=False)
    assert not leaves_vote(True, False, pages_left=True)  # another page is still joined
    assert not leaves_vote(True, True, pages_left=False)  # a computer player
    assert not leaves_vote(False, False, pages_left=False)  # no vote under way


def test_the_vote_rule_the_live_server_asks() -> None:
    """`decide` (while choices come in) and `vote_outcome` (when the vote closes, also by time)."""
    lobby, rematch, rotate = VoteChoice.LOBBY, VoteChoice.REMATCH, VoteChoice.ROTATE
    assert decide({0: rematch}, [0, 2]) is None
    assert decide({0: rematch, 2: rematch}, [0, 2]) is rematch
    assert decide({0: rematch, 2: rotate}, [0, 2]) is lobby  # two choices: nobody can agree now
    assert decide({2: lobby}, [0, 2]) is lobby  # the meeting room at once
    assert vote_outcome({0: rotate}, [0, 2]) is lobby  # time ran out before everyone chose
    assert vote_outcome({0: rotate, 2: rotate}, [0, 2]) is rotate


def test_a_vote_whose_time_runs_out_is_decided_by_the_servers_rule() -> None:
    """When the vote's time runs out, the pure table asks `vote_outcome` of the choices made, as
    the server's actor does (it used to send everyone to the meeting room whatever was chosen).
    Unanimity closes a vote at once, so only a vote whose choices were set aside shows it: here
    every seat's choice is rotate when the time comes."""
    table, _ = voting()
    state = table.state
    assert state.vote_until is not None
    seats = tuple(replace(info, vote=VoteChoice.ROTATE) for info in state.seats)
    table = Table(replace(state, seats=seats))
    effects = table.at(state.vote_until, Tick())
    players, organizer = reseat(state.config.players, state.config.organizer, VoteChoice.ROTATE)
    assert VoteResult(VoteChoice.ROTATE, players, organizer) in effects
    assert table.state.phase is Phase.CLOSED
    # With the choices split, the time running out sends everyone to the meeting room.
    split = (*seats[:3], replace(seats[3], vote=VoteChoice.REMATCH))
    table = Table(replace(state, seats=split))
    effects = table.at(state.vote_until, Tick())
    assert VoteResult(VoteChoice.LOBBY, state.config.players, state.config.organizer) in effects
