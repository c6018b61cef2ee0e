"""Seats a player can read (issue 38, item 5): on a phone each seat says where it sits from the
player and its team, and the three computer players have three names, on the seats and the sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.tables.screen_support import play_against_computer, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown_name(name: Any) -> str:
    """A seat's name as read: without the soft hyphens where a long word may break on a narrow
    seat box (only places to break: a screen reader reads "Compu\u00adtadora" whole)."""
    text: str = name.inner_text()
    return text.replace("\u00ad", "")


def test_on_a_phone_every_seat_says_where_it_sits_and_its_team(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    expect(page.locator(".seat")).to_have_count(4)
    places = {}
    for seat in range(4):
        box = page.locator(f'.seat[data-seat="{seat}"]')
        place = box.locator(".seat__place")
        expect(place).to_be_visible()
        places[seat] = (place.inner_text(), shown_name(box.locator(".seat__name")))
    assert places[0][0] == "Tú · Equipo A"
    assert places[1][0] == "A tu derecha · Equipo B"
    assert places[2][0] == "Tu compañero · Equipo A"
    assert places[3][0] == "A tu izquierda · Equipo B"
    computers = [places[seat][1] for seat in (1, 2, 3)]
    assert len(set(computers)) == 3 and all(name.startswith("Computadora") for name in computers)
    assert computers[1] == "Computadora Norte (normal)"
    # The word may break after its syllable "Compu" (soft hyphen), and a screen reader reads it whole.
    assert page.locator('.seat[data-seat="2"] .seat__name').inner_text().startswith("Compu\u00adtadora ")
    read = page.locator('.seat[data-seat="2"] .seat__head').aria_snapshot()
    assert "Computadora Norte (normal)" in read and "\u00ad" not in read, read


def test_an_english_page_names_the_computer_players_in_english(open_page: Callable[..., Any]) -> None:
    """The seats' names are shared by every audience in Spanish; an English page shows its own."""
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    page.click("button[name=language][value=en]")
    page.wait_for_selector("html[lang=en]")
    play_against_computer(page, "amigos-100")
    expect(page.locator(".seat")).to_have_count(4)
    names = [shown_name(page.locator(f'.seat[data-seat="{seat}"] .seat__name')) for seat in (1, 2, 3)]
    assert names == ["Computer East (normal)", "Computer North (normal)", "Computer West (normal)"]
    assert page.locator('.seat[data-seat="2"] .seat__name').inner_text().startswith("Com\u00adputer ")
    # The score sheet names the teams the same way, and no Spanish name is left on the table.
    expect(page.locator("#sheet")).to_contain_text("Computer North (normal)")
    assert "Computadora" not in page.inner_text("#table-page")
