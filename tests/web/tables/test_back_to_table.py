"""A player seated at a live match sees "back to your table" on every page until the match ends
(issue 38, item 4): closing the table's page no longer leaves them only the list to watch."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from amigos.web.accounts.models import User
from amigos.web.tables import services
from amigos.web.tables.models import Status, Table

pytestmark = pytest.mark.django_db


def banner(client: Client, url: str) -> str | None:
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    if 'id="own-table"' not in page:
        return None
    return page.split('id="own-table"', 1)[1].split("</p>", 1)[0]


def test_every_page_leads_back_to_the_table_until_the_match_ends(
    make_player: Callable[..., User], client: Client
) -> None:
    ana = make_player("Ana")
    table = services.play_against_computer(user=ana, variant="cuban-1v1", level="easy")
    Table.objects.filter(pk=table.pk).update(status=Status.PLAYING)
    client.force_login(ana)
    own = reverse("tables:table", args=[table.pk])
    for url in (reverse("lobby:home"), reverse("tables:my_games"), reverse("tables:new")):
        shown = banner(client, url)
        assert shown is not None and f'href="{own}"' in shown and "Volver a tu mesa" in shown
    assert banner(client, own) is None  # not on the table's own page
    Table.objects.filter(pk=table.pk).update(status=Status.VOTING)
    assert banner(client, reverse("lobby:home")) is None


def test_a_pending_invitation_or_a_watched_table_shows_no_way_back(
    make_player: Callable[..., User], client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk})
    services.create_table(
        organizer=ana, name="Mesa", variant="cuban-1v1", seats={1: services.SeatChoice(user_id=beto.pk)}
    )
    client.force_login(beto)  # invited, not yet seated
    assert banner(client, reverse("lobby:home")) is None
    client.force_login(ana)  # the organizer sits there, waiting for the answer
    assert banner(client, reverse("lobby:home")) is not None
