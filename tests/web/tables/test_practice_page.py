"""The table page says when its cards do not count (issue 38, item 7): a table with computer players."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from amigos.web.accounts.models import User
from amigos.web.tables import services

pytestmark = pytest.mark.django_db


def test_a_table_against_the_computer_says_its_cards_do_not_count(
    make_player: Callable[..., User], client: Client
) -> None:
    ana = make_player("Ana")
    table = services.play_against_computer(user=ana, variant="amigos-100", level="easy")
    client.force_login(ana)
    page = client.get(f"/mesas/{table.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="practice-note"' in page and "no cuentan para una suspensión" in page


def test_a_table_of_people_says_nothing_of_practice(
    make_player: Callable[..., User], client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    people = [make_player(name) for name in ("Ana", "Beto", "Caro", "Dani")]
    monkeypatch.setattr(services, "_online_ids", lambda now: {user.pk for user in people})
    table = services.create_table(
        organizer=people[0],
        name="Mesa",
        variant="amigos-100",
        seats={n: services.SeatChoice(user_id=people[n].pk) for n in (1, 2, 3)},
    )
    client.force_login(people[0])
    page = client.get(f"/mesas/{table.pk}/").content.decode()
    assert "practice-note" not in page
