"""A whole 4-player event on phones: the organizer's phone and a second scorekeeper's phone.

Runs the real site (uvicorn, the test database) and drives Chromium at 390x844. The organizer
creates the event, names the players and starts it; Beto keeps the sheet of rounds 1 and 3 on his
phone, the organizer keeps round 2; every match is confirmed by the organizer; the final report
shows the winner and money that sums to zero. Beto's board refreshes by itself when the organizer
closes a table.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from amigos.web.events.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
_SHOT_COUNTER = itertools.count(1)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are still
    # plain synchronous calls, which Django would otherwise refuse next to a running loop.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    with sync_playwright() as runner:
        chromium = runner.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def phone(browser: Any, server: Any, session_key: str) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-MX")
    context.add_cookies([{"name": "sessionid", "value": session_key, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def fits_the_screen(page: Any) -> None:
    """No sideways scrolling of the page, and the main buttons are big enough for a thumb."""
    shots = os.environ.get("AMIGOS_SCREENSHOTS")
    if shots:  # for a person to look at the phone screens; never needed by the assertions
        name = re.sub(r"\W+", "-", page.url.split("/events/")[-1]).strip("-") or "home"
        page.screenshot(path=f"{shots}/events-{name}-{next(_SHOT_COUNTER)}.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"
    for button in page.locator(".ev-btn:visible").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44, (page.url, button.inner_text(), box)


def visit(page: Any, url: str) -> None:
    """Open a page on a phone whose current page may be reloading itself because the other phone
    changed the event (the live refresh); such a navigation is aborted by ours, so try again."""
    from playwright.sync_api import Error

    for attempt in range(5):
        try:
            page.goto(url)
            return
        except Error as exc:
            if "ERR_ABORTED" not in str(exc) or attempt == 4:
                raise
            page.wait_for_load_state("load")


def submit(page: Any, locator: Any) -> None:
    """Click something that posts a form and wait for the page that answers."""
    with page.expect_navigation():
        locator.click()


def post_on_sheet(page: Any, step: str, button: str) -> None:
    submit(page, page.locator(f"[data-step={step}]").get_by_role("button", name=button))


def choose(form: Any, text: str) -> None:
    form.get_by_text(text, exact=True).click()


def keep_sheet(
    page: Any, keeper_label: str, leader: str, right: str, hands: list[tuple[str, str, int | None]]
) -> None:
    """On a table's sheet: choose the scorekeeper, attendance, first leader, then the hands."""
    keeper = page.locator("[data-step=keeper]")
    choose(keeper, keeper_label)
    post_on_sheet(page, "keeper", "Confirmar anotador")
    for box in page.locator("[data-step=attendance] input[type=checkbox]").all():
        box.check()
    post_on_sheet(page, "attendance", "Los cuatro están presentes")
    page.select_option("#leader", leader)
    page.select_option("#right", right)
    post_on_sheet(page, "leader", "Guardar")
    for end, pair, points in hands:
        form = page.locator("[data-step=hand]")
        choose(form, end)
        choose(form, pair)
        if points is not None:
            form.locator("#points").fill(str(points))
        fits_the_screen(page)
        post_on_sheet(page, "hand", "Anotar mano")
    post_on_sheet(page, "confirm", "Confirmar el término de la partida")


