"""The cards page, the replay and the admin, in Spanish and in English, on a phone and a laptop.

Each page is read in both languages for codes that should have been words and checked with axe;
with ``AMIGOS_SCREENSHOTS`` naming a folder, every page is also saved for a person to judge (issue
39 asks for them); no assertion depends on the pictures.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from amigos.web.accounts.models import User
from tests.web.archive.test_replay_browser import archived_match
from tests.web.axe import assert_accessible
from tests.web.test_browser import chromium, open_page, player, sign_in_as  # noqa: F401
from tests.web.test_words import _cards_for, codes_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page: Any, name: str, lang: str, width: int) -> None:
    folder = os.environ.get("AMIGOS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}-{lang}-{width}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_cards_replay_and_admin_read_in_words(
    open_page: Callable[..., Any],  # noqa: F811
    lang: str,
    width: int,
    height: int,
) -> None:
    match_id = archived_match()
    beto = User.objects.get(display_name="Beto")
    beto.is_staff = beto.is_superuser = True
    beto.save()
    _cards_for(beto, player("Eva"))
    page = open_page(width, height)
    sign_in_as(page, "beto@example.org")
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": page.url}])
    for name, url in [
        ("cards", "/moderation/cards/"),
        ("replay", f"/stats/replay/{match_id}/1/16/"),
        ("admin", "/admin/"),
        ("admin-tables", "/admin/tables/table/"),
    ]:
        page.goto(url)
        assert page.evaluate("document.documentElement.lang") == lang, url
        if not name.startswith("admin"):
            assert codes_in(page.content(), lang) == [], url
            # A wide table scrolls in its own box; the page itself never scrolls sideways.
            assert page.evaluate("document.documentElement.scrollWidth") <= width, url
        assert_accessible(page)
        shoot(page, name, lang, width)
