"""The administration: every page opens for staff, players are suspended, reports are judged."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.test import Client
from django.utils import timezone, translation

from amigos.web.accounts.models import SignInAttempt, User
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
    # Filed before reports went to the moderation desk: the admin still shows and decides these.
    return ChatReport.objects.create(
        message_id=line.id, reporter=victim, comment="me insultó", created_at=timezone.now()
    )


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
    staff.post(
        "/admin/accounts/user/",
        {"action": "suspend_one_week", "_selected_action": [ana.pk], "confirmed": "yes"},
    )
    ana.refresh_from_db()
    assert ana.is_suspended()
    assert 6 < (ana.suspended_until - timezone.now()).days + 1 <= 7
    staff.post(
        "/admin/accounts/user/",
        {"action": "lift_suspension", "_selected_action": [ana.pk], "confirmed": "yes"},
    )
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
    staff.post(
        "/admin/lobby/chatreport/", {"action": "block", "_selected_action": [reported.pk], "confirmed": "yes"}
    )
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


# --- The administration speaks the players' languages and wears the site's colours -------------

ADMIN_APPS = ("accounts", "lobby", "events", "archive", "tables", "moderation")
# Words that are the same in both languages, so an equal translation is not a missing one.
SAME_IN_BOTH = {"ID", "PR", "capicúas", "viajeras", "Zapato", "castigo", "castigos"}


def _labels() -> list[tuple[str, Any]]:
    """Every name the admin can show for the site's apps: models, fields, list columns."""
    labels: list[tuple[str, Any]] = []
    for label in ADMIN_APPS:
        config = apps.get_app_config(label)
        labels.append((label, config.verbose_name))
        for model in config.get_models():
            meta = model._meta
            labels += [(meta.label, meta.verbose_name), (meta.label, meta.verbose_name_plural)]
            labels += [
                (f"{meta.label}.{field.name}", field.verbose_name)
                for field in meta.get_fields()
                if hasattr(field, "verbose_name")
            ]
            if model in admin.site._registry:
                for column in admin.site._registry[model].list_display:
                    name = label_for_field(column, model, admin.site._registry[model])
                    labels.append((f"{meta.label} column {column}", name))
    return labels


def test_every_admin_name_of_every_app_has_spanish_and_english() -> None:
    untranslated = []
    for where, name in _labels():
        with translation.override("es"):
            spanish = str(name)
        with translation.override("en"):
            english = str(name)
        if spanish == english and english not in SAME_IN_BOTH:
            untranslated.append(f"{where}: {english!r}")
    assert untranslated == []


def test_the_admin_shows_model_and_column_names_in_spanish(staff: Client, reported: ChatReport) -> None:
    index = staff.get("/admin/").content.decode()
    assert "Jugadores" in index and "Mensajes del chat" in index and "Presencias" in index
    assert "Users" not in index and "Presences" not in index
    presences = staff.get("/admin/lobby/presence/").content.decode()
    assert "Conexiones abiertas" in presences and "Jugador" in presences
    assert "open sockets" not in presences.lower()


def test_the_admin_shows_model_and_column_names_in_english(staff: Client, reported: ChatReport) -> None:
    SignInAttempt.objects.create(identifier="ana@example.org", address="192.0.2.7")
    staff.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    index = staff.get("/admin/").content.decode()
    assert "Players" in index and "Chat messages" in index and "Jugadores" not in index
    attempts = staff.get("/admin/accounts/signinattempt/").content.decode()
    assert "Identifier (normalised)" in attempts and "IP address" in attempts


def test_the_admin_wears_the_sites_look(staff: Client) -> None:
    page = staff.get("/admin/").content.decode()
    assert "amigos/admin.css" in page and "admin-brand__tile" in page
    assert "Amigos por el Dominó: administración" in page
    login = Client().get("/admin/login/").content.decode()
    assert "amigos/admin.css" in login


def test_a_suspension_is_shown_but_never_typed_into_the_player_form(
    staff: Client, make_player: Callable[..., User]
) -> None:
    """The suspension is given and lifted through moderation (the list's actions, the desk), which
    keeps who decided it; the form shows it and ignores a forged value."""
    ana = make_player("Ana")
    url = f"/admin/accounts/user/{ana.pk}/change/"
    page = staff.get(url).content.decode()
    assert 'name="suspended_until"' not in page
    form = {
        "email": ana.email,
        "display_name": ana.display_name,
        "is_active": "on",
        "suspended_until": "2030-01-02T10:30",
        "suspension_reason": "insultos",
    }
    response = staff.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    ana.refresh_from_db()
    assert ana.suspended_until is None and not ana.is_suspended()


# --- Decisions that change an account ask first, and say when they are done -------------------


@pytest.mark.parametrize(
    ("url", "action"),
    [
        ("/admin/accounts/user/", "suspend_one_week"),
        ("/admin/accounts/user/", "suspend_one_month"),
        ("/admin/lobby/chatreport/", "block"),
    ],
)
def test_a_dangerous_action_asks_before_it_acts(
    staff: Client, reported: ChatReport, url: str, action: str
) -> None:
    author = reported.message.author
    target = author.pk if "user" in url else reported.pk
    page = staff.post(url, {"action": action, "_selected_action": [target]})
    author.refresh_from_db()
    assert page.status_code == 200 and not author.is_suspended()
    text = page.content.decode()
    # The question names whom it concerns and posts the same action again, with the answer.
    named = author if "user" in url else reported
    assert "¿" in text and html.escape(str(named)) in text
    assert 'name="confirmed" value="yes"' in text and f'value="{action}"' in text
    staff.post(url, {"action": action, "_selected_action": [target], "confirmed": "yes"})
    author.refresh_from_db()
    assert author.is_suspended()


def test_lifting_asks_first_too_and_says_it_is_done(staff: Client, make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    staff.post(
        "/admin/accounts/user/",
        {"action": "suspend_one_week", "_selected_action": [ana.pk], "confirmed": "yes"},
    )
    staff.post("/admin/accounts/user/", {"action": "lift_suspension", "_selected_action": [ana.pk]})
    ana.refresh_from_db()
    assert ana.is_suspended()
    done = staff.post(
        "/admin/accounts/user/",
        {"action": "lift_suspension", "_selected_action": [ana.pk], "confirmed": "yes"},
        follow=True,
    ).content.decode()
    ana.refresh_from_db()
    assert not ana.is_suspended()
    # A decision carried out is shown as a success (the admin's green), in the reader's language.
    assert re.search(r'<li class="success">[^<]*1 suspensión levantada\.', done)
