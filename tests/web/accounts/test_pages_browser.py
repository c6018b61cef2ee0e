"""The account pages in Chromium: verifying an address from the mailed link, refused names, and the
invitation on an event's board, on a phone and a laptop, with no serious axe-core finding."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.events.services.setup import EventSetup, create_event, set_players
from tests.web.axe import DESKTOP, PHONE, assert_accessible
from tests.web.conftest import PASSWORD
from tests.web.test_browser import chromium, open_page, sign_in_as  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [pytest.param(PHONE, id="phone-390x844"), pytest.param(DESKTOP, id="desktop-1280x800")]


def fits(page: Any) -> None:
    """Nothing wider than the screen (a phone must not scroll sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_sign_up_then_verify_from_the_mailed_link(
    open_page: Callable[..., Any],  # noqa: F811
    viewport: dict[str, int],
) -> None:
    page = open_page(**viewport)
    page.goto("/accounts/sign-up/")
    # A name with a right-to-left override is refused, with the reason next to the field.
    page.fill("#id_display_name", "\u202eanaL")
    page.fill("#id_email", "lucia@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert "invisible" in page.locator(".field--error").first.inner_text()
    assert_accessible(page)
    page.fill("#id_display_name", "Lucía")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#connection-state[data-state=live]")
    assert "lucia@example.org" in page.content()  # the notice says where the link went

    page.goto("/accounts/email/")
    assert page.locator("[data-email-state=unverified]").is_visible()
    fits(page)
    assert_accessible(page)

    found = re.search(r"https?://[^/\s]+(/accounts/email/verify/\S+/)", mail.outbox[-1].body)
    assert found is not None
    page.goto(found.group(1))
    fits(page)
    assert_accessible(page)
    page.get_by_role("button", name="Verificar mi dirección").click()
    page.wait_for_selector("[data-email-state=verified]")
    assert User.objects.get(email="lucia@example.org").email_verified_at is not None


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_invited_player_accepts_from_the_board(
    open_page: Callable[..., Any],  # noqa: F811
    viewport: dict[str, int],
) -> None:
    now = timezone.now()
    ana = User.objects.create_user(
        email="ana@example.org", display_name="Ana", password=PASSWORD, email_verified_at=now
    )
    User.objects.create_user(
        email="carla@example.org", display_name="Carla", password=PASSWORD, email_verified_at=now
    )
    event = create_event(
        ana,
        EventSetup(
            "Recreo del sábado", "Club Roma", dt.date(2026, 11, 21), 4, "100", None, Decimal(0), False
        ),
    )
    set_players(event, [("Carla", "carla@example.org"), ("Beto", ""), ("Dani", "")])
    page = open_page(**viewport)
    sign_in_as(page, "Carla")
    page.goto("/events/")
    page.locator("[data-invitations] a").click()
    page.wait_for_selector("[data-invitation='2']")
    fits(page)
    assert_accessible(page)
    page.locator("[data-accept]").click()
    page.wait_for_selector("[data-leave]")
    assert event.players.get(number=2).user is not None
    page.locator("[data-leave]").click()
    page.wait_for_url("**/events/")
    assert event.players.get(number=2).user is None
    assert_accessible(page)
