"""The statistics page in Chromium on a phone and a laptop: it reads, opens a match's hands, and
axe-core finds nothing serious or critical."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from amigos.web.archive.services import archive_match
from tests.web.archive.records import record_obj
from tests.web.archive.test_statistics import suits_record
from tests.web.test_browser import player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = datetime(2026, 5, 2, 18, 0, tzinfo=UTC)
PHONE = (390, 844)
DESKTOP = (1280, 800)


def serious_findings(page: Any) -> list[str]:
    results = Axe().run(page, options={"resultTypes": ["violations"]})
    return [
        f"{violation['id']}: {[node['target'] for node in violation['nodes']][:3]}"
        for violation in results.response["violations"]
        if violation.get("impact") in ("serious", "critical")
    ]


def save_screenshots(page: Any, name: str) -> None:
    """With AMIGOS_SCREENSHOTS=DIR, keep the page in slices a person can look at."""
    shots = os.environ.get("AMIGOS_SCREENSHOTS")
    if not shots:
        return
    Path(shots).mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    total = page.evaluate("document.documentElement.scrollHeight")
    for index, top in enumerate(range(0, min(total, 4000), 900)):
        clip = {"x": 0, "y": top, "width": width, "height": min(900, total - top)}
        page.screenshot(path=f"{shots}/{name}-{width}-{index}.png", full_page=True, clip=clip)


def fill_archive() -> None:
    ana, beto, caro, dani = (player(name) for name in ("Ana", "Beto", "Caro", "Dani"))
    seats = [ana.pk, beto.pk, caro.pk, dani.pk]
    for number in range(6):
        archive_match(
            source=f"table:1:match:{number}",
            record=record_obj(("amigos-100", "amigos-200", "amigos-hands")[number % 3], seed=40 + number),
            seat_user_ids=seats if number % 2 else [beto.pk, caro.pk, dani.pk, ana.pk],
            table_name=f"Mesa {number + 1}",
            started_at=START + timedelta(hours=number),
            ended_at=START + timedelta(hours=number, minutes=35),
        )
    archive_match(
        source="table:1:match:99",
        record=suits_record(),
        seat_user_ids=seats,
        table_name="Mesa del Malecón",
        started_at=START + timedelta(days=1),
        ended_at=START + timedelta(days=1, minutes=40),
    )
    archive_match(
        source="table:2:match:1",
        record=record_obj("cuban-2v2", seed=3),
        seat_user_ids=seats,
        table_name="La Habana",
        started_at=START + timedelta(days=2),
        ended_at=START + timedelta(days=2, hours=1),
    )


@pytest.mark.parametrize(("width", "height"), [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_statistics_page(open_page: Callable[..., Any], width: int, height: int) -> None:
    fill_archive()
    page = open_page(width, height)
    sign_in_as(page, "beto@example.org")
    toggle = page.locator("#site-menu > summary")
    if toggle.is_visible():  # a phone: the menu is folded behind its toggle
        toggle.click()
    page.click("#site-menu >> text=Estadísticas")
    page.wait_for_selector("h1:has-text('Tus estadísticas')")
    assert page.locator(".match").count() == 8
    assert page.locator("svg.graph .graph__dot").count() == 7  # the Cuban match is not rated
    # The Malecón match opens on its hands, Beto's own row first.
    malecon = page.locator(".match", has_text="Mesa del Malecón")
    malecon.locator("summary").click()
    first_row = malecon.locator("tbody.hand").first.locator("tr").first
    assert "Beto" in first_row.inner_text() and "53" in first_row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sticks out
    assert serious_findings(page) == []
    save_screenshots(page, "stats")
    # Keyboard: the summary of the next match is reachable and opens with Enter.
    other = page.locator(".match summary").last
    other.focus()
    page.keyboard.press("Enter")
    assert page.locator(".match details").last.get_attribute("open") is not None


def test_another_players_profile(open_page: Callable[..., Any]) -> None:
    fill_archive()
    page = open_page(*PHONE)
    sign_in_as(page, "ana@example.org")
    from amigos.web.accounts.models import User

    page.goto(f"/stats/{User.objects.get(display_name='Beto').pk}/")
    page.wait_for_selector("h1:has-text('Estadísticas de Beto')")
    assert page.locator(".match").count() == 0 and page.locator("svg.graph").count() == 0
    assert serious_findings(page) == []
    save_screenshots(page, "profile")
