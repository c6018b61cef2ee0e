"""The organizer cancels a table before its match starts (issue 38, item 4), with two browsers:
Ana's page goes back to the meeting room, Beto's invitation closes, and Beto, who had accepted
nothing, is free for another table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.tables.screen_support import player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organizer_cancels_and_both_pages_end_right(open_page: Callable[..., Any]) -> None:
    player("Ana")
    player("Beto")
    beto = open_page()
    sign_in_as(beto, "Beto")
    ana = open_page(390, 844)
    sign_in_as(ana, "Ana")
    ana.click("text=Crear una mesa")
    ana.fill("#id_name", "La de prueba")
    ana.select_option("#id_variant", "cuban-1v1")
    ana.select_option("#id_seat_1", label="Beto")
    ana.click("main button[type=submit]")
    ana.wait_for_selector("#table-page")
    expect(ana.locator("#start-box")).to_be_visible()
    dialog = beto.locator("#invite-dialog[open]")
    expect(dialog).to_contain_text("Ana te invita a «La de prueba»")
    ana.locator("#cancel-table").click()
    # Ana is told, and taken back to the meeting room; Beto's invitation closes.
    expect(ana.locator("#play-feedback")).to_contain_text("se canceló")
    ana.wait_for_url("**/", timeout=15_000)
    expect(ana.locator("#own-table")).to_have_count(0)  # no table of hers is left to go back to
    expect(dialog).to_have_count(0)
