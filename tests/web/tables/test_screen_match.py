"""Four people in four browsers play an Amigos-100 match to its end through the screen, while a
fifth watches.

Ana creates the table from the lobby and seats the others from the online list; each accepts the
invitation on their own screen, and Ana starts the match with her button. They lay tiles by tap
(Ana, on a touch phone), double click (Beto) and keyboard (Caro and Dani); Beto reloads his page
in the middle of the first hand and carries on. Eva watches from the lobby's list of live tables:
she sees every play, and nothing that reaches her browser ever names a tile still hidden in a
hand. At the end the four choose different options, see each other's choices, and go back to the
meeting room.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.web.conftest import ServerThread
from tests.web.tables.screen_support import HAND_GUARD_SECONDS, hands_ended, play_one, player, sign_in_as
from tests.web.tables.support import FakeClock, flat_events

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

HOW = {"Ana": "tap", "Beto": "double-click", "Caro": "keyboard", "Dani": "keyboard"}


def frames_of(page: Any) -> list[dict[str, Any]]:
    """Every envelope the page's socket receives, kept in order."""
    received: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda frame: received.append(json.loads(frame)))

    page.on("websocket", on_socket)
    return received


def hidden_tiles_seen(envelope: dict[str, Any]) -> list[str]:
    """Tiles of a hand in play named in a spectator's envelope (there must be none)."""
    payload = envelope.get("payload", {})
    leaks: list[str] = []
    if envelope.get("type") == "table.snapshot":
        view = (payload.get("hand") or {}).get("view") or {}
        leaks += view.get("hand") or []
        if view.get("outcome") is None:
            leaks += [tile for hand in view.get("revealed") or [] for tile in hand]
        leaks += [entry["tile"] for entry in (payload.get("turn") or {}).get("legal") or []]
        leaks += [
            event["tile"] for event in view.get("history", []) if event["type"] == "draw" and event["tile"]
        ]
    for event in flat_events(str(envelope.get("type")), payload):
        data = event.get("data", {})
        kind = event.get("kind")
        if kind == "hand_started":
            leaks += data.get("hand") or []
        if kind == "drew" and data.get("tile"):
            leaks.append(data["tile"])
        if kind == "clock":
            leaks += [entry["tile"] for entry in data.get("legal") or []]
    return leaks


def plays(frames: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [
        (event["version"], event["data"]["tile"])
        for envelope in frames
        for event in flat_events(str(envelope.get("type")), envelope.get("payload") or {})
        if event["kind"] == "played"
    ]


def test_four_browsers_play_a_match_while_a_fifth_watches(
    chromium: Any, open_page: Callable[..., Any], screen_clock: FakeClock, site_server: ServerThread
) -> None:
    for name in ("Ana", "Beto", "Caro", "Dani", "Eva"):
        player(name)
    pages: dict[str, Any] = {}
    for name in ("Beto", "Caro", "Dani", "Eva"):
        pages[name] = open_page(390, 844) if name == "Caro" else open_page()
        sign_in_as(pages[name], name)
    # Ana plays on a touch phone: a context of her own with touch.
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, base_url=site_server.url
    )
    context.set_default_timeout(20_000)
    ana = context.new_page()
    pages["Ana"] = ana
    sign_in_as(ana, "Ana")
    ana_frames = frames_of(ana)
    eva_frames = frames_of(pages["Eva"])

    # Ana creates the table and seats the others from the online list.
    ana.click("text=Crear una mesa")
    ana.fill("#id_name", "Los del parque")
    ana.select_option("#id_variant", "amigos-100")
    ana.select_option("#id_seat_2", label="Beto")
    ana.select_option("#id_seat_3", label="Caro")
    ana.select_option("#id_seat_1", label="Dani")
    ana.click("main button[type=submit]")
    ana.wait_for_selector("#table-page")
    expect(ana.locator("#start-box")).to_be_visible()

    # Eva finds it in the lobby's list of live tables and watches.
    eva = pages["Eva"]
    eva.goto("/")  # the list as the lobby page draws it (the socket keeps it fresh afterwards)
    eva.locator("#live-tables a", has_text="Los del parque").click()
    eva.wait_for_selector("#table-page[data-join-as=spectator]")
    assert eva.locator("#my-hand").count() == 0 and eva.locator("#table-chat-form").count() == 0

    for name in ("Beto", "Caro", "Dani"):
        page = pages[name]
        dialog = page.locator("#invite-dialog[open]")
        try:
            dialog.wait_for(timeout=5000)
        except PlaywrightTimeout:
            # The invitation also comes with the lobby's list when the page (re)connects.
            page.goto("/")
        expect(dialog).to_contain_text("Ana te invita a «Los del parque»")
        expect(page.locator("#invite-clock")).to_contain_text("segundos para responder")
        dialog.locator("button[value=accept]").click()
        page.wait_for_selector("#table-page[data-join-as=seat]")
    # Everyone has accepted: the others wait for Ana, who starts the match with her button.
    expect(pages["Beto"].locator("#start-state")).to_contain_text("Esperando a que Ana empiece la partida")
    expect(ana.locator("#start-match")).to_be_enabled()
    ana.locator("#start-match").tap()
    players = {name: pages[name] for name in ("Ana", "Beto", "Caro", "Dani")}
    for page in players.values():
        expect(page.locator("#my-hand .my-tile")).to_have_count(7)

    reloaded = False
    laid = {name: 0 for name in players}
    deadline = time.monotonic() + 10 * HAND_GUARD_SECONDS
    while not all(page.locator("#votes[open]").count() for page in players.values()):
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for name, page in players.items():
            if play_one(page, HOW[name]):
                laid[name] += 1
                moved = True
                if name == "Beto" and laid[name] == 2 and not reloaded:
                    page.reload()
                    page.wait_for_selector("#table-page[data-replaying=false]")
                    reloaded = True
                    expect(page.locator("#line .domino")).to_have_count(ana.locator("#line .domino").count())
        if not moved:
            ana.wait_for_timeout(50)
    assert reloaded and all(laid.values())
    assert hands_ended(ana) >= 1

    # The final sheet: the winners are written with exactly the target.
    totals = ana.locator("#sheet .sheet__totals td").all_inner_texts()
    assert "100" in totals

    # Everything the spectator received: every play, and never a hidden tile.
    assert [leak for envelope in eva_frames for leak in hidden_tiles_seen(envelope)] == []
    assert plays(eva_frames) == plays(ana_frames)
    assert len(plays(eva_frames)) >= 20

    # Different choices: each sees the others' choices, then everyone goes to the meeting room.
    players["Ana"].click("[data-vote=rematch]")
    # Each votes once the table they see is current (a vote on an older version is refused).
    expect(players["Beto"].locator("#vote-list")).to_contain_text("Ana: Revancha")
    players["Beto"].click("[data-vote=rematch]")
    expect(players["Caro"].locator("#vote-list")).to_contain_text("Ana: Revancha")
    expect(players["Caro"].locator("#vote-list")).to_contain_text("Beto: Revancha")
    players["Caro"].click("[data-vote=rotate]")
    expect(players["Dani"].locator("#vote-list")).to_contain_text("Caro: Rotar")
    players["Dani"].click("[data-vote=communicate]")
    for page in players.values():
        page.wait_for_url("**/", timeout=20_000)
        page.wait_for_selector("#connection-state[data-state=live]")
    context.close()
