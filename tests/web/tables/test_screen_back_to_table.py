"""A player who closes the table's page mid-match finds the way back from the lobby (issue 38,
item 4), in a real browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.tables.screen_support import play_against_computer, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_back_to_your_table_after_closing_the_page(open_page: Callable[..., Any]) -> None:
    player("Ana")
    page = open_page(390, 844)
    sign_in_as(page, "Ana")
    table_id = play_against_computer(page, "cuban-1v1", players=2)
    page.locator("#my-hand .my-tile").first.wait_for()
    context = page.context
    page.close()  # the page is closed, not navigated away from
    again = context.new_page()
    again.goto("/")
    back = again.locator("#own-table a")
    expect(back).to_be_visible()
    back.click()
    again.wait_for_selector("#table-page")
    assert int(again.get_attribute("#table-page", "data-table-id")) == table_id
    expect(again.locator("#own-table")).to_have_count(0)  # not on the table's own page
    expect(again.locator("#my-hand .my-tile").first).to_be_visible()
