"""The administration: every page opens for staff, players are suspended, reports are judged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby import chat, notices
from amigos.web.lobby.models import AdminMessage, ChatMessage, ChatReport, ReportStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_player: Callable[..., User]) -> Client:
    admin = make_player("Admin", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def reported(make_player: Callable[..., User]) -> ChatReport:
    rude, victim = make_player("Grosero"), make_player("Víctima")
    line = chat.post(rude, "palabrota", timezone.now())
    return chat.report(victim, line.id, "me insultó", timezone.now())


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/accounts/user/",
        "/admin/accounts/user/add/",
        "/admin/accounts/signinattempt/",
        "/admin/lobby/adminmessage/",
        "/admin/lobby/adminmessage/add/",
        "/admin/lobby/chatmessage/",
        "/admin/lobby/chatreport/",
        "/admin/lobby/presence/",
    ],
)
def test_admin_pages_open_for_staff(staff: Client, reported: ChatReport, url: str) -> None:
    assert staff.get(url).status_code == 200


def test_admin_is_closed_to_players(make_player: Callable[..., User]) -> None:
    client = Client()
    client.force_login(make_player("Ana"))
    assert client.get("/admin/")["Location"].startswith("/admin/login/")


def test_report_detail_pages_open(staff: Client, reported: ChatReport) -> None:
    assert staff.get(f"/admin/lobby/chatreport/{reported.pk}/change/").status_code == 200
    assert staff.get(f"/admin/lobby/chatmessage/{reported.message_id}/change/").status_code == 200
    assert staff.get(f"/admin/accounts/user/{reported.reporter_id}/change/").status_code == 200


def test_suspend_players_from_the_list(staff: Client, make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    staff.post("/admin/accounts/user/", {"action": "suspend_one_week", "_selected_action": [ana.pk]})
    ana.refresh_from_db()
    assert ana.is_suspended()
    assert 6 < (ana.suspended_until - timezone.now()).days + 1 <= 7
    staff.post("/admin/accounts/user/", {"action": "lift_suspension", "_selected_action": [ana.pk]})
    ana.refresh_from_db()
    assert not ana.is_suspended()


def test_send_a_message_to_everyone(staff: Client, make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    response = staff.post(
        "/admin/lobby/adminmessage/add/", {"recipient": "", "subject": "Aviso", "body": "Hola"}
    )
    assert response.status_code == 302
    assert [m.subject for m in notices.unread(ana)] == ["Aviso"]
    assert AdminMessage.objects.get().recipient is None


def test_warn_from_a_report(staff: Client, reported: ChatReport) -> None:
    staff.post("/admin/lobby/chatreport/", {"action": "warn", "_selected_action": [reported.pk]})
    reported.refresh_from_db()
    assert reported.status == ReportStatus.WARNED
    warning = notices.unread(reported.message.author)
    assert len(warning) == 1 and "palabrota" in warning[0].body


def test_block_from_a_report_suspends_a_month_and_hides_the_message(
    staff: Client, reported: ChatReport
) -> None:
    staff.post("/admin/lobby/chatreport/", {"action": "block", "_selected_action": [reported.pk]})
    reported.refresh_from_db()
    author = reported.message.author
    author.refresh_from_db()
    assert reported.status == ReportStatus.BLOCKED
    assert author.is_suspended() and (author.suspended_until - timezone.now()).days >= 29
    assert ChatMessage.objects.get(pk=reported.message_id).hidden
    assert chat.recent() == []


def test_ignore_a_report(staff: Client, reported: ChatReport) -> None:
    staff.post("/admin/lobby/chatreport/", {"action": "ignore", "_selected_action": [reported.pk]})
    reported.refresh_from_db()
    assert reported.status == ReportStatus.IGNORED
    assert not reported.message.author.is_suspended()


def test_the_chat_list_narrows_to_reported_lines(staff: Client, reported: ChatReport) -> None:
    chat.post(reported.reporter, "una línea sin reportes", timezone.now())
    only_reported = staff.get("/admin/lobby/chatmessage/?reported=yes").content.decode()
    assert "palabrota" in only_reported and "una línea sin reportes" not in only_reported
    not_reported = staff.get("/admin/lobby/chatmessage/?reported=no").content.decode()
    assert "palabrota" not in not_reported and "una línea sin reportes" in not_reported
