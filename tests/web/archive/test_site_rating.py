"""The site's PR (counted as matches are archived) agrees with `amigos rating` and the referee."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pytest
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine.record import parse_record
from amigos.engine.replay import replay_record
from amigos.web.accounts.models import User
from amigos.web.archive.models import PlayerRating, RatingChange
from amigos.web.archive.selectors import quintiles_of, site_rating_file
from amigos.web.archive.services import archive_match
from amigos.web.lobby.presence import quintiles_of as lobby_quintiles
from tests.rating.cli import run_rating
from tests.rating.referee import referee_rating
from tests.web.archive.records import record_obj

pytestmark = pytest.mark.django_db

START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)


@cache
def record_pool() -> tuple[dict[str, Any], ...]:
    """Complete Amigos matches of every target with varied margins (played once, reused)."""
    pool = []
    for variant in ("amigos-100", "amigos-200", "amigos-hands"):
        for seed in range(1, 5):
            record = record_obj(variant, seed=seed)
            assert replay_record(parse_record(record)).complete
            pool.append(record)
    return tuple(pool)


def new_user(label: str) -> User:
    return User.objects.create_user(
        email=f"{uuid.uuid4().hex[:12]}@example.org", display_name=label, password=None
    )


@settings(max_examples=25)
@given(st.data())
def test_site_rating_agrees_with_the_command_and_the_referee(data: st.DataObject) -> None:
    pool = record_pool()
    with transaction.atomic():
        users = [new_user(f"J{index}").pk for index in range(data.draw(st.integers(4, 11), label="players"))]
        played = data.draw(st.integers(0, 14), label="matches")
        for number in range(played):
            seats: list[int | None] = list(data.draw(st.permutations(users)))[:4]
            if data.draw(st.integers(0, 7)) == 0:
                seats[data.draw(st.integers(0, 3))] = None  # a computer player: not rated
            archive_match(
                source=f"table:1:match:{number}",
                record=data.draw(st.sampled_from(pool)),
                seat_user_ids=seats,
                table_name="Mesa",
                started_at=START + timedelta(hours=number),
                ended_at=START + timedelta(hours=number, minutes=20),
            )
        exported = site_rating_file()
        status, out, err = run_rating(exported)
        assert status == 0, err
        command = json.loads(out)
        assert command == referee_rating(exported)
        site = dict(PlayerRating.objects.values_list("user_id", "pr"))
        counted = dict(PlayerRating.objects.values_list("user_id", "matches"))
        quintiles = quintiles_of(users)
        for entry in command["players"]:
            user_id = int(entry["name"])
            assert site.get(user_id, 0) == entry["pr"]
            assert counted.get(user_id, 0) == entry["matches"]
            assert quintiles.get(user_id) == (entry["quintile"] if entry["matches"] else None)
        transaction.set_rollback(True)


def test_the_lobby_shows_quintiles_of_rated_players(
    make_player: Callable[..., User], django_assert_num_queries: Any
) -> None:
    players = [make_player(f"L{index}").pk for index in range(10)]
    assert lobby_quintiles(players) == {}
    archive_match(
        source="table:3:match:1",
        record=record_obj("amigos-100", seed=2),
        seat_user_ids=list(players[:4]),
        table_name="Mesa",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    # One statement reads the players, the ratings and the ratings above each player at one moment.
    # Regression: three statements raced the archive, and a match archived between them placed a
    # player outside the count ("rank 117 is not a place among 115 players": the lobby's list
    # failed to refresh).
    with django_assert_num_queries(1):
        shown = lobby_quintiles(players)
    assert set(shown) == set(players[:4])
    winners = set(RatingChange.objects.filter(pr_after__gt=1).values_list("user_id", flat=True))
    # Two winners above everybody (ranks 0, 0: Q1); the losers, at PR <= 1 with 8 players at or above
    # them... worked out from their PRs: rank = players strictly higher.
    for user_id, value in shown.items():
        pr = PlayerRating.objects.get(user_id=user_id).pr
        higher = sum(1 for row in PlayerRating.objects.all() if row.pr > pr) + (6 if pr < 0 else 0)
        assert value == 5 * higher // 10 + 1
        if user_id in winners:
            assert value == 1


def test_change_rows_tell_the_quintile_before_and_after(make_player: Callable[..., User]) -> None:
    players = [make_player(f"G{index}").pk for index in range(5)]
    archive_match(
        source="table:4:match:1",
        record=record_obj("amigos-hands", seed=1),
        seat_user_ids=list(players[:4]),
        table_name="Mesa",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    changes = list(RatingChange.objects.all())
    assert len(changes) == 4
    assert {change.quintile_before for change in changes} == {1}
    for change in changes:
        # Juegos ganados, all in Q1: winners 1 + 0 + 1 + 1 = 3; losers 1 + 0 + 0 + 0 = 1.
        assert change.pr_after - change.pr_before in (3, 1)
        if change.pr_after == 3:
            assert change.quintile_after == 1
        else:
            # Two players at 3 stand higher among five: floor(5 * 2 / 5) + 1 = 3.
            assert change.quintile_after == 3
