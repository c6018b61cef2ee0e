"""The vote after a match: settled as soon as it is unanimous or can no longer be."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from amigos.table import ballot

CHOICES = ("rematch", "rotate", "communicate")
DISSENT = "communicate"


@st.composite
def ballots(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, str]]]:
    """The voting seats (one to four of four) and the votes cast, in order (a seat may vote again)."""
    voters = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    votes = draw(st.lists(st.tuples(st.sampled_from(voters), st.sampled_from(CHOICES)), max_size=8))
    return voters, votes


@given(ballots())
def test_a_ballot_settles_exactly_when_unanimity_is_reached_or_lost(
    case: tuple[list[int], list[tuple[int, str]]],
) -> None:
    voters, votes = case
    choices: dict[int, str] = {}
    for seat, choice in votes:
        choices[seat] = choice
        made = [choices[v] for v in voters if v in choices]
        everyone_same = len(made) == len(voters) and len(set(made)) == 1
        lost = DISSENT in made or len(set(made)) > 1
        assert ballot.settled(choices, voters, DISSENT) == (everyone_same or lost)
        if ballot.settled(choices, voters, DISSENT):
            result = ballot.outcome(choices, voters, DISSENT)
            # A rematch or a rotation only when every voter pressed that very button.
            assert result == DISSENT or all(choices.get(v) == result for v in voters)
            assert (result != DISSENT) == (everyone_same and made[0] != DISSENT)
            break


@given(ballots(), st.data())
def test_once_unanimity_is_lost_no_later_vote_of_the_others_brings_it_back(
    case: tuple[list[int], list[tuple[int, str]]], data: st.DataObject
) -> None:
    voters, votes = case
    choices = dict(votes)
    made = {choices[v] for v in voters if v in choices}
    if not (DISSENT in made or len(made) > 1):
        return
    for voter in voters:
        if voter not in choices:
            choices[voter] = data.draw(st.sampled_from(CHOICES))
        assert ballot.settled(choices, voters, DISSENT)
        assert ballot.outcome(choices, voters, DISSENT) == DISSENT


def test_a_ballot_nobody_finished_goes_to_the_meeting_room_when_time_runs_out() -> None:
    assert not ballot.settled({0: "rematch"}, [0, 2], DISSENT)
    assert ballot.outcome({0: "rematch"}, [0, 2], DISSENT) == DISSENT
    assert ballot.outcome({}, [0, 2], DISSENT) == DISSENT
    assert ballot.outcome({0: "rotate", 2: "rotate"}, [0, 2], DISSENT) == "rotate"
