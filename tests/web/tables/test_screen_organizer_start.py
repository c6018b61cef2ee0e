"""The organizer starts the match with the keyboard once everyone has accepted (issue 38, item 4;
spec §2, the box with the game's name, the target and the start button), with two browsers: Beto,
once seated, reads that the table waits for Ana; Ana's button, disabled until then, starts the
match, and both pages then show their tiles."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.table import Timing
from amigos.web.tables import registry
from tests.web.conftest import ServerThread
from tests.web.tables.screen_support import player, sign_in_as
from tests.web.tables.support import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_and_waiting(open_page: Callable[..., Any]) -> tuple[Any, Any]:
    """Ana's Cuban 1v1 table, Beto invited and accepting: the pages of both, the table waiting."""
    player("Ana")
    player("Beto")
    beto = open_page()
    sign_in_as(beto, "Beto")
    ana = open_page(390, 844)
    sign_in_as(ana, "Ana")
    ana.click("text=Crear una mesa")
    ana.fill("#id_name", "La del sábado")
    ana.select_option("#id_variant", "cuban-1v1")
    ana.select_option("#id_seat_1", label="Beto")
    ana.click("main button[type=submit]")
    ana.wait_for_selector("#table-page")
    dialog = beto.locator("#invite-dialog[open]")
    expect(dialog).to_contain_text("Ana te invita a «La del sábado»")
    return ana, beto


def test_the_organizer_starts_with_the_keyboard_and_the_other_waits_then_plays(
    open_page: Callable[..., Any], screen_clock: FakeClock
) -> None:
    ana, beto = seated_and_waiting(open_page)
    box = ana.locator("#start-box")
    expect(box).to_be_visible()
    expect(box.locator("#start-title")).to_have_text("La del sábado")
    expect(box).to_contain_text("Meta")
    # Until Beto answers the button cannot start anything, and the box says why.
    expect(ana.locator("#start-match")).to_be_disabled()
    expect(ana.locator("#start-state")).to_contain_text("cuando todos los invitados hayan aceptado")

    beto.locator("#invite-dialog[open] button[value=accept]").click()
    beto.wait_for_selector("#table-page[data-join-as=seat]")
    # Beto is seated and waits: no tiles yet, and the box tells him for whom.
    expect(beto.locator("#start-state")).to_have_text("Esperando a que Ana empiece la partida.")
    expect(beto.locator("#start-match")).to_have_count(0)  # only the organizer has the button
    expect(beto.locator("#my-hand .my-tile")).to_have_count(0)
    assert beto.locator("#start-state").get_attribute("role") == "status"  # read out when it changes

    # Ana's box lists Beto as accepted; her button is enabled and in the tab order.
    button = ana.locator("#start-match")
    expect(button).to_be_enabled()
    expect(ana.locator("#start-state")).to_contain_text("Todos aceptaron")
    expect(ana.locator("#invitation-list")).to_contain_text("Beto")
    expect(ana.locator("#invitation-list")).not_to_contain_text("invitado")
    assert button.get_attribute("tabindex") in (None, "0")
    ana.locator("#cancel-table").focus()
    ana.keyboard.press("Shift+Tab")  # from the cancel button back to the start button
    expect(button).to_be_focused()
    ana.keyboard.press("Enter")

    for page in (ana, beto):
        expect(page.locator("#start-box")).to_be_hidden()
        expect(page.locator("#my-hand .my-tile").first).to_be_visible()


def test_a_match_nobody_starts_in_time_sends_both_back_to_the_meeting_room(
    open_page: Callable[..., Any], screen_clock: FakeClock, site_server: ServerThread
) -> None:
    ana, beto = seated_and_waiting(open_page)
    beto.locator("#invite-dialog[open] button[value=accept]").click()
    beto.wait_for_selector("#table-page[data-join-as=seat]")
    expect(ana.locator("#start-match")).to_be_enabled()
    expect(beto.locator("#start-state")).to_contain_text("Esperando a que Ana")  # his page has joined
    table_id = int(ana.locator("#table-page").get_attribute("data-table-id") or "0")
    screen_clock.advance(Timing().invitation)

    async def fire() -> None:
        actor = registry.local_actor(table_id)
        assert actor is not None
        await actor.fire_deadline()

    asyncio.run_coroutine_threadsafe(fire(), site_server.loop).result(10)
    for page in (ana, beto):
        expect(page.locator("#play-feedback")).to_contain_text("no empezó la partida a tiempo")
        page.wait_for_url("**/", timeout=15_000)
