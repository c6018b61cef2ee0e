"""Every suspension an administrator gives or lifts is kept like a desk decision (who, when, why).

Regression: the players' list's "suspend" and "lift" actions, its editable "suspended until" field,
and a block on a player who never sat at a table all bypassed the desk (no Suspension, no Decision),
or failed with ``no_table_for_card``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.moderation import services
from amigos.web.moderation.ladder import standing
from amigos.web.moderation.models import Decision, ReportStatus, Suspension
from amigos.web.tables.models import Card
from tests.web.moderation.support import START, give, table_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(make_player: Callable[..., User]) -> User:
    return make_player("Admin", is_staff=True, is_superuser=True)


def staff_client(admin_user: User) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


def test_blocking_a_player_who_never_sat_at_a_table_suspends_for_a_month(
    make_player: Callable[..., User], admin_user: User
) -> None:
    reporter, rude = make_player("Ana"), make_player("Bruto")
    report = services.report(reporter=reporter, reported_id=rude.pk, comment="en el salón", now=START)
    decision = services.decide(report=report, action="block", by=admin_user, now=START, reason="insultos")
    rude.refresh_from_db()
    assert decision.suspension is not None and decision.suspension.cause == "admin"
    assert decision.suspension.ends == START + timedelta(days=30) == rude.suspended_until
    assert report.status == ReportStatus.BLOCKED and decision.decided_by == admin_user
    assert not Card.objects.filter(user=rude).exists()


def test_the_players_list_actions_keep_the_suspension_and_who_decided(
    make_player: Callable[..., User], admin_user: User
) -> None:
    player = make_player("Bruto")
    client = staff_client(admin_user)
    url = "/admin/accounts/user/"
    before = timezone.now()
    client.post(url, {"action": "suspend_one_week", "_selected_action": [player.pk], "confirmed": "yes"})
    player.refresh_from_db()
    suspension = Suspension.objects.get(user=player)
    assert suspension.cause == "admin" and suspension.lifted_at is None
    assert suspension.ends - suspension.starts == timedelta(days=7)
    assert player.suspended_until == suspension.ends and suspension.starts >= before
    block = Decision.objects.get(player=player)
    assert (block.action, block.decided_by, block.suspension) == ("block", admin_user, suspension)

    client.post(url, {"action": "lift_suspension", "_selected_action": [player.pk], "confirmed": "yes"})
    player.refresh_from_db()
    suspension.refresh_from_db()
    assert player.suspended_until is None and suspension.lifted_at is not None
    lift = Decision.objects.filter(player=player).order_by("pk").last()
    assert lift is not None and (lift.action, lift.decided_by) == ("lift", admin_user) and lift.reason


def test_the_suspension_is_not_typed_into_the_player_form(
    make_player: Callable[..., User], admin_user: User
) -> None:
    player = make_player("Bruto")
    page = staff_client(admin_user).get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    assert 'name="suspended_until"' not in page and 'name="suspension_reason"' not in page


def test_a_suspension_by_hand_before_the_desk_is_lifted_with_a_decision(
    make_player: Callable[..., User], admin_user: User
) -> None:
    player = make_player("Bruto")
    player.suspended_until = timezone.now() + timedelta(days=3)
    player.save()
    decisions = services.lift_by_administrator(user=player, by=admin_user, now=timezone.now(), reason="error")
    player.refresh_from_db()
    assert player.suspended_until is None and [d.action for d in decisions] == ["lift"]


def test_an_administrators_suspension_leaves_the_card_ladder_alone(
    make_player: Callable[..., User], admin_user: User
) -> None:
    player, other = make_player("Bruto"), make_player("Otro")
    table = table_for(player, other)
    give(table, player, ["yellow"] * 27, START)
    services.suspend_by_administrator(user=player, days=7, by=admin_user, now=START, reason="aviso")
    assert standing(player.pk).yellow == 27  # the counters did not start again
    with pytest.raises(services.ModerationError) as refused:
        services.suspend_by_administrator(user=player, days=7, by=admin_user, now=START, reason=" ")
    assert refused.value.code == "reason_required"
