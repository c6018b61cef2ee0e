"""archive_match: what a live table's hand-over stores, and what it refuses."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from amigos.engine.record import parse_record
from amigos.engine.replay import replay_record
from amigos.web.accounts.models import User
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.models import ArchivedMatch, MatchSeat, PlayerRating, RatingChange
from amigos.web.archive.services import archive_match
from tests.web.archive.records import live_record_obj, record_obj

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
END = START + timedelta(minutes=25)


def four(make_player: Callable[..., User]) -> list[int | None]:
    return [make_player(f"P{seat}").pk for seat in range(4)]


def hand_over(record: dict[str, object], seats: list[int | None], source: str = "table:7:match:1") -> None:
    archive_match(
        source=source, record=record, seat_user_ids=seats, table_name="Mesa 7", started_at=START, ended_at=END
    )


def test_a_complete_match_is_archived_and_rated(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    record = record_obj("amigos-100", seed=3)
    hand_over(record, seats)
    match = ArchivedMatch.objects.get()
    report = replay_record(parse_record(record))
    assert match.complete and match.winner == report.winner
    assert match.score == list(report.score)
    assert match.hand_count == len(record["hands"])  # type: ignore[arg-type]
    assert match.record == record
    assert match.table_name == "Mesa 7" and match.ended_at == END
    assert [seat.user_id for seat in match.seats.order_by("seat")] == seats
    assert match.rating_sequence == 1
    assert PlayerRating.objects.filter(matches=1).count() == 4
    winners = {seat.user_id for seat in match.seats.all() if seat.result == "won"}
    assert len(winners) == 2
    for row in PlayerRating.objects.all():
        # Everybody starts in the same quintile: a winner gets at least 1 + 1 + 1 + 1.
        assert (row.pr >= 4) == (row.user_id in winners)


def test_rated_matches_are_numbered_as_they_are_stored_in_few_statements(
    make_player: Callable[..., User], django_assert_max_num_queries: Any
) -> None:
    """A rated match is inserted with its number in the ledger (no second update of its row), and
    the accounts' rows are counted with the ranks (no query of their own): once the ledger exists,
    fifteen statements, savepoints included, where there were seventeen."""
    seats = four(make_player)
    hand_over(record_obj("amigos-100", seed=3), seats, source="table:7:match:1")  # makes the ledger
    with django_assert_max_num_queries(15):
        hand_over(record_obj("amigos-100", seed=4), seats, source="table:7:match:2")
    assert list(ArchivedMatch.objects.order_by("pk").values_list("rating_sequence", flat=True)) == [1, 2]
    assert set(PlayerRating.objects.values_list("matches", flat=True)) == {2}


def test_handing_over_twice_archives_and_rates_once(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    record = record_obj("amigos-200", seed=5)
    hand_over(record, seats)
    prs = dict(PlayerRating.objects.values_list("user_id", "pr"))
    hand_over(record, seats)
    hand_over(copy.deepcopy(record), seats)
    assert ArchivedMatch.objects.count() == 1
    assert RatingChange.objects.count() == 4
    assert dict(PlayerRating.objects.values_list("user_id", "pr")) == prs
    assert set(PlayerRating.objects.values_list("matches", flat=True)) == {1}


def test_a_computer_player_is_archived_but_nobody_is_rated(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    seats[1] = None
    hand_over(record_obj("amigos-hands", seed=2), seats)
    match = ArchivedMatch.objects.get()
    assert match.complete and match.rating_sequence is None
    computer = match.seats.get(seat=1)
    assert computer.is_computer and computer.user_id is None
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()


def test_an_unfinished_match_is_kept_but_counts_for_nothing(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    record = record_obj("amigos-100", seed=4, hands=1)
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:5]  # type: ignore[index]
    hand_over(record, seats)
    match = ArchivedMatch.objects.get()
    assert not match.complete and match.winner is None and match.rating_sequence is None
    assert set(match.seats.values_list("result", flat=True)) == {"unfinished"}
    assert match.hands[0]["end"] == "unfinished"
    assert not PlayerRating.objects.exists()


def test_live_table_extensions_are_tolerated_and_kept(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    record = live_record_obj("amigos-100")
    key = record["hands"][0]["key"]
    assert record["termination"] == "target" and record["hands"][0]["times"]
    hand_over(record, seats)
    match = ArchivedMatch.objects.get()
    assert match.record["hands"][0]["key"] == key
    assert match.record["hands"][0]["commitment"] == record["hands"][0]["commitment"]
    assert match.complete


def test_other_games_are_archived_with_their_seats(make_player: Callable[..., User]) -> None:
    players = [make_player(f"D{seat}").pk for seat in range(3)]
    hand_over(record_obj("all-fives-100", seed=8, players=3), list(players), source="table:9:match:1")
    match = ArchivedMatch.objects.get()
    assert match.family == "draw" and match.rating_sequence is None
    assert sorted(match.seats.values_list("side", flat=True)) == [0, 1, 2]
    assert sum(1 for seat in match.seats.all() if seat.result == "won") == 1


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda r, s: r["hands"][0]["moves"].insert(0, "pass"), "record-invalid"),
        (lambda r, s: r.update(variant="amigos-300"), "record-invalid"),
        (lambda r, s: s.pop(), "seats-mismatch"),
        (lambda r, s: s.__setitem__(3, 999_999), "unknown-player"),
        (lambda r, s: s.__setitem__(3, s[0]), "player-twice"),
    ],
)
def test_bad_hand_overs_are_refused_and_change_nothing(
    make_player: Callable[..., User],
    change: Callable[[dict[str, object], list[int | None]], object],
    code: str,
) -> None:
    seats = four(make_player)
    record = record_obj("amigos-100", seed=9)
    change(record, seats)
    with pytest.raises(ArchiveError) as refused:
        hand_over(record, seats)
    assert refused.value.code == code
    assert not ArchivedMatch.objects.exists() and not MatchSeat.objects.exists()
    assert not PlayerRating.objects.exists()


def test_times_must_be_aware_and_in_order(make_player: Callable[..., User]) -> None:
    seats = four(make_player)
    record = record_obj("amigos-100", seed=9)
    with pytest.raises(ArchiveError) as naive:
        archive_match(
            source="s",
            record=record,
            seat_user_ids=seats,
            table_name="t",
            started_at=START.replace(tzinfo=None),
            ended_at=END,
        )
    assert naive.value.code == "naive-time"
    with pytest.raises(ArchiveError) as order:
        archive_match(
            source="s", record=record, seat_user_ids=seats, table_name="t", started_at=END, ended_at=START
        )
    assert order.value.code == "time-order"
    with pytest.raises(ArchiveError) as empty:
        archive_match(
            source="", record=record, seat_user_ids=seats, table_name="t", started_at=START, ended_at=END
        )
    assert empty.value.code == "source-invalid"
    assert not ArchivedMatch.objects.exists()
