"""One player against three computer players, through the screen, to the end of a hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import play_against_computer, play_hand, play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("variant", "players", "how", "seats"),
    [
        ("amigos-100", 4, "keyboard", 4),
        ("cuban-2v2", 4, "double-click", 4),
        ("all-fives-100", 4, "keyboard", 4),
    ],
)
def test_one_player_against_the_computer_to_the_end_of_a_hand(
    open_page: Callable[..., Any], variant: str, players: int, how: str, seats: int
) -> None:
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    play_against_computer(page, variant, players)
    expect(page.locator(".seat")).to_have_count(seats)
    expect(page.locator("#my-hand .my-tile").first).to_be_visible()
    play_hand(page, how)
    # Every hand's tiles are shown, and the sheet has the hand's row.
    expect(page.locator("#revealed .revealed__seat")).to_have_count(seats)
    expect(page.locator("#sheet tbody tr")).to_have_count(2)
    assert page.locator("#announcer p").count() > 0
    # Regression: each seat's revealed tiles carried a label on a bare span (aria-prohibited-attr).
    assert_accessible(page)
    # The deal's key is revealed: the browser checks it against the commitment and the tiles.
    page.locator("[data-verify]").first.click()
    expect(page.locator("#verify-result")).to_have_text(
        "Verificado: la clave coincide con el compromiso y reparte exactamente estas fichas."
    )


def test_a_reload_in_the_middle_of_a_hand_replays_it_and_carries_on(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    for _ in range(2):
        page.locator("#my-hand .my-tile--playable").first.wait_for()
        play_one(page, "keyboard")
    on_table = page.locator("#line .domino").count()
    held = page.locator("#my-hand .my-tile").count()
    page.reload()
    # The hand is laid again tile by tile, then the table is exactly as it was.
    page.wait_for_selector("#table-page[data-replaying=true]")
    page.wait_for_selector("#table-page[data-replaying=false]")
    assert page.locator("#line .domino").count() >= on_table
    assert page.locator("#my-hand .my-tile").count() == held
    expect(page.locator("#announcer")).to_contain_text("Repitiendo la mano")
    play_hand(page, "keyboard")
    expect(page.locator("#revealed .revealed__seat")).to_have_count(4)


def test_the_connection_banner_when_the_socket_drops_and_comes_back(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page()
    sockets: list[Any] = []

    def through(route: Any) -> None:
        # The page's socket passes through the test, which can cut it like a dropped network.
        sockets.append(route)
        route.connect_to_server()

    # Any page's socket (a table page connects to /ws/?lobby=0).
    page.route_web_socket(re.compile(r"/ws/(\?.*)?$"), through)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-hands")
    page.locator("#my-hand .my-tile--playable").first.wait_for()
    sockets[-1].close(code=4000, reason="cut")
    expect(page.locator("#connection-banner")).to_have_text("Se perdió la conexión; reintentando…")
    expect(page.locator("#connection-banner")).to_have_text("Conectado de nuevo.")
    # Back at the table: the game goes on to the end of the hand, and the sheet of "juegos
    # ganados" shows either a hand won (20) or a "C" for a block.
    play_hand(page, "keyboard")
    sheet = page.locator("#sheet").inner_text()
    # (The hand's and the match's result dialogs copy the sheet's marks: read the sheet's own.)
    assert "20" in sheet or "C" in "".join(page.locator("#sheet .sheet__marks").all_inner_texts())


def test_after_a_hand_the_player_sees_what_their_plays_cost(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    play_against_computer(page, "amigos-100")
    play_hand(page, "keyboard")
    pattern = re.compile(r"^/mesas/\d+/partida/1/mano/1/repaso/$")
    # The hand's end offers the review; the score sheet keeps a link for every hand that ended.
    expect(page.locator("#hand-review")).to_have_attribute("href", pattern)
    page.click("#tab-sheet")  # on a phone the score sheet is a tab of its own
    link = page.locator("#sheet a.sheet__review").first
    expect(link).to_have_attribute("href", pattern)
    expect(link).to_contain_text("cuánto me costaron mis jugadas en la mano 1")
    with page.context.expect_page() as opened:
        link.click()
    review = opened.value  # a new tab: the table goes on in the first one
    expect(review.locator("h1")).to_have_text("¿Cuánto me costaron mis jugadas?")
    review.get_by_role("button", name="Revisar mis jugadas").click()
    # The solver values every turn with a choice in the background; the page follows its progress.
    done = review.locator("table.grid, p:has-text('ninguna decisión')").first
    expect(done).to_be_visible(timeout=90_000)
    assert_accessible(review)
    expect(page.locator("#table-page")).to_be_visible()
