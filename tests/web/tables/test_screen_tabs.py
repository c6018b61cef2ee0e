"""On a phone the table page is tabs (issue 38, "A table that fits one screen"): the felt, the
score sheet, the fair-deal box and the chat, one at a time in the felt's place, each reached with a
tap or the arrow keys and each inside the screen; from a laptop up every panel shows beside the felt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import play_against_computer, play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PANELS = {"felt": "#felt", "sheet": "#sheet-panel", "fair": "#fair-panel", "chat": "#chat-panel"}


def shown_alone(page: Any, name: str) -> None:
    """Only ``name``'s panel shows, its tab is the selected one, and it lies inside the screen."""
    for other, selector in PANELS.items():
        if other == name:
            expect(page.locator(selector)).to_be_visible()
        else:
            expect(page.locator(selector)).to_be_hidden()
    expect(page.locator(f"#tab-{name}")).to_have_attribute("aria-selected", "true")
    expect(page.locator("[role=tab][aria-selected=true]")).to_have_count(1)
    box = page.locator(PANELS[name]).bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (name, box, height)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 640)])
def test_on_a_phone_each_panel_is_a_tab_inside_the_screen(
    open_page: Callable[..., Any], width: int, height: int
) -> None:
    player("Ana")
    page = open_page(width, height)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    page.locator("#my-hand .my-tile").first.wait_for()
    expect(page.locator("[role=tablist] [role=tab]")).to_have_text(["Mesa", "Hoja", "Reparto", "Chat"])
    shown_alone(page, "felt")
    expect(page.locator("#my-hand .my-tile").first).to_be_in_viewport()
    assert_accessible(page)

    page.click("#tab-sheet")
    shown_alone(page, "sheet")
    expect(page.locator("#sheet table")).to_be_visible()
    # The keyboard: the arrows go from tab to tab and show each; only the selected tab is in the
    # Tab order.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-fair")).to_be_focused()
    shown_alone(page, "fair")
    expect(page.locator("[role=tab][tabindex='0']")).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator("#tab-chat")).to_be_focused()
    shown_alone(page, "chat")
    assert page.get_attribute("#chat-panel", "role") == "tabpanel"
    assert_accessible(page)
    # The chat works from its tab, and the message stays on screen.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past the log (a scrollable region a reader may enter) to the box
    expect(page.locator("#table-chat-input")).to_be_focused()
    page.keyboard.type("buena suerte")
    page.keyboard.press("Enter")
    expect(page.locator("#table-chat-log")).to_contain_text("buena suerte")
    expect(page.locator("#table-chat-log .chat__line").last).to_be_in_viewport()
    # Back to the table with Home: the tiles are there again, and nothing scrolled the page.
    page.focus("#tab-chat")
    page.keyboard.press("Home")
    shown_alone(page, "felt")
    expect(page.locator("#my-hand .my-tile").first).to_be_in_viewport()


def test_the_table_tab_says_when_it_is_the_players_turn(open_page: Callable[..., Any], settings: Any) -> None:
    settings.AMIGOS_TABLE_BOT_DELAY_MS = 1000  # the computer players take their time
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    page.locator("#my-hand .my-tile--playable").first.wait_for()
    play_one(page, "keyboard")
    # Reading the chat while the others play: the table's tab is marked when the turn comes back.
    page.click("#tab-chat")
    # (A guard, not a measure: three computer players move first, and the player may pass once.)
    expect(page.locator("#tab-felt")).to_have_attribute("data-attention", "true", timeout=60_000)
    expect(page.locator("#tab-felt")).to_contain_text("(tu turno)")
    page.click("#tab-felt")
    expect(page.locator("#tab-felt")).not_to_have_attribute("data-attention", "true")
    expect(page.locator("#my-hand")).to_be_in_viewport()


def test_from_a_laptop_up_every_panel_shows_beside_the_felt(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(1280, 800)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    page.locator("#my-hand .my-tile").first.wait_for()
    expect(page.locator("[role=tablist]")).to_be_hidden()
    for selector in PANELS.values():
        expect(page.locator(selector)).to_be_visible()
    assert page.locator("[role=tabpanel]").count() == 0
    # A window made narrow turns the panels into tabs, and wide again back.
    page.set_viewport_size({"width": 390, "height": 844})
    shown_alone(page, "felt")
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#chat-panel")).to_be_visible()
    assert_accessible(page)


def test_a_chat_line_marks_the_chat_tab_until_it_is_read(open_page: Callable[..., Any]) -> None:
    """A spectator on a phone watches the felt; the player writes: the chat's tab says so, and the
    line is there when the spectator opens it."""
    player("Ana")
    player("Eva")
    ana, eva = open_page(), open_page(390, 844)
    sign_in_as(ana, "Ana")
    sign_in_as(eva, "Eva")
    table_id = play_against_computer(ana, "amigos-100")
    eva.goto(f"/mesas/{table_id}/")
    eva.wait_for_selector("#table-page[data-join-as=spectator][data-replaying=false]")
    shown_alone(eva, "felt")
    expect(eva.locator("#tab-chat")).not_to_have_attribute("data-attention", "true")
    ana.fill("#table-chat-input", "¿quién mira?")
    ana.press("#table-chat-input", "Enter")
    expect(eva.locator("#tab-chat")).to_have_attribute("data-attention", "true")
    expect(eva.locator("#tab-chat")).to_contain_text("(mensajes nuevos)")
    eva.click("#tab-chat")
    shown_alone(eva, "chat")
    expect(eva.locator("#table-chat-log")).to_contain_text("¿quién mira?")
    expect(eva.locator("#tab-chat")).not_to_have_attribute("data-attention", "true")
    expect(eva.locator("#tab-chat .table-tab__note")).to_have_text("")
