"""No play is lost by a slow page (issue 38, items 6 and 10).

A play the server refuses as stale is offered again, and a message of the table does not replace
the button a player is on (a press and a release either side of a message still make one click).
A series of keyboard plays with the page's processor slowed through Chromium's DevTools protocol
(`Emulation.setCPUThrottlingRate`) lays every tile chosen by keyboard (it once lost an Enter beside
a CPU hog: the last hand's result was still open over the tiles, see its docstring).

The table server's clock is a fake one (amigos.web.tables.registry.use_clock): no deadline runs out
on its own, so every play in these tests is the player's or a computer player's.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.tables import actor as actor_module
from amigos.web.tables.models import LogRow
from tests.web.tables.screen_support import (
    HAND_GUARD_SECONDS,
    LAY_GUARD_MS,
    close_the_last_hands_result,
    describe,
    play_against_computer,
    player,
    send_table_event,
    sign_in_as,
)
from tests.web.tables.support import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: How much slower than this machine the page's processor runs (DevTools' CPU throttling).
THROTTLE = 6


def throttle(page: Any, rate: int = THROTTLE) -> None:
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})


def my_seat(page: Any) -> int:
    return int(page.locator(".seat--me").get_attribute("data-seat"))


def played_after(table_id: int, seat: int, tile: str, version: int) -> LogRow | None:
    """The `played` event of ``tile`` by ``seat`` stored after ``version``, if the table has it."""
    events = LogRow.objects.filter(table_id=table_id, kind="played", version__gt=version)
    mine = (e for e in events.order_by("version") if (e.data.get("seat"), e.data.get("tile")) == (seat, tile))
    return next(mine, None)


def until_stored(page: Any, table_id: int, seat: int, tile: str, version: int) -> LogRow:
    """Waits for the table's log to hold the play (a guard against a hung page only: the test
    plays once and never again, so a lost play fails here)."""
    deadline = time.monotonic() + 2 * LAY_GUARD_MS / 1000
    while (event := played_after(table_id, seat, tile, version)) is None:
        assert time.monotonic() < deadline, f"{tile} was chosen and never laid: {describe(page)}"
        page.wait_for_timeout(100)
    return event


def page_has_seen(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.getElementById('table-page').dataset.version || 0) >= v", arg=version
    )


def test_a_slow_page_lays_every_tile_chosen_by_keyboard(
    open_page: Callable[..., Any], screen_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiles are chosen by keyboard on a throttled page, each with one Enter (and Tab, Enter for the
    arm question), while the computer players' moves keep coming: the table stores every one.

    Left out for a while (it once lost an Enter beside a CPU hog); the cause was the last hand's
    result, a modal dialog, still open over the tiles, so the key went to the dialog. The player
    closes it first, as a person does (`close_the_last_hands_result`), and a failure now says
    whether the dialog was open when the key was pressed.

    The deals are fixed (the same keys every run), so how many hands the series takes is the same
    every time: with fresh deals, a run whose hands seldom offered a tile fitting both ends could
    outlast the guard against a hung page on a loaded machine."""
    keys = iter(str(uuid.UUID(int=number, version=4)) for number in range(1, 1000))
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: next(keys))
    player("Ana")
    page = open_page(390, 844)
    throttle(page)
    sign_in_as(page, "Ana")
    table_id = play_against_computer(page, "amigos-100")
    seat = my_seat(page)
    laid = asked = 0
    deadline = time.monotonic() + 4 * HAND_GUARD_SECONDS  # a guard against a hung page only
    while laid < 12 or asked < 2:
        assert time.monotonic() < deadline, f"{laid} tiles laid, {asked} questions answered: {describe(page)}"
        playable = page.locator("#my-hand .my-tile--playable")
        if not playable.count():
            page.wait_for_timeout(100)
            continue
        close_the_last_hands_result(page)
        both = page.locator('#my-hand .my-tile--playable[data-arms="up down"]')
        chosen = both.first if both.count() else playable.first
        name = str(chosen.get_attribute("data-tile"))
        two_ways = chosen.get_attribute("data-arms") == "up down"
        version = int(page.get_attribute("#table-page", "data-version") or 0)
        page.locator(f'#my-hand [data-tile="{name}"]').press("Enter")
        if two_ways:
            expect(page.locator("#arm-dialog[open]")).to_be_visible()
            page.keyboard.press("Tab")  # to "Abajo / Derecha"
            page.keyboard.press("Enter")
        event = until_stored(page, table_id, seat, name, version)
        if two_ways:
            assert event.data["arm"] == "down", event.data
            asked += 1
        laid += 1
        page_has_seen(page, event.version)


