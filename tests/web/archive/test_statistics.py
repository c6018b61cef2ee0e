"""Statistics from archived records, checked against examples worked out by hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from amigos.engine.tiles import Tile
from amigos.web.accounts.models import User
from amigos.web.archive.models import ArchivedMatch, MatchSeat
from amigos.web.archive.services import archive_match
from amigos.web.archive.statistics import game_totals, recent_matches
from amigos.web.archive.summary import tiles_summary
from tests.web.archive.records import record_obj

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
START = datetime(2026, 4, 10, 19, 0, tzinfo=UTC)


def suits_record() -> dict[str, Any]:
    """Nine hands, always the same deal: Ana holds every six, Beto the fives and 4-4, Caro the
    fours and threes left, Dani the rest. Ana's team wins 7 hands, Beto's 2; 110-50 as counted."""
    loaded: dict[str, Any] = json.loads((DATA / "suits-100.json").read_text())
    return loaded


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(text) for text in texts]


def test_tiles_summary_by_hand() -> None:
    # 4-3 4-2 4-1 4-0 3-3 3-2 3-1: 7+6+5+4+6+5+4 = 37 pips; one double; four fours and four threes
    # (the higher suit is named); no five, no six.
    assert tiles_summary(tiles("4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"), 6) == {
        "pips": 37,
        "doubles": 1,
        "longest_suit": 4,
        "longest_count": 4,
        "fallas": [5, 6],
    }
    # A double counts once in its suit: 6-6 6-5 -> two sixes.
    assert tiles_summary(tiles("6-6", "6-5", "0-0"), 6)["longest_count"] == 2
    # Cuban, double-nine: the suits run to 9. Seven doubles; 9, 8 and 2 twice each (9 named).
    cuban = tiles_summary(tiles("9-9", "9-8", "0-0", "5-4", "7-7", "1-2", "3-3", "6-6", "2-2", "8-8"), 9)
    assert (
        cuban["doubles"] == 7
        and cuban["fallas"] == []
        and (cuban["longest_suit"], cuban["longest_count"]) == (9, 2)
    )


def archive_suits(make_player: Callable[..., User]) -> list[User]:
    players = [make_player(name) for name in ("Ana", "Beto", "Caro", "Dani")]
    archive_match(
        source="table:1:match:1",
        record=suits_record(),
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa del Malecón",
        started_at=START,
        ended_at=START + timedelta(minutes=40),
    )
    return players


def test_match_and_hand_level_for_one_player(make_player: Callable[..., User]) -> None:
    players = archive_suits(make_player)
    [line] = recent_matches(players[1].pk)  # Beto, seat 1
    assert (line.number, line.table_name, line.variant, line.result) == (
        1,
        "Mesa del Malecón",
        "amigos-100",
        "lost",
    )
    # Beto's team won hands 2 and 6 only; the sheet writes the winners at exactly 100.
    assert (line.hands_won, line.hands_lost, line.points_for, line.points_against) == (2, 7, 50, 100)
    assert not line.shutout_for and not line.shutout_against
    assert len(line.hands) == 9
    first = line.hands[0]
    # Seen from Beto: himself, then Caro on his right, Dani his partner, Ana on his left (she leads).
    assert [(p.name, p.offset, p.is_leader) for p in first.players] == [
        ("Beto", 0, False),
        ("Caro", 1, False),
        ("Dani", 2, False),
        ("Ana", 3, True),
    ]
    # Beto: 5-5 5-4 5-3 5-2 5-1 5-0 4-4 = 10+9+8+7+6+5+8 = 53; doubles 5-5, 4-4; six fives; no six.
    # Dani: 3-0 2-2 2-1 2-0 1-1 1-0 0-0 = 3+4+3+2+2+1+0 = 15; three doubles; four blanks; no 4, 5, 6.
    # Ana: all seven sixes = 63 pips, one double, nothing missing.
    assert [(p.pips, p.doubles, p.longest_count, p.longest_suit, p.fallas) for p in first.players] == [
        (53, 2, 6, 5, (6,)),
        (37, 1, 4, 4, (5, 6)),
        (15, 3, 4, 0, (4, 5, 6)),
        (63, 1, 7, 6, ()),
    ]
    # Hand 1: Ana goes out; Beto keeps 11 pips and Dani 3: Ana's team scores 14, Beto's side -14.
    assert (first.end, first.won, first.points, first.difference) == ("domino", False, 14, -14)
    assert (line.hands[1].won, line.hands[1].difference) == (True, 25)
    [ana] = recent_matches(players[0].pk)
    assert (ana.result, ana.points_for, ana.points_against, ana.hands_won) == ("won", 100, 50, 7)
    assert ana.hands[0].players[0].name == "Ana" and ana.hands[0].difference == 14


def test_unfinished_matches_count_for_nothing(make_player: Callable[..., User]) -> None:
    players = archive_suits(make_player)
    cut = suits_record()
    cut["hands"] = cut["hands"][:3]
    cut["hands"][2]["moves"] = cut["hands"][2]["moves"][:6]
    archive_match(
        source="table:1:match:2",
        record=cut,
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa",
        started_at=START + timedelta(hours=1),
        ended_at=START + timedelta(hours=2),
    )
    assert ArchivedMatch.objects.count() == 2
    assert [line.match_id for line in recent_matches(players[0].pk)] == [
        ArchivedMatch.objects.get(source="table:1:match:1").pk
    ]
    [amigos] = game_totals(players[0].pk)
    assert (amigos.matches, amigos.won) == (1, 1)


def test_totals_streaks_capicua_pollona_viajera(make_player: Callable[..., User]) -> None:
    me = make_player("Yo")
    others = [make_player(f"O{index}") for index in range(3)]
    # Five Cuban matches (seeded, so always the same); the totals must follow their stored seats.
    for number in range(5):
        archive_match(
            source=f"table:2:match:{number}",
            record=record_obj("cuban-2v2", seed=20 + number),
            seat_user_ids=[me.pk, others[0].pk, others[1].pk, others[2].pk],
            table_name="Cuba",
            started_at=START + timedelta(hours=number),
            ended_at=START + timedelta(hours=number, minutes=30),
        )
    seats = list(MatchSeat.objects.filter(user=me).order_by("ended_at"))
    results = [seat.result for seat in seats]
    [cuban] = game_totals(me.pk)
    assert cuban.family == "cuban" and cuban.matches == 5
    assert cuban.won == results.count("won")
    assert cuban.win_rate == round(100 * results.count("won") / 5)
    best = run = 0
    for result in results:
        run = run + 1 if result == "won" else 0
        best = max(best, run)
    assert cuban.best_streak == best
    assert cuban.capicuas == sum(seat.capicuas for seat in seats)
    assert cuban.viajeras == sum(seat.viajeras for seat in seats)
    # And the stored per-seat counts agree with the hands: capicúas laid by this seat, viajeras won.
    for seat in seats:
        hands = seat.match.hands
        assert seat.capicuas == sum(1 for h in hands if h["capicua"] and h["closer"] == 0)
        assert seat.viajeras == sum(1 for h in hands if h["viajera"] and h["winner"] == 0)


def test_streaks_by_hand() -> None:
    from amigos.web.archive.statistics import GameTotals

    totals = GameTotals(
        "amigos", matches=4, won=3, best_streak=2, current_streak=-1, capicuas=0, pollonas=0, viajeras=0
    )
    assert totals.win_rate == 75 and totals.streak_length == 1
