"""Reports, the administrators' decisions, "my cards", chat purge and mutes, through the site."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby.models import AdminMessage, ChatMessage
from amigos.web.moderation import selectors, services
from amigos.web.moderation.models import Decision, Mute, Report, Suspension
from amigos.web.tables.models import Card, TableChatLine
from tests.web.conftest import SignedIn
from tests.web.moderation.support import START, give, table_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_player: Callable[..., User]) -> Client:
    admin = make_player("Admin", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def test_a_report_from_the_table_chat_tells_the_administrators(
    make_player: Callable[..., User], settings: object
) -> None:
    setattr(settings, "ADMINS", [("Admin", "admin@example.org")])  # noqa: B010
    reporter, rude = make_player("Ana"), make_player("Bruto")
    table = table_for(reporter, rude)
    line = TableChatLine.objects.create(table=table, author=rude, seat=1, text="insulto", sent_at=START)
    services.report(reporter=reporter, reported_id=rude.pk, comment="antes", now=START, table_id=table.pk)
    row = services.report(
        reporter=reporter,
        reported_id=rude.pk,
        comment="me insultó",
        now=START,
        table_id=table.pk,
        table_line_id=line.pk,
    )
    assert (row.place, row.table_line_id, row.match) == ("table_chat", line.pk, table.match_number)
    body = mail.outbox[-1].body
    assert "Ana" in body and "Bruto" in body and "me insultó" in body and "2" in body
    assert f"/admin/moderation/report/{row.pk}/" in body and f"/admin/tables/table/{table.pk}/" in body


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"comment": "  "}, "bad_comment"),
        ({"comment": "x" * 501}, "bad_comment"),
        ({"reported_id": "self"}, "report_self"),
        ({"reported_id": 10**9}, "unknown_player"),
        ({"lobby_line_id": 10**9}, "unknown_line"),
    ],
)
def test_bad_reports_are_refused_with_a_code_and_change_nothing(
    make_player: Callable[..., User], kwargs: dict[str, object], code: str
) -> None:
    reporter, other = make_player(), make_player()
    args: dict[str, object] = {"reporter": reporter, "reported_id": other.pk, "comment": "hola", "now": START}
    args.update(kwargs)
    if args["reported_id"] == "self":
        args["reported_id"] = reporter.pk
    with pytest.raises(services.ModerationError) as refused:
        services.report(**args)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert not Report.objects.exists()


def test_a_lobby_line_of_someone_else_cannot_be_pinned_on_a_player(make_player: Callable[..., User]) -> None:
    reporter, victim, author = make_player(), make_player(), make_player()
    line = ChatMessage.objects.create(author=author, text="feo")
    with pytest.raises(services.ModerationError):
        services.report(
            reporter=reporter, reported_id=victim.pk, comment="x", now=START, lobby_line_id=line.pk
        )


def test_only_staff_reach_the_desk(sign_in: Callable[..., SignedIn], staff: Client) -> None:
    player = sign_in()
    for url in ("/admin/moderation/report/", "/admin/moderation/suspension/", "/admin/moderation/decision/"):
        assert player.client.get(url).status_code == 302  # to the admin's sign-in
        assert staff.get(url).status_code == 200


def test_warn_and_block_through_the_admin_are_kept_with_who_and_when(
    make_player: Callable[..., User], staff: Client
) -> None:
    reporter, rude = make_player("Ana"), make_player("Bruto")
    table = table_for(reporter, rude)
    warned = services.report(
        reporter=reporter, reported_id=rude.pk, comment="uno", now=START, table_id=table.pk
    )
    blocked = services.report(
        reporter=reporter, reported_id=rude.pk, comment="dos", now=START, table_id=table.pk
    )
    url = "/admin/moderation/report/"
    staff.post(url, {"action": "warn", "_selected_action": [warned.pk]})
    assert AdminMessage.objects.filter(recipient=rude).count() == 1
    # Blocking asks first: the first click changes nothing.
    asked = staff.post(url, {"action": "block", "_selected_action": [blocked.pk]}).content.decode()
    assert 'name="confirmed" value="yes"' in asked and "Bruto" in asked
    assert not Card.objects.filter(user=rude).exists()
    staff.post(url, {"action": "block", "_selected_action": [blocked.pk], "confirmed": "yes"})
    rude.refresh_from_db()
    assert rude.suspended_until is not None
    assert Card.objects.filter(user=rude, colour="red").count() == 1
    decisions = list(Decision.objects.order_by("pk"))
    assert [(d.action, d.decided_by.display_name) for d in decisions] == [
        ("warn", "Admin"),
        ("block", "Admin"),
    ]
    assert decisions[1].suspension is not None
    # A decided report cannot be decided again.
    staff.post(url, {"action": "ignore", "_selected_action": [blocked.pk]})
    assert Decision.objects.count() == 2


def test_a_suspension_is_shortened_then_lifted_with_a_reason(
    make_player: Callable[..., User], staff: Client
) -> None:
    player = make_player()
    table = table_for(player)
    give(table, player, ["red"], timezone.now())
    suspension = Suspension.objects.get()
    url = f"/admin/moderation/suspension/{suspension.pk}/change/"
    staff.post(url, {"new_end": "", "change_reason": ""})  # no reason: refused by the form
    assert not Decision.objects.exists()
    shorter = (timezone.now() + timedelta(days=3)).replace(microsecond=0)
    staff.post(
        url, {"new_end": shorter.strftime("%Y-%m-%d %H:%M:%S"), "change_reason": "primera vez", "sure": "on"}
    )
    player.refresh_from_db()
    suspension.refresh_from_db()
    assert suspension.ends < timezone.now() + timedelta(days=4)
    assert player.suspended_until == suspension.ends
    # Lifting without ticking "I am sure" changes nothing.
    staff.post(url, {"new_end": "", "change_reason": "perdonado"})
    player.refresh_from_db()
    assert player.suspended_until == suspension.ends
    staff.post(url, {"new_end": "", "change_reason": "perdonado", "sure": "on"})
    player.refresh_from_db()
    assert player.suspended_until is None
    assert [d.action for d in Decision.objects.order_by("pk")] == ["shorten", "lift"]


def test_my_cards_shows_only_my_own_cards_and_the_distance(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    me, other = sign_in("Yo"), make_player("Otro")
    table = table_for(me.user, other)
    give(table, me.user, ["yellow", "yellow", "blue"], START)
    give(table, other, ["red"], START)
    mine = selectors.my_cards(me.user.pk)
    assert (mine.yellow, mine.yellow_left, mine.blue, mine.blue_left) == (2, 26, 1, 1)
    assert {card.user_id for card in mine.cards} == {me.user.pk}
    page = me.client.get("/moderation/cards/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert page.count("card-row--yellow") == 2 and "card-row--red" not in page
    assert Client().get("/moderation/cards/").status_code == 302


def test_purge_chat_deletes_only_lines_older_than_the_retention(
    make_player: Callable[..., User], settings: object
) -> None:
    setattr(settings, "AMIGOS_CHAT_RETENTION_DAYS", 30)  # noqa: B010
    author = make_player()
    table = table_for(author)
    now = timezone.now()
    old = ChatMessage.objects.create(author=author, text="viejo", created_at=now - timedelta(days=31))
    new = ChatMessage.objects.create(author=author, text="nuevo", created_at=now - timedelta(days=29))
    TableChatLine.objects.create(table=table, author=author, text="viejo", sent_at=now - timedelta(days=31))
    kept = TableChatLine.objects.create(
        table=table, author=author, text="nuevo", sent_at=now - timedelta(days=1)
    )
    call_command("purge_chat")
    assert list(ChatMessage.objects.values_list("pk", flat=True)) == [new.pk]
    assert not ChatMessage.objects.filter(pk=old.pk).exists()
    assert list(TableChatLine.objects.values_list("pk", flat=True)) == [kept.pk]


def test_purge_chat_keeps_the_lines_an_undecided_report_points_to(
    make_player: Callable[..., User], settings: object
) -> None:
    setattr(settings, "AMIGOS_CHAT_RETENTION_DAYS", 30)  # noqa: B010
    reporter, rude = make_player("Ana"), make_player("Bruto")
    admin = make_player("Jefa", is_staff=True)
    table = table_for(reporter, rude)
    long_ago = timezone.now() - timedelta(days=60)
    lobby_line = ChatMessage.objects.create(author=rude, text="insulto", created_at=long_ago)
    table_line = TableChatLine.objects.create(table=table, author=rude, seat=1, text="otro", sent_at=long_ago)
    decided_line = ChatMessage.objects.create(author=rude, text="decidido", created_at=long_ago)
    services.report(
        reporter=reporter, reported_id=rude.pk, comment="a", now=START, lobby_line_id=lobby_line.pk
    )
    services.report(
        reporter=reporter,
        reported_id=rude.pk,
        comment="b",
        now=START,
        table_id=table.pk,
        table_line_id=table_line.pk,
    )
    decided = services.report(
        reporter=reporter, reported_id=rude.pk, comment="c", now=START, lobby_line_id=decided_line.pk
    )
    services.decide(report=decided, action="ignore", by=admin, now=START)
    call_command("purge_chat")
    assert list(ChatMessage.objects.values_list("pk", flat=True)) == [lobby_line.pk]
    assert list(TableChatLine.objects.values_list("pk", flat=True)) == [table_line.pk]


def test_a_mute_is_one_players_own_choice(make_player: Callable[..., User]) -> None:
    me, loud = make_player(), make_player()
    services.mute(owner=me, muted_id=loud.pk, now=START)
    services.mute(owner=me, muted_id=loud.pk, now=START)
    assert selectors.muted_by(me.pk) == {loud.pk} and selectors.muted_by(loud.pk) == set()
    with pytest.raises(services.ModerationError):
        services.mute(owner=me, muted_id=me.pk, now=START)
    services.unmute(owner=me, muted_id=loud.pk)
    assert not Mute.objects.exists()