#: The page's first three plays reach the server one version behind (the table kept moving on
#: under a slow page through every try the page makes on its own).
STALE_THREE_PLAYS = """
window.amigosStaleSent = 0;
document.addEventListener("amigos:send", (event) => {
  const detail = event.detail;
  if (detail.type !== "table.play" || window.amigosStaleSent >= 3) return;
  window.amigosStaleSent += 1;
  detail.payload = { ...detail.payload, version: detail.payload.version - 1 };
}, true);
"""


def test_a_play_refused_as_stale_is_offered_again(
    open_page: Callable[..., Any], screen_clock: FakeClock
) -> None:
    """After the page's own tries are refused as stale, the choice is the player's again: the same
    tile stays playable, with the keyboard on it (or the arm question asked again), and the
    refusal is said; one more Enter lays it."""
    player("Ana")
    page = open_page(390, 844)
    page.add_init_script(STALE_THREE_PLAYS)
    sign_in_as(page, "Ana")
    table_id = play_against_computer(page, "amigos-100")
    seat = my_seat(page)
    page.locator("#my-hand .my-tile--playable").first.wait_for()
    tile = page.locator("#my-hand .my-tile--playable").first
    name = str(tile.get_attribute("data-tile"))
    version = int(page.get_attribute("#table-page", "data-version") or 0)
    tile.press("Enter")
    page.wait_for_function(
        """(name) => document.querySelector("#arm-dialog[open]")
            || window.amigosStaleSent >= 1""",
        arg=name,
    )
    if page.locator("#arm-dialog[open]").count():
        page.keyboard.press("Enter")  # the first arm it offers
    page.wait_for_function("() => window.amigosStaleSent >= 3")
    expect(page.locator("#play-feedback")).to_have_text("La mesa avanzó; mira otra vez antes de jugar.")
    expect(page.locator(f'#my-hand .my-tile--playable[data-tile="{name}"]')).to_have_count(1)
    # Offered again: the question (a tile fitting both ends) or the keyboard on the tile.
    page.wait_for_function(
        """(name) => document.querySelector("#arm-dialog[open]")
            || document.activeElement?.dataset?.tile === name""",
        arg=name,
    )
    assert played_after(table_id, seat, name, version) is None
    page.keyboard.press("Enter")
    until_stored(page, table_id, seat, name, version)
    assert page.evaluate("window.amigosStaleSent") == 3


def notice(page: Any) -> None:
    """A message of the table that changes nothing in the hand (a notice, as the server sends one)."""
    send_table_event(page, "notice", '{ seat, code: "no_blocking" }')


def test_a_message_of_the_table_keeps_the_button_a_player_is_on(
    open_page: Callable[..., Any], screen_clock: FakeClock
) -> None:
    """The hand was drawn anew on every message of the table: the button a player had focused was
    replaced, and a press or tap whose two halves came either side of a message reached no button
    (a click needs its pointer down and up on one element). The tile's button now stays."""
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    page.locator("#my-hand .my-tile--playable").first.wait_for()
    tile = page.locator("#my-hand .my-tile").first
    tile.focus()
    page.evaluate(
        """() => {
          window.amigosFocused = document.activeElement;
          window.amigosClicked = [];
          document.getElementById("my-hand").addEventListener("click", (event) => {
            window.amigosClicked.push(event.target.closest("[data-tile]") === window.amigosFocused);
          });
        }"""
    )
    notice(page)
    expect(page.locator("#play-feedback")).not_to_have_text("")
    kept = "() => window.amigosFocused.isConnected && document.activeElement === window.amigosFocused"
    assert page.evaluate(kept)
    # A mouse's press and release either side of a message: one click, on the same button (a mouse
    # click only focuses a tile; a double click or a tap lays it).
    tile.hover()
    page.mouse.down()
    notice(page)
    page.mouse.up()
    page.wait_for_function("() => window.amigosClicked.length > 0")
    assert page.evaluate("window.amigosClicked") == [True]
