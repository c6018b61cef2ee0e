"""axe-core over the events pages the site-wide check does not reach: the players' form, an imported
draft, a sheet with hands and the organizer's opened confirmations, juegos ganados, and the phone
standings with a row's details open. Serious and critical findings fail (tests/web/axe.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from amigos.web.events.models import Event
from amigos.web.events.services import tables as svc
from amigos.web.events.services.results import import_event
from amigos.web.events.services.rounds import start_event
from amigos.web.events.services.setup import EventSetup, create_event, set_players
from tests.web.axe import DESKTOP, PHONE, findings
from tests.web.test_browser import chromium, open_page, player, sign_in_as  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event(organizer: Any, target: str, players: int = 5) -> Event:
    import datetime as dt
    from decimal import Decimal

    setup = EventSetup("Recreo", "Club", dt.date(2026, 11, 21), players, target, 40, Decimal(5), True)
    event = create_event(organizer, setup)
    set_players(event, [(f"Jugadora {n} con un nombre largo", "") for n in range(2, players + 1)])
    return event


def _played(organizer: Any, target: str) -> Event:
    event = _event(organizer, target)
    start_event(event, organizer)
    match = event.matches.get(round=1, table=1)
    svc.choose_scorekeeper(organizer, match, 1, keeps_for_partner=False)
    table = svc.assignment_of(match)
    svc.confirm_attendance(organizer, match)
    svc.set_first_leader(organizer, match, table.pair_a[0], table.pair_b[0])
    for number, side in enumerate("ab", start=1):
        svc.record_hand(organizer, match, svc.HandEnd.DOMINO, side, 25, number)
    return event


@pytest.mark.parametrize("viewport", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")])
def test_the_other_events_pages_are_clean(open_page: Callable[..., Any], viewport: dict[str, int]) -> None:  # noqa: F811
    olga = player("Olga")
    page = open_page(**viewport)
    sign_in_as(page, "Olga")
    failures: list[str] = []

    def check(name: str, url: str | None = None, open_all: bool = False) -> None:
        if url:
            page.goto(url)
        if open_all:
            page.eval_on_selector_all(".ev details", "nodes => nodes.forEach(n => { n.open = true; })")
        folder = os.environ.get("AMIGOS_SCREENSHOTS")
        if folder:
            page.screenshot(path=f"{folder}/qevents-{name}-{viewport['width']}.png", full_page=True)
        failures.extend(f"{name} @ {viewport['width']}px: {f}" for f in findings(page))

    draft = _event(olga, "100")
    check("players", reverse("events:players", args=[draft.pk]))
    draft.delete()

    raw = {"format": "amigos-event/1", "name": "Importado", "players": ["A", "B", "C", "D", "E"],
           "target": 100, "results": [{"round": 1, "table": 1, "score": [100, 30]}]}  # fmt: skip
    imported = import_event(olga, json.dumps(raw))
    check("imported", reverse("events:detail", args=[imported.pk]))
    imported.delete()

    event = _played(olga, "100")
    check("table-organizer", reverse("events:table", args=[event.pk, 1, 1]), open_all=True)
    check("board-organizer", reverse("events:detail", args=[event.pk]), open_all=True)
    check("standings-open", reverse("events:standings", args=[event.pk]), open_all=True)
    event.delete()

    hands = _played(olga, "hands")
    check("table-hands", reverse("events:table", args=[hands.pk, 1, 1]))
    assert failures == [], "\n".join(failures)


def test_phone_standings_never_scroll_sideways(open_page: Callable[..., Any]) -> None:  # noqa: F811
    """Item 4: the standings needed sideways scrolling on phones and at 1280 px."""
    olga = player("Olga")
    event = _played(olga, "100")
    client = Client()
    client.force_login(olga)
    match = event.matches.get(round=1, table=1)
    svc.set_result(olga, match, (100, 40), svc.MatchEnd.TARGET, "")
    for width, height in ((390, 844), (1280, 800)):
        page = open_page(width, height)
        sign_in_as(page, "Olga")
        for name in ("events:detail", "events:standings", "events:report"):
            page.goto(reverse(name, args=[event.pk]))
            folder = os.environ.get("AMIGOS_SCREENSHOTS")
            if folder:
                page.screenshot(path=f"{folder}/qevents-fit-{name[7:]}-{width}.png", full_page=True)
            table = page.locator("[data-standings]").first
            box = table.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width, (name, width, box)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, (name, width, overflow)
        if width == 1280:
            # The printed report (A4, about 700 CSS pixels inside the margins) shows every column.
            page.emulate_media(media="print")
            page.set_viewport_size({"width": 700, "height": 1000})
            page.goto(reverse("events:report", args=[event.pk]))
            headers = page.locator("[data-standings] thead th")
            assert headers.count() == 12 and all(headers.nth(i).is_visible() for i in range(12))
            box = page.locator("[data-standings]").bounding_box()
            assert box is not None and box["x"] + box["width"] <= 700, box
        if width == 390:
            # The figures a phone leaves out are one tap away in the row.
            page.locator("[data-standings] tbody tr").first.locator("summary").click()
            assert page.locator("[data-standings] tbody tr").first.locator("dd").count() >= 5
