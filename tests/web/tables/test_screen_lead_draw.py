"""Cuban against the computer: the table screen shows the draw of set-aside tiles that chose the
first leader, reads it out to screen readers, and shows it again after a reload, in either language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.engine import deal_from_key, find_variant, new_deal_key
from amigos.table import first_lead_draw
from amigos.web.tables import actor as actor_module
from tests.web.tables.screen_support import play_against_computer, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A cuban-2v2 deal that offers nobody a new deal (a computer player would ask for one at once).
KEY = "00000001-0000-4000-8000-000000000000"


def test_the_draw_for_the_lead_is_shown_and_read_out(
    open_page: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = [KEY]
    monkeypatch.setattr(actor_module, "new_deal_key", lambda: keys.pop(0) if keys else new_deal_key())
    variant = find_variant("cuban-2v2")
    drawn = first_lead_draw(variant, deal_from_key(KEY, variant))
    assert drawn is not None and drawn.leader == 3  # Computadora Oeste leads
    tiles = [str(tile) for _, tile in drawn.draws]
    player("Ana")
    page = open_page()
    sign_in_as(page, "Ana")
    play_against_computer(page, "cuban-2v2")
    line = page.locator("#lead-draw")
    expect(line).to_be_visible()
    expect(line).to_contain_text("Sorteo de salida:")
    expect(line).to_contain_text(f"Ana (tú) {tiles[0]}")
    for tile in tiles:
        expect(line).to_contain_text(tile)
    expect(line).to_contain_text("Sale Computadora Oeste")
    expect(page.locator("#announcer")).to_contain_text("Sorteo de salida:")
    # A reload (and the language switch, which reloads): the snapshot shows the same draw.
    page.click("button[name=language][value=en]")
    page.wait_for_selector("#table-page[data-replaying=false]")
    expect(line).to_contain_text("Draw for the lead:")
    expect(line).to_contain_text(f"Ana (you) {tiles[0]}")
    expect(line).to_contain_text("Computer West")
    expect(line).to_contain_text("leads.")
