"""Mute and report from the lobby's chat and a table's chat, in a real Chromium, in Spanish.

The actions are buttons on each of another player's lines (reachable by keyboard); a report goes
through the one report dialog to the administrators' desk with the line it concerns; a muted
player's lines leave the page and stop arriving until the player is unmuted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.lobby.models import ChatMessage
from amigos.web.moderation.models import Report
from amigos.web.tables.models import TableChatLine
from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import play_against_computer, player, sign_in_as
from tests.web.test_browser import chromium, open_page  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def say(page: Any, field: str, text: str) -> None:
    page.fill(field, text)
    page.press(field, "Enter")


def report(page: Any, button: Any, comment: str, feedback: str) -> None:
    """Open the dialog from ``button`` with the keyboard, write the comment and send it."""
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#report-dialog")).to_be_visible()
    page.fill("#report-comment", comment)
    page.click("#report-dialog button[value=report]")
    expect(page.locator(feedback)).to_contain_text("Gracias")


def test_mute_and_report_from_the_lobby_and_a_table_chat(
    open_page: Callable[..., Any],  # noqa: F811
) -> None:
    player("Ana")
    beto_user = player("Beto")
    ana, beto = open_page(), open_page()
    sign_in_as(ana, "Ana")
    sign_in_as(beto, "Beto")

    # The lobby: Ana reports Beto's line, then mutes him.
    say(beto, "#chat-input", "hola a todos")
    line = ana.locator("#chat-log .chat__line").filter(has_text="hola a todos")
    expect(line).to_have_count(1)
    report(ana, line.get_by_role("button", name="Denunciar a Beto"), "spam", "#chat-feedback")
    filed = Report.objects.get(comment="spam")
    assert filed.reported_id == beto_user.pk and filed.place == "lobby"
    assert filed.lobby_line_id == ChatMessage.objects.get(text="hola a todos").pk
    line.get_by_role("button", name="Silenciar a Beto").click()
    expect(line).to_have_count(0)
    expect(ana.locator("#muted-list")).to_contain_text("Beto")
    say(beto, "#chat-input", "otra vez")
    say(ana, "#chat-input", "yo sigo")
    expect(beto.locator("#chat-log")).to_contain_text("yo sigo")
    expect(ana.locator("#chat-log")).to_contain_text("yo sigo")
    assert "otra vez" not in ana.inner_text("#chat-log")  # Beto's line came first, or not at all
    expect(beto.locator("#chat-log")).to_contain_text("otra vez")  # only Ana muted him
    assert_accessible(ana)
    ana.get_by_role("button", name="Dejar de silenciar a Beto").click()
    expect(ana.locator("#muted-players")).to_be_hidden()
    say(beto, "#chat-input", "volví")
    expect(ana.locator("#chat-log")).to_contain_text("volví")

    # A table: Beto plays against the computer and writes; Ana watches, reports the line and the
    # seated player, and mutes him.
    table_id = play_against_computer(beto, "amigos-100")
    # The page says "offline" to a line written before its socket is up (seen in CI, under load):
    # write once the table is on the page, and see the line come back before going on.
    beto.wait_for_selector("#table-page[data-replaying=false]")
    say(beto, "#table-chat-input", "mesa uno")
    expect(beto.locator("#table-chat-log .chat__line").filter(has_text="mesa uno")).to_have_count(1)
    ana.goto("/")
    ana.locator(f'#live-tables [data-table-id="{table_id}"] a').click()
    ana.wait_for_selector("#table-page[data-join-as=spectator]")
    table_line = ana.locator("#table-chat-log .chat__line").filter(has_text="mesa uno")
    expect(table_line).to_have_count(1)
    report(ana, table_line.get_by_role("button", name="Denunciar a Beto"), "trampa", "#table-chat-feedback")
    from_chat = Report.objects.get(comment="trampa")
    assert from_chat.place == "table_chat" and from_chat.table_id == table_id
    assert from_chat.table_line_id == TableChatLine.objects.get(text="mesa uno").pk
    seat = ana.locator("#felt").get_by_role("button", name="Denunciar a Beto")
    report(ana, seat, "no juega", "#table-chat-feedback")
    from_seat = Report.objects.get(comment="no juega")
    assert (from_seat.place, from_seat.table_id, from_seat.table_line_id) == ("table", table_id, None)

    table_line.get_by_role("button", name="Silenciar a Beto").click()
    expect(table_line).to_have_count(0)
    expect(ana.locator("#muted-list")).to_contain_text("Beto")
    assert_accessible(ana)
    say(beto, "#table-chat-input", "mesa dos")
    expect(beto.locator("#table-chat-log")).to_contain_text("mesa dos")
    ana.get_by_role("button", name="Dejar de silenciar a Beto").click()
    expect(ana.locator("#muted-players")).to_be_hidden()
    say(beto, "#table-chat-input", "mesa tres")
    expect(ana.locator("#table-chat-log")).to_contain_text("mesa tres")
    assert "mesa dos" not in ana.inner_text("#table-chat-log")  # sent while muted: never arrived
