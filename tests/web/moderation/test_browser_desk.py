"""The administrators' desk in a real Chromium, in Spanish: a report is decided with a warning."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from amigos.web.lobby.models import AdminMessage
from amigos.web.moderation import services
from amigos.web.moderation.models import Decision
from tests.web.conftest import PASSWORD
from tests.web.moderation.support import START, table_for
from tests.web.test_browser import chromium, open_page, player  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_administrator_warns_a_reported_player_from_the_desk_in_spanish(
    open_page: Callable[..., Any],  # noqa: F811
) -> None:
    admin = player("Jefa")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    ana, bruto = player("Ana"), player("Bruto")
    table = table_for(ana, bruto)
    report = services.report(
        reporter=ana, reported_id=bruto.pk, comment="me insultó", now=START, table_id=table.pk
    )
    page = open_page()
    page.goto("/admin/login/?next=/admin/moderation/report/")
    page.fill("#id_username", "jefa@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#result_list")
    assert "Bruto" in page.inner_text("#result_list") and "me insultó" in page.inner_text("#result_list")
    page.check(f"input[name=_selected_action][value='{report.pk}']")
    page.select_option("select[name=action]", label="Advertir a los jugadores reportados")
    page.click("button[name=index]")
    page.wait_for_selector("text=1 reportes decididos.")
    assert AdminMessage.objects.filter(recipient=bruto).count() == 1
    decision = Decision.objects.get()
    assert (decision.action, decision.decided_by_id) == ("warn", admin.pk)
