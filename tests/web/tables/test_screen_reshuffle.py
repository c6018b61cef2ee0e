"""The Cuban reshuffle on the table screen: the player dealt five doubles sees the offer (and
nobody else's screen does), asks for a new deal from the keyboard, and is dealt again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.engine import deal_from_key, find_variant, new_deal_key
from amigos.web.tables import actor as actor_module
from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import play_against_computer, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: cuban-2v2 deals: the first offers seat 0 alone a new deal, and its set-aside tiles' draw for
#: the lead makes seat 0 (Ana) lead, so the offer waits on her; the second offers nobody one.
OFFERING = "0000022c-0000-4000-8000-000000000000"
PLAIN = "00000001-0000-4000-8000-000000000000"


def test_the_player_dealt_five_doubles_asks_for_a_new_deal_from_the_keyboard(
    open_page: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = [OFFERING, PLAIN]
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: keys.pop(0) if keys else new_deal_key())
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    play_against_computer(page, "cuban-2v2")
    offer = page.locator("#reshuffle-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Te tocaron cinco dobles o más")
    variant = find_variant("cuban-2v2")
    dealt = {str(tile) for tile in deal_from_key(OFFERING, variant).hands[0]}
    tiles = page.locator("#my-hand .my-tile")
    expect(tiles).to_have_count(10)
    assert {tiles.nth(i).get_attribute("data-tile") for i in range(10)} == dealt
    assert_accessible(page)
    # From the keyboard: the button takes the focus like any other, and Enter presses it.
    button = page.locator("#reshuffle-ask")
    expect(button).to_have_text("Pedir otro reparto")
    button.focus()
    page.keyboard.press("Enter")
    expect(offer).to_be_hidden()
    expect(page.locator("#announcer")).to_contain_text("pidió otro reparto")
    expect(page.locator("#announcer")).to_contain_text(OFFERING)
    again = {str(tile) for tile in deal_from_key(PLAIN, variant).hands[0]}
    expect(tiles).to_have_count(10)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('#my-hand .my-tile')]"
        ".map((t) => t.dataset.tile).sort().join() === want",
        arg=",".join(sorted(again)),
    )
    # A reload: the snapshot of the new deal offers nothing any more.
    page.reload()
    page.locator("#my-hand .my-tile").first.wait_for()
    expect(offer).to_be_hidden()


def test_the_offer_survives_a_reload_and_reads_in_english(
    open_page: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = [OFFERING]
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: keys.pop(0) if keys else new_deal_key())
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    play_against_computer(page, "cuban-2v2")
    expect(page.locator("#reshuffle-offer")).to_be_visible()
    # The language switch reloads the page: the snapshot tells her of the offer as the deal did.
    page.click("button[name=language][value=en]")
    page.wait_for_selector("#table-page[data-replaying=false]")
    expect(page.locator("#reshuffle-offer")).to_contain_text("You were dealt five or more doubles")
    expect(page.locator("#reshuffle-ask")).to_have_text("Ask for a new deal")
