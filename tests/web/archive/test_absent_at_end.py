"""A match a player's absence ended, or a computer player finished for them, is not their win
(issue 38, item 7): the record's ``absent`` seats count neither in statistics nor in the rating."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from amigos.engine.record import RecordError, parse_record
from amigos.engine.replay import replay_record
from amigos.web.accounts.models import User
from amigos.web.archive.models import MatchSeat, PlayerRating
from amigos.web.archive.services import archive_match
from amigos.web.archive.statistics import game_totals, standing
from tests.web.archive.records import live_record_obj

START = datetime(2026, 5, 2, 18, 0, tzinfo=UTC)


def accounts() -> list[int | None]:
    return [
        User.objects.create_user(
            email=f"{uuid.uuid4().hex[:12]}@example.org", display_name=f"P{n}", password=None
        ).pk
        for n in range(4)
    ]


def winner_seat(record: dict[str, object]) -> int:
    report = replay_record(parse_record(record))
    assert report.complete and report.winner is not None
    return report.winner  # in four-player games side n holds seats n and n + 2


@pytest.mark.django_db
def test_a_seat_finished_by_the_computer_is_no_win_and_no_rating() -> None:
    record = live_record_obj("amigos-100")
    away = winner_seat(record)  # the winning side's player who had walked away
    record["absent"] = [away]
    users = accounts()
    archive_match(
        source="table:9:match:1",
        record=record,
        seat_user_ids=users,
        table_name="t",
        started_at=START,
        ended_at=START + timedelta(minutes=20),
    )
    results = dict(MatchSeat.objects.filter(match__source="table:9:match:1").values_list("seat", "result"))
    assert results[away] == "unfinished"
    assert results[(away + 2) % 4] == "won"  # the partner who stayed keeps the win
    absent_user = users[away]
    assert absent_user is not None
    assert all(totals.won == 0 and totals.matches == 0 for totals in game_totals(absent_user))
    # statistics and rating agree: not a match of four people, so nobody's PR moves
    assert not PlayerRating.objects.filter(matches__gt=0).exists()
    assert standing(absent_user).rated_matches == 0


@pytest.mark.django_db
def test_without_absent_seats_the_same_match_is_won_and_rated() -> None:
    record = live_record_obj("amigos-100")
    won = winner_seat(record)
    users = accounts()
    archive_match(
        source="table:10:match:1",
        record=record,
        seat_user_ids=users,
        table_name="t",
        started_at=START,
        ended_at=START + timedelta(minutes=20),
    )
    user = users[won]
    assert user is not None
    assert [totals.won for totals in game_totals(user)] == [1]
    assert standing(user).rated_matches == 1


@pytest.mark.parametrize("absent", [[4], [-1], "1", [1, 1], [True]])
def test_a_bad_absent_field_is_refused(absent: object) -> None:
    record = live_record_obj("amigos-100")
    record["absent"] = absent
    with pytest.raises(RecordError):
        replay_record(parse_record(record))
