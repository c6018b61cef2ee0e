"""Games with friends in a real Chromium (issue 39, item 5): Ana invites Beto, who is not online, to
a correspondence game; Beto signs in later, finds the invitation waiting (in the meeting room and in
his games), accepts; the game then waits for the move of one of them, and each one's list of games
says whose move it is."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.tables.models import Invitation, Kind, Seat, Table
from tests.web.tables.screen_support import play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_offline_friend_is_invited_signs_in_later_and_accepts(open_page: Callable[..., Any]) -> None:
    player("Ana")
    beto_account = player("Beto")
    ana = open_page()
    sign_in_as(ana, "Ana")
    ana.click("text=Partidas por correspondencia")
    ana.click("text=Invitar a un amigo a una partida por correspondencia")
    # Beto has never signed in: search him by name (without the accent or the capital).
    ana.fill("#friend-search", "bet")
    ana.press("#friend-search", "Enter")
    expect(ana.locator("[data-found]")).to_contain_text("1 jugador encontrado")
    ana.fill("#id_name", "Por carta")
    ana.select_option("#id_variant", "cuban-1v1")
    ana.select_option("#id_seat_1", label="Beto")
    ana.select_option("#id_answer_days", "3")
    ana.click("main form.form:not(.form--search) button[type=submit]")
    ana.wait_for_url("**/mesas/mis-partidas/")
    expect(ana.locator(".flash")).to_contain_text("Invitación enviada")
    expect(ana.locator(".game")).to_contain_text("Esperando que acepten los jugadores")
    table = Table.objects.get(name="Por carta")
    assert table.kind == Kind.CORRESPONDENCE
    assert Seat.objects.get(table=table, user=beto_account).invitation == Invitation.PENDING

    # Later, Beto signs in: the invitation waits for him in his games and in the meeting room.
    beto = open_page(390, 844)
    sign_in_as(beto, "Beto")
    dialog = beto.locator("#invite-dialog[open]")
    expect(dialog).to_contain_text("Ana te invita a «Por carta»")
    # Three days to answer: the dialog says until when (a day and a time), not a count of seconds.
    expect(dialog.locator("#invite-clock")).to_have_text(
        re.compile(r"^Puedes responder hasta el \d\d/\d\d/\d{4} \d\d:\d\d\.$")
    )
    beto.goto("/mesas/mis-partidas/")
    expect(beto.locator(".game")).to_contain_text("Te invitaron")
    beto.click(".game >> text=Responder")
    expect(dialog).to_contain_text("Ana te invita a «Por carta»")
    dialog.locator("button[value=accept]").click()
    beto.wait_for_selector("#table-page")
    assert Seat.objects.get(table=table, user=beto_account).invitation == Invitation.ACCEPTED
    # A turn of days: the table's clock says until when, not a count of some 259,000 seconds.
    expect(beto.locator("#clock-time")).to_have_text(re.compile(r"^hasta el \d\d/\d\d/\d{4} \d\d:\d\d$"))

    # The match is on: one of them has the move, and each one's list says whose it is.
    def turn_text(page: Any) -> str:
        page.goto("/mesas/mis-partidas/")
        return str(page.locator(".game .game__turn").inner_text())

    expect_turns = {"Te toca", "Esperando a los demás"}
    for _attempt in range(120):  # a guard only: the actor starts the match just after the last acceptance
        turns = {turn_text(ana), turn_text(beto)}
        if turns == expect_turns:
            break
        ana.wait_for_timeout(250)
    assert turns == expect_turns
    mover = ana if turn_text(ana) == "Te toca" else beto
    expect(mover.locator(".game--mine .game__deadline")).to_contain_text("Juega antes del")
    expect(mover.locator(".game--mine .game__deadline")).to_contain_text("quedan")

    # They play by turns: whoever's list says "Te toca" opens the game and lays a tile, until Beto
    # has played and the game waits for Ana again (a seat with nothing to play passes by itself,
    # so the turn may come straight back; the count is only a guard against a hang).
    beto_played = False
    for _move in range(8):
        if beto_played and turn_text(ana) == "Te toca":
            break
        page = ana if turn_text(ana) == "Te toca" else beto
        assert turn_text(page) == "Te toca"
        page.click(".game--mine .game__name")
        page.wait_for_selector("#my-hand .my-tile--playable")
        assert play_one(page, "keyboard")
        beto_played = beto_played or page is beto
    assert beto_played and turn_text(ana) == "Te toca"
    assert turn_text(beto) == "Esperando a los demás"
