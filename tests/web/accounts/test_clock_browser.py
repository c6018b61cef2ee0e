"""One clock in a real Chromium: the chat's script and the page draw the same time, the player's.

Ana's account is in Havana while her browser runs on Madrid time (a laptop brought along on a
trip): the line she sends must read in Havana time when her page's script draws it, and the same
after a reload, when the server draws it. Beto, whose browser and account are both in Madrid, reads
the same line in Madrid time. A new account takes its browser's zone when it signs up.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.accounts.models import User
from amigos.web.lobby.models import ChatMessage
from tests.web.conftest import PASSWORD, ServerThread
from tests.web.test_browser import TIMEOUT_MS, chromium, sign_in_as

__all__ = ["chromium"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page_in_zone(chromium: Any, site_server: ServerThread) -> Iterator[Callable[[str], Any]]:
    """A new browser session whose clock runs in the given zone."""
    contexts: list[Any] = []

    def new_page(zone: str) -> Any:
        context = chromium.new_context(
            viewport={"width": 1280, "height": 800}, base_url=site_server.url, timezone_id=zone
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield new_page
    for context in contexts:
        context.close()


def player(name: str, zone: str = "") -> User:
    return User.objects.create_user(
        email=f"{name.lower()}@example.org", display_name=name, password=PASSWORD, time_zone=zone
    )


def hh_mm(message: ChatMessage, zone: str) -> str:
    return message.created_at.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%H:%M")


def test_the_chat_time_is_the_players_zone_in_the_script_and_on_the_page(
    page_in_zone: Callable[[str], Any],
) -> None:
    player("Ana", "America/Havana")
    player("Beto", "Europe/Madrid")
    ana, beto = page_in_zone("Europe/Madrid"), page_in_zone("Europe/Madrid")
    sign_in_as(ana, "Ana")
    sign_in_as(beto, "Beto")
    assert ana.get_attribute('meta[name="time-zone"]', "content") == "America/Havana"
    ana.fill("#chat-input", "¿Una partida?")
    ana.press("#chat-input", "Enter")
    for page in (ana, beto):
        expect(page.locator("#chat-log .chat__line")).to_contain_text("¿Una partida?")
    message = ChatMessage.objects.get(text="¿Una partida?")
    havana, madrid = hh_mm(message, "America/Havana"), hh_mm(message, "Europe/Madrid")
    assert havana != madrid
    drawn = {
        name: page.locator("#chat-log .chat__time").last.inner_text()
        for name, page in (("ana", ana), ("beto", beto))
    }
    assert drawn == {"ana": havana, "beto": madrid}
    # After a reload the server draws the line: the same time on each page.
    for page in (ana, beto):
        page.reload()
        page.wait_for_selector("#connection-state[data-state=live]")
    assert ana.locator("#chat-log .chat__time").last.inner_text() == havana
    assert beto.locator("#chat-log .chat__time").last.inner_text() == madrid
    # Signing in from a browser in another zone did not replace the zone Ana's account keeps.
    assert User.objects.get(display_name="Ana").time_zone == "America/Havana"


def test_a_new_account_takes_its_browsers_zone_and_the_settings_page_changes_it(
    page_in_zone: Callable[[str], Any],
) -> None:
    page = page_in_zone("America/Havana")
    page.goto("/accounts/sign-up/")
    page.fill("#id_display_name", "Rosa")
    page.fill("#id_email", "rosa@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#connection-state[data-state=live]")
    assert User.objects.get(display_name="Rosa").time_zone == "America/Havana"
    page.click("#site-menu .menu__list a:has-text('Ajustes')")  # the desktop menu shows its links
    expect(page.locator("#id_time_zone")).to_have_value("America/Havana")
    page.select_option("#id_time_zone", "Europe/Madrid")
    page.click("main button[type=submit]")
    expect(page.locator(".flash")).to_contain_text("Tu zona horaria está guardada")
    assert User.objects.get(display_name="Rosa").time_zone == "Europe/Madrid"
    assert page.get_attribute('meta[name="time-zone"]', "content") == "Europe/Madrid"
    # The page offers the browser's own zone back with one button.
    page.click("[data-use-browser-zone]")
    expect(page.locator("#id_time_zone")).to_have_value("America/Havana")
