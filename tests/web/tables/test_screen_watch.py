"""A spectator watches a live table: every play reaches the screen, no hidden tile ever does, and
there is no way to write to the players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.tables.screen_support import hands_ended, play_against_computer, play_hand, player, sign_in_as
from tests.web.tables.test_screen_match import frames_of, hidden_tiles_seen, plays

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_spectator_sees_every_play_and_no_hidden_tile(open_page: Callable[..., Any]) -> None:
    player("Ana")
    player("Eva")
    ana, eva = open_page(), open_page(390, 844)
    ana_frames, eva_frames = frames_of(ana), frames_of(eva)
    sign_in_as(ana, "Ana")
    sign_in_as(eva, "Eva")
    table_id = play_against_computer(ana, "all-fives-100")
    # Eva finds the table in the lobby's list and opens it.
    eva.goto("/")
    eva.locator(f'#live-tables [data-table-id="{table_id}"] a').click()
    eva.wait_for_selector("#table-page[data-join-as=spectator]")
    assert eva.locator("#my-hand").count() == 0
    assert eva.locator("#table-chat-form, #table-chat-input").count() == 0
    expect(eva.locator("#table-page")).to_contain_text("Estás mirando esta mesa.")

    play_hand(ana, "keyboard")
    expect(eva.locator("#table-page")).to_have_attribute("data-hands-ended", str(hands_ended(ana)))
    # The same plays, in the same order, on both screens' sockets; none of Eva's envelopes names a
    # tile that was still hidden in someone's hand.
    watched = plays(eva_frames)
    assert watched and watched == [play for play in plays(ana_frames) if play[0] >= watched[0][0]]
    assert [leak for envelope in eva_frames for leak in hidden_tiles_seen(envelope)] == []
    assert any(hidden_tiles_seen(envelope) for envelope in ana_frames)  # the check does see a hand
    # Once the hand is over everyone's tiles are public, on Eva's screen too.
    expect(eva.locator("#revealed .revealed__seat")).to_have_count(4)
