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


def administrator() -> Any:
    """Jefa, who may use the admin and its desk."""
    admin = player("Jefa")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    return admin


def open_the_desk(page: Any) -> None:
    """Sign in to the admin as Jefa and land on the list of reports."""
    page.goto("/admin/login/?next=/admin/moderation/report/")
    page.fill("#id_username", "jefa@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#result_list")


def decide(page: Any, report_id: int, label: str) -> None:
    """From the list of reports, take the action ``label`` on one report."""
    page.goto("/admin/moderation/report/")
    page.check(f"input[name=_selected_action][value='{report_id}']")
    page.select_option("select[name=action]", label=label)
    page.click("button[name=index]")
    done = page.locator("text=1 reporte decidido.")
    ask = page.locator("form:has(input[name=confirmed]) input[type=submit]")
    done.or_(ask).first.wait_for()
    if ask.count():  # a decision that changes an account (blocking) asks first
        ask.click()
        done.wait_for()


def test_an_administrator_warns_a_reported_player_from_the_desk_in_spanish(
    open_page: Callable[..., Any],  # noqa: F811
) -> None:
    admin = administrator()
    ana, bruto = player("Ana"), player("Bruto")
    table = table_for(ana, bruto)
    report = services.report(
        reporter=ana, reported_id=bruto.pk, comment="me insultó", now=START, table_id=table.pk
    )
    page = open_page()
    open_the_desk(page)
    assert "Bruto" in page.inner_text("#result_list") and "me insultó" in page.inner_text("#result_list")
    decide(page, report.pk, "Advertir a los jugadores reportados")
    assert AdminMessage.objects.filter(recipient=bruto).count() == 1
    decision = Decision.objects.get()
    assert (decision.action, decision.decided_by_id) == ("warn", admin.pk)


def test_ignore_block_shorten_and_lift_from_the_desk_in_spanish(
    open_page: Callable[..., Any],  # noqa: F811
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from amigos.web.moderation.models import Suspension
    from tests.web.axe import assert_accessible

    admin = administrator()
    ana, bruto, carla = player("Ana"), player("Bruto"), player("Carla")
    table = table_for(ana, bruto, carla)
    now = timezone.now()
    harmless = services.report(
        reporter=ana, reported_id=carla.pk, comment="lenta", now=now, table_id=table.pk
    )
    rude = services.report(reporter=ana, reported_id=bruto.pk, comment="insultos", now=now, table_id=table.pk)
    page = open_page()
    open_the_desk(page)
    decide(page, harmless.pk, "Ignorar los reportes seleccionados")
    decide(page, rude.pk, "Bloquear: tarjeta roja y su suspensión")
    # Deciding an already decided report is refused, in Spanish.
    page.goto("/admin/moderation/report/")
    page.check(f"input[name=_selected_action][value='{rude.pk}']")
    page.select_option("select[name=action]", label="Ignorar los reportes seleccionados")
    page.click("button[name=index]")
    page.wait_for_selector("text=Este reporte ya fue decidido.")
    bruto.refresh_from_db()
    suspension = Suspension.objects.get(user=bruto)
    assert bruto.suspended_until == suspension.ends and suspension.cause == "red"

    # Shorten, then lift, each with its reason, from the suspension's page.
    page.goto(f"/admin/moderation/suspension/{suspension.pk}/change/")
    assert_accessible(page)
    shorter = timezone.localtime(suspension.ends - timedelta(days=20))
    page.fill("#id_new_end", shorter.strftime("%d/%m/%Y %H:%M:%S"))
    page.fill("#id_change_reason", "se disculpó")
    page.check("#id_sure")  # changing a suspension asks to be sure
    page.click("input[name=_save]")
    page.wait_for_selector("#result_list")
    suspension.refresh_from_db()
    assert abs(suspension.ends - shorter) < timedelta(seconds=1) and suspension.lifted_at is None
    page.goto(f"/admin/moderation/suspension/{suspension.pk}/change/")
    page.fill("#id_change_reason", "error nuestro")
    page.check("#id_sure")
    page.click("input[name=_save]")
    page.wait_for_selector("#result_list")
    suspension.refresh_from_db()
    bruto.refresh_from_db()
    assert suspension.lifted_at is not None and bruto.suspended_until is None
    decisions = list(Decision.objects.order_by("pk").values_list("action", "decided_by_id", "reason"))
    assert [(action, by) for action, by, _ in decisions] == [
        ("ignore", admin.pk),
        ("block", admin.pk),
        ("shorten", admin.pk),
        ("lift", admin.pk),
    ]
    assert [reason for *_, reason in decisions[2:]] == ["se disculpó", "error nuestro"]
    page.goto("/admin/moderation/decision/")
    assert "Levantar" in page.inner_text("#result_list") or "levantar" in page.inner_text("#result_list")