def test_four_player_event_on_two_phones(browser: Any, site_server: Any, sign_in: Callable[..., Any]) -> None:
    ana, beto = sign_in("Ana"), sign_in("Beto")
    org = phone(browser, site_server, ana.session_key)
    keeper = phone(browser, site_server, beto.session_key)
    base = site_server.url

    # The organizer creates the event.
    visit(org, f"{base}/events/")
    fits_the_screen(org)
    org.get_by_role("link", name="Crear un juego").click()
    org.fill("#id_name", "Recreo del sábado")
    org.fill("#id_origin", "Club Roma")
    org.select_option("#id_player_count", "4")
    org.select_option("#id_target", "100")
    org.fill("#id_stake", "10")
    org.check("#id_extra_payment")
    fits_the_screen(org)
    submit(org, org.get_by_role("button", name="Continuar"))

    # Players 2..4, Beto with his e-mail so that his phone follows the event; then start.
    org.fill("#id_name_2", "Beto")
    org.fill("#id_email_2", beto.user.email)
    org.fill("#id_name_3", "Caro")
    org.fill("#id_name_4", "Dani")
    submit(org, org.get_by_role("button", name="Guardar jugadores"))
    fits_the_screen(org)
    submit(org, org.get_by_role("button", name="Iniciar el juego"))
    event = Event.objects.get(name="Recreo del sábado")
    board = f"{base}/events/{event.pk}/"
    assert org.locator("[data-round]").inner_text().startswith("Partida 1 de 3")

    # Beto's start page lists the invitation; he opens it and accepts his seat.
    visit(keeper, f"{base}/events/")
    keeper.locator("[data-invitations] a").click()
    keeper.wait_for_url(board)
    submit(keeper, keeper.locator("[data-accept]"))
    # Round 1 (1&2 v 3&4) on Beto's phone: his start page now leads to the event, his table is marked.
    visit(keeper, f"{base}/events/")
    keeper.wait_for_url(board)
    assert "tu mesa" in keeper.locator("[data-table='1']").inner_text()
    keeper.get_by_role("link", name="Abrir la plantilla").click()
    keep_sheet(keeper, "2. Beto", "1", "3", [("Dominada", "1 & 2", 60), ("Cierre empatado", "3 & 4", None),
                                            ("Cierre", "1 & 2", 52)])  # fmt: skip
    assert keeper.locator("[data-score]").inner_text() == "112–0"
    visit(keeper, board)
    keeper.locator("[data-table='1'] .ev-badge--awaiting").wait_for()
    # The organizer cannot start round 2 before closing the table; he confirms the winners.
    visit(org, board)
    assert org.locator("[data-next-round]").is_disabled()
    org.get_by_role("link", name="Abrir la plantilla").click()
    submit(org, org.locator("[data-close]"))
    # Beto's board refreshes by itself and shows the table closed.
    keeper.locator("[data-table='1'] .ev-badge--closed").wait_for()
    visit(org, board)
    submit(org, org.locator("[data-next-round]"))
    assert org.locator("[data-round]").inner_text().startswith("Partida 2 de 3")
    fits_the_screen(org)  # the board with its standings after round 1

    # Round 2 (1&3 v 4&2): the organizer keeps the sheet on his own phone; 4&2 win 105-0.
    org.get_by_role("link", name="Abrir la plantilla").click()
    keep_sheet(org, "1. Ana", "1", "4", [("Dominada", "4 & 2", 105)])
    assert org.locator("[data-sheet-state]").get_attribute("data-sheet-state") == "closed"
    visit(org, board)
    submit(org, org.locator("[data-next-round]"))

    # Round 3 (1&4 v 2&3): Beto again, 100-75 for 1&4 over several hands; the lead rotates.
    visit(keeper, board)
    keeper.get_by_role("link", name="Abrir la plantilla").click()
    choose(keeper.locator("[data-step=keeper]"), "2. Beto")
    post_on_sheet(keeper, "keeper", "Confirmar anotador")
    for box in keeper.locator("[data-step=attendance] input[type=checkbox]").all():
        box.check()
    post_on_sheet(keeper, "attendance", "Los cuatro están presentes")
    keeper.select_option("#leader", "2")
    keeper.select_option("#right", "1")
    post_on_sheet(keeper, "leader", "Guardar")
    leaders = []
    for pair, points in (("2 & 3", 75), ("1 & 4", 40), ("1 & 4", 60)):
        leaders.append(keeper.locator("[data-next-leader]").get_attribute("data-next-leader"))
        form = keeper.locator("[data-step=hand]")
        choose(form, "Dominada")
        choose(form, pair)
        form.locator("#points").fill(str(points))
        post_on_sheet(keeper, "hand", "Anotar mano")
    assert leaders == ["2", "1", "3"]
    post_on_sheet(keeper, "confirm", "Confirmar el término de la partida")
    visit(org, board)
    org.get_by_role("link", name="Abrir la plantilla").click()
    submit(org, org.locator("[data-close]"))
    visit(org, board)
    submit(org, org.get_by_role("button", name="Terminar el juego"))

    # The final report: winner, every column, money summing to zero. Players 1 and 4 end level on
    # every key and met twice as opponents (+100 and -100): the lower number ranks second.
    assert re.search(r"/report/$", org.url)
    fits_the_screen(org)
    assert "Ganador: Beto" in org.locator("[data-winner]").inner_text()
    money = [int(cell) for cell in org.locator("[data-standings] [data-money]").all_inner_texts()]
    assert money == [70, 10, 0, -80]
    players = org.locator("[data-standings] tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert players == ["2", "1", "4", "3"]
    assert org.locator("[data-money-total]").inner_text().endswith(": 0")
    visit(keeper, f"{base}/events/{event.pk}/report/")
    assert "Ganador: Beto" in keeper.locator("[data-winner]").inner_text()
