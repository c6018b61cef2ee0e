"""The site in a real Chromium (Playwright) against a live server: what a player actually sees."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.accounts.models import User
from amigos.web.lobby import notices
from tests.web.conftest import PASSWORD, ServerThread, in_ci

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 20_000
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if in_ci():
            pytest.fail(f"browser tests need {CHROMIUM} under CI")
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, which makes Django refuse
    # ORM calls from the test body; the test body is plain synchronous code, so that guard is moot.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def open_page(chromium: Any, site_server: ServerThread, settings: Any) -> Iterator[Callable[..., Any]]:
    """New isolated browser sessions (each its own cookies), closed after the test.

    The pages beat every 5 s, not the test settings' 1 s: a player is dropped from the online list
    after three periods without a heartbeat written, and a written heartbeat waits for the page's
    timer, the server's once-a-second batch and a database thread. Beside a CPU hog that chain took
    over 3 s once, and a lobby test saw a just-signed-in player vanish. No browser test waits for a
    silence to end a presence (signing out and closing a socket end it without one); a test that
    needs another period sets it in its body.
    """
    settings.AMIGOS_HEARTBEAT_SECONDS = 5
    contexts: list[Any] = []

    def new_page(width: int = 1280, height: int = 800) -> Any:
        context = chromium.new_context(viewport={"width": width, "height": height}, base_url=site_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.dialogs = []
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
        page.on(
            "response",
            lambda r: console.append(f"Failed to load {r.url}: {r.status}") if r.status >= 400 else None,
        )
        return page

    console: list[str] = []
    yield new_page
    for context in contexts:
        context.close()
    # Nothing the site serves may trip its own Content-Security-Policy or fail to load.
    assert [text for text in console if "Content Security Policy" in text or "Failed to load" in text] == []


def sign_in_as(page: Any, identifier: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/sign-in/")
    page.fill("#id_username", identifier)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_selector("#connection-state[data-state=live]")


def player(name: str) -> User:
    return User.objects.create_user(email=f"{name.lower()}@example.org", display_name=name, password=PASSWORD)


def test_sign_up_lands_in_the_meeting_room(open_page: Callable[..., Any]) -> None:
    page = open_page()
    page.goto("/")
    assert "/accounts/sign-in/" in page.url
    page.click("text=¿Eres nuevo? Crea una cuenta")
    page.fill("#id_display_name", "Rosa")
    page.fill("#id_email", "rosa@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#connection-state[data-state=live]")
    assert page.inner_text("h1") == "¡Hola, Rosa!"
    assert page.inner_text("#online-players").count("Rosa") == 1


def test_sign_in_shows_the_administrators_message_first(open_page: Callable[..., Any]) -> None:
    ana = player("Ana")
    notices.send("Mantenimiento", "El domingo el sitio se detiene una hora.", recipient=ana)
    page = open_page()
    sign_in_as(page, "ana@example.org")
    notice = page.locator(".notices")
    assert "Mantenimiento" in notice.inner_text() and "una hora" in notice.inner_text()
    assert page.locator(".notices").bounding_box()["y"] < page.locator(".lobby__players").bounding_box()["y"]
    page.click("text=Marcar como leído")
    page.wait_for_selector("#connection-state[data-state=live]")
    assert page.locator(".notices").count() == 0


def test_two_players_see_each_other_and_chat_as_plain_text(open_page: Callable[..., Any]) -> None:
    player("Ana")
    player("Beto")
    ana, beto = open_page(), open_page(360, 740)  # Beto is on a phone
    sign_in_as(ana, "Ana")
    sign_in_as(beto, "beto@example.org")
    for page in (ana, beto):
        expect(page.locator("#online-players .player")).to_have_count(2)
    assert ana.locator("#online-players .player__name").all_inner_texts() == ["Ana", "Beto"]
    assert "sin clasificar" in ana.inner_text("#online-players")

    hostile = "<script>alert('xss')</script><img src=x onerror=alert(1)> ¡Hola!"
    beto.fill("#chat-input", hostile)
    beto.press("#chat-input", "Enter")
    line = ana.locator("#chat-log .chat__line").filter(has_text="¡Hola!")
    line.locator(".chat__text").wait_for()
    assert line.locator(".chat__text").inner_text() == hostile
    assert line.locator("script, img").count() == 0
    # Beto's box empties when the server acknowledges the line, which may reach Ana's page first.
    expect(beto.locator("#chat-input")).to_have_value("")
    ana.fill("#chat-input", "¡Vamos a jugar!")
    ana.click("#chat-form button")
    expect(beto.locator("#chat-log")).to_contain_text("¡Vamos a jugar!")
    assert ana.dialogs == [] and beto.dialogs == []

    # Ana reports Beto's message through the dialog.
    line.locator(".chat__report").click()
    ana.fill("#report-comment", "no es amable")
    ana.click("#report-dialog button[value=report]")
    expect(ana.locator("#chat-feedback")).to_contain_text("administradores")


def test_inactivity_signs_the_player_out(open_page: Callable[..., Any], settings: Any) -> None:
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    settings.AMIGOS_IDLE_TIMEOUT_SECONDS = 1  # read by the socket's watchdog on its next look
    page.wait_for_url("**/accounts/sign-in/?ended=idle")
    assert "inactividad" in page.inner_text("main")
    page.goto("/")
    assert "/accounts/sign-in/" in page.url


def test_the_page_in_spanish_and_in_english(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(360, 740)
    sign_in_as(page, "Ana")
    assert page.get_attribute("html", "lang") == "es"
    assert "Jugadores en línea" in page.inner_text("main")
    page.click("#site-menu > summary")  # on a phone the language switch is inside the menu
    page.click("button[name=language][value=en]")
    page.wait_for_selector("#connection-state[data-state=live]")
    assert page.get_attribute("html", "lang") == "en"
    assert "Players online" in page.inner_text("main") and "not yet rated" in page.inner_text("main")
    assert page.inner_text("#connection-state") == "Live"


def test_presence_of_a_player_who_leaves_disappears(open_page: Callable[..., Any], settings: Any) -> None:
    player("Ana")
    player("Beto")
    ana, beto = open_page(), open_page()
    sign_in_as(ana, "Ana")
    sign_in_as(beto, "Beto")
    expect(ana.locator("#online-players .player")).to_have_count(2)
    beto.click("text=Salir")
    beto.wait_for_url("**/accounts/sign-in/")
    expect(ana.locator("#online-players .player")).to_have_count(1)
    assert ana.locator("#online-players .player__name").all_inner_texts() == ["Ana"]


def test_the_lobby_on_a_phone_has_no_serious_accessibility_finding(open_page: Callable[..., Any]) -> None:
    from axe_playwright_python.sync_playwright import Axe

    player("Ana")
    player("Beto")
    beto = open_page()
    sign_in_as(beto, "Beto")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    expect(page.locator("#online-players .player")).to_have_count(2)
    assert page.locator("#online-players .player__name").all_inner_texts() == ["Ana", "Beto"]
    page.fill("#player-search", "bet")
    expect(page.locator("#online-players .player")).to_have_count(1)
    page.fill("#player-search", "nadie así")
    expect(page.locator("#online-players .players__empty")).to_have_count(1)
    page.fill("#player-search", "")
    expect(page.locator("#online-players .player")).to_have_count(2)
    results = Axe().run(page)
    serious = [
        (v["id"], [node["target"] for node in v["nodes"]])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    page.screenshot(path=os.environ.get("AMIGOS_SCREENSHOT", "/tmp/amigos-lobby-phone.png"), full_page=True)


def header_rows(page: Any) -> set[float]:
    """The distinct vertical centres of what the header shows: one value means one row."""
    shown = page.locator("#site-menu > summary:visible, #site-menu .menu__list > li:visible").all()
    boxes = [page.locator(".brand").bounding_box(), *(item.bounding_box() for item in shown)]
    return {round(box["y"] + box["height"] / 2) for box in boxes if box is not None and box["width"] > 0}


@pytest.mark.parametrize("width", [360, 390])
def test_the_phone_menu_is_one_row_and_opens_by_keyboard(open_page: Callable[..., Any], width: int) -> None:
    player("Ana")
    page = open_page(width, 844)
    sign_in_as(page, "Ana")
    toggle = page.locator("#site-menu > summary")
    links = page.locator("#site-menu .menu__list a")
    assert toggle.is_visible() and not links.first.is_visible()
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 72, header  # one row: the tile, the name and "Menú"
    assert len(header_rows(page)) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # the site's name
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    expect(links.first).to_be_visible()
    assert links.all_inner_texts()[:3] == ["Sala de Reunión", "Juegos recreativos", "Estadísticas"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Sala de Reunión"
    page.keyboard.press("Escape")
    expect(links.first).to_be_hidden()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

    page.keyboard.press("Enter")
    expect(links.first).to_be_visible()
    page.mouse.click(width / 2, 830)  # a tap on the page below the open menu closes it
    expect(links.first).to_be_hidden()


def test_the_desktop_menu_shows_every_link_in_the_header_row(open_page: Callable[..., Any]) -> None:
    ana = player("Ana")  # staff with an unread message: the longest menu there is
    ana.is_staff = True
    ana.save()
    notices.send("Aviso", "Hola.", recipient=ana)
    page = open_page(1280, 800)
    sign_in_as(page, "Ana")
    assert not page.locator("#site-menu > summary").is_visible()
    links = page.locator("#site-menu .menu__list a")
    assert links.all_inner_texts() == [
        "Sala de Reunión",
        "Juegos recreativos",
        "Estadísticas",
        "Mensajes 1\nsin leer",  # the count is read out as "1 sin leer"
        "Ajustes",
        "Administración",
    ]
    assert all(link.is_visible() for link in links.all())
    assert len(header_rows(page)) == 1
    assert page.locator("button[name=language][value=en]").is_visible()


def test_the_menu_works_without_javascript(chromium: Any, site_server: ServerThread) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_server.url}/accounts/sign-in/")
        links = page.locator("#site-menu .menu__list a")
        assert not links.first.is_visible()
        page.click("#site-menu > summary")
        assert links.all_inner_texts() == ["Ingresar", "Registrarse"] and links.first.is_visible()
    finally:
        context.close()


def test_the_players_who_sat_with_me_come_first_in_the_online_list(open_page: Callable[..., Any]) -> None:
    """With thousands online nobody reads the whole list: after the player come the players of their
    latest tables (the platform has no friends list), whatever their status or arrival."""
    from django.utils import timezone

    from amigos.web.tables.models import Seat, Table

    ana, _carla, beto = player("Ana"), player("Carla"), player("Beto")
    table = Table.objects.create(
        name="Mesa",
        variant="amigos-100",
        players=4,
        organizer=ana,
        status="finished",
        created_at=timezone.now(),
    )
    for number, user in enumerate([ana, None, beto, None]):
        Seat.objects.create(
            table=table, number=number, user=user, level="" if user else "easy", invitation="accepted"
        )
    pages = {name: open_page() for name in ("Carla", "Beto", "Ana")}  # Carla arrives first, Ana last
    for name, page in pages.items():
        sign_in_as(page, name)
    ana_page = pages["Ana"]
    expect(ana_page.locator("#online-players .player")).to_have_count(3)
    assert ana_page.locator("#online-players .player__name").all_inner_texts() == ["Ana", "Beto", "Carla"]
    assert ana_page.locator("#online-players .player--companion .player__companion").all_inner_texts() == [
        "jugó contigo"
    ]
    # Carla never sat with anybody: her list keeps the usual order (arrival).
    carla_names = pages["Carla"].locator("#online-players .player__name")
    expect(carla_names).to_have_count(3)
    assert carla_names.all_inner_texts() == ["Carla", "Beto", "Ana"]
