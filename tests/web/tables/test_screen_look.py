"""The table mid-hand on a phone (390x844) and a laptop (1280x800): it fits, and axe-core finds no
serious or critical problem. The screenshots are saved for a person to look at
(AMIGOS_SCREENSHOT_DIR, or the test's temporary directory).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.axe import assert_accessible
from tests.web.tables.screen_support import play_against_computer, play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_table_mid_hand_fits_and_is_accessible(
    open_page: Callable[..., Any], tmp_path: Path, width: int, height: int
) -> None:
    player("Ana")
    page = open_page(width, height)
    sign_in_as(page, "Ana")
    play_against_computer(page, "all-fives-100" if width > 1000 else "amigos-100")
    for _ in range(3):
        expect(page.locator("#my-hand .my-tile--playable").first).to_be_visible()
        play_one(page, "keyboard")
    expect(page.locator("#line .domino")).not_to_have_count(0)
    folder = Path(os.environ.get("AMIGOS_SCREENSHOT_DIR", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"table-{width}x{height}.png"), full_page=True)
    # Nothing sticks out sideways: no horizontal scrolling on the phone or the laptop.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    line_box = page.locator("#line").bounding_box()
    assert line_box["x"] >= 0 and line_box["x"] + line_box["width"] <= width
    assert page.locator("#line .domino--last").count() == 1
    assert_accessible(page)
