"""The replay portal and the Academy in Chromium, on a phone and a laptop: step through a match,
ask the solver for the values of every play, change a play and see the hand played on by the
computer; axe-core finds nothing serious or critical."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from amigos.web.archive.models import ArchivedMatch
from amigos.web.archive.services import archive_match
from tests.web.archive.test_browser import save_screenshots
from tests.web.archive.test_statistics import suits_record
from tests.web.axe import assert_accessible
from tests.web.test_browser import player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)


def archived_match() -> int:
    ana, beto, caro, dani = (player(name) for name in ("Ana", "Beto", "Caro", "Dani"))
    archive_match(
        source="table:7:match:1",
        record=suits_record(),
        seat_user_ids=[ana.pk, beto.pk, caro.pk, dani.pk],
        table_name="Mesa del Malecón",
        started_at=START,
        ended_at=START + timedelta(minutes=40),
    )
    return ArchivedMatch.objects.get().pk


def fits(page: Any, width: int) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= width)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_step_through_value_and_change_a_play(open_page: Callable[..., Any], width: int, height: int) -> None:
    match_id = archived_match()
    page = open_page(width, height)
    sign_in_as(page, "beto@example.org")
    page.goto("/stats/replay/")
    page.click(f"a[href='/stats/replay/{match_id}/1/0/']")
    page.wait_for_selector("h2:has-text('Mano 1 · jugada 0 de 29')")
    assert page.locator(".replay__seats .chip").count() == 28  # every hand is shown
    page.click("[data-step=forward]")
    page.wait_for_selector("h2:has-text('jugada 1 de 29')")
    assert "Ana jugó 6-6." in page.locator(".replay__status").inner_text()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("h2:has-text('jugada 2 de 29')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("h2:has-text('jugada 1 de 29')")
    # A shared link opens that very position.
    page.goto(f"/stats/replay/{match_id}/1/16/")
    page.wait_for_selector("h2:has-text('jugada 16 de 29')")
    assert page.locator("svg.line-svg rect.tile").count() == 11
    assert fits(page, width)
    assert_accessible(page)
    save_screenshots(page, "replay")
    # The Academy: calculating, then the value of each of Ana's four plays; hers (6-3) cost 57.
    page.click("text=Valorar cada jugada")
    page.wait_for_selector("table.academy__values", timeout=120_000)
    rows = page.locator("table.academy__values tbody tr")
    assert rows.count() == 4
    # Moves are said in words, never in the record's notation (6-2@2).
    assert "6-2 por el 2 (la mejor)" in rows.first.inner_text()
    assert "6-3 → 57" in page.locator(".academy__played").inner_text()
    assert_accessible(page)
    save_screenshots(page, "academy")
    # Change the play: the computer players finish the hand, and it can be stepped through.
    page.click(".academy__choices a:has-text('6-2 por el 2')")
    page.wait_for_selector(".notice:has-text('Una mano cambiada')")
    assert "Ana jugó 6-2 por el 2." in page.locator(".replay__status").inner_text()
    page.click("[data-step=end]")
    page.wait_for_selector(".replay__status strong")
    assert page.locator("[data-step=forward]").count() == 0
    assert fits(page, width)
    assert_accessible(page)
    save_screenshots(page, "variation")
    # And the whole match played on from that change, beside the match as it was played.
    page.click("text=Jugar el resto de la partida desde esta mano")
    page.wait_for_selector("[data-resimulated] tbody tr")
    assert page.locator("table.grid").count() == 2
    assert fits(page, width)
    assert_accessible(page)
    save_screenshots(page, "played-on")


def test_autoplay_steps_on_its_own(open_page: Callable[..., Any]) -> None:
    match_id = archived_match()
    page = open_page(1280, 800)
    sign_in_as(page, "beto@example.org")
    page.goto(f"/stats/replay/{match_id}/1/27/")
    page.click("[data-autoplay]")
    page.wait_for_selector("h2:has-text('jugada 29 de 29')", timeout=20_000)
    # At the hand's end it stops by itself.
    page.wait_for_selector("[data-autoplay][aria-pressed=false]", timeout=20_000)
