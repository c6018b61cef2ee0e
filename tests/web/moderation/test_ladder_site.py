"""The ladder through the site: cards stored by the table store suspend the account at each edge."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from amigos.web.accounts.models import User
from amigos.web.moderation.models import Suspension
from amigos.web.tables.models import Card
from tests.web.moderation.support import START, give, table_for

pytestmark = pytest.mark.django_db


def test_27_yellows_do_not_suspend_and_the_28th_suspends_for_a_week(make_player: Callable[..., User]) -> None:
    player = make_player()
    table = table_for(player)
    for n in range(27):
        give(table, player, ["yellow"], START + timedelta(minutes=n))
    player.refresh_from_db()
    assert player.suspended_until is None and not Suspension.objects.exists()
    at = START + timedelta(hours=1)
    give(table, player, ["yellow"], at)
    player.refresh_from_db()
    assert player.suspended_until == at + timedelta(days=7)
    (row,) = Suspension.objects.all()
    assert (row.cause, row.starts, row.ends) == ("yellow", at, at + timedelta(days=7))


def test_a_blue_in_the_same_write_as_the_28th_yellow_counts_towards_the_next(
    make_player: Callable[..., User],
) -> None:
    player = make_player()
    table = table_for(player)
    give(table, player, ["blue"], START)
    for n in range(27):
        give(table, player, ["yellow"], START + timedelta(minutes=n + 1))
    at = START + timedelta(hours=1)
    give(table, player, ["yellow", "blue"], at)  # the 28th yellow, then the match's second blue
    rows = list(Suspension.objects.order_by("pk"))
    # The 28th yellow suspends for a week; counters restart, so that blue is the first of the next two.
    assert [(r.cause, r.starts) for r in rows] == [("yellow", at)]
    later = at + timedelta(days=1)
    give(table, player, ["blue"], later)
    rows = list(Suspension.objects.order_by("pk"))
    assert [r.cause for r in rows] == ["yellow", "blue"]
    # A suspension imposed while another runs is served after it.
    assert rows[1].starts == rows[0].ends and rows[1].ends == rows[0].ends + timedelta(days=14)
    player.refresh_from_db()
    assert player.suspended_until == rows[1].ends


def test_two_blues_suspend_for_two_weeks(make_player: Callable[..., User]) -> None:
    player = make_player()
    table = table_for(player)
    give(table, player, ["blue"], START)
    assert not Suspension.objects.exists()
    give(table, player, ["blue"], START + timedelta(minutes=5))
    player.refresh_from_db()
    assert player.suspended_until == START + timedelta(minutes=5, days=14)


def test_a_red_card_during_a_match_suspends_for_a_month(make_player: Callable[..., User]) -> None:
    player, other = make_player(), make_player()
    table = table_for(player, other)
    give(table, player, ["yellow"], START)
    give(table, player, ["red"], START + timedelta(minutes=3), hand=2)
    player.refresh_from_db()
    other.refresh_from_db()
    assert player.suspended_until == START + timedelta(minutes=3, days=30)
    assert other.suspended_until is None
    card = Card.objects.get(user=player, colour="red")
    assert (card.table_id, card.match, card.hand) == (table.pk, 1, 2)


def test_counters_restart_after_a_served_suspension(make_player: Callable[..., User]) -> None:
    player = make_player()
    table = table_for(player)
    give(table, player, ["blue", "blue"], START)
    served = START + timedelta(days=15)
    give(table, player, ["blue"], served)  # one blue after the suspension: not yet two
    assert Suspension.objects.count() == 1
    give(table, player, ["blue"], served + timedelta(hours=1))
    assert Suspension.objects.count() == 2
    last = Suspension.objects.order_by("-pk").first()
    assert last is not None and last.starts == served + timedelta(hours=1)


def test_deleting_a_table_keeps_its_cards_on_the_players_ladder(make_player: Callable[..., User]) -> None:
    """Regression: cards were deleted with their table, so an administrator deleting a table reset
    the player's count towards a suspension."""
    from amigos.web.moderation.ladder import standing

    player = make_player()
    table = table_for(player)
    give(table, player, ["yellow"] * 27, START)
    table.delete()
    assert Card.objects.filter(user=player, table__isnull=True).count() == 27
    assert standing(player.pk).yellow == 27
    give(table_for(player), player, ["yellow"], START + timedelta(minutes=1))
    player.refresh_from_db()
    assert Suspension.objects.filter(user=player, cause="yellow").count() == 1
    assert player.suspended_until == START + timedelta(minutes=1, days=7)
