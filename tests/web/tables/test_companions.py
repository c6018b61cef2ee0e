"""Who played with whom: the lobby lists these players right after the player."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from amigos.web.accounts.models import User
from amigos.web.tables.models import Table
from amigos.web.tables.selectors import companions
from tests.web.conftest import SignedIn
from tests.web.tables.support import stored_table

pytestmark = pytest.mark.django_db

AT = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)


def table(seated: list[User | None], *, accepted: bool = True) -> Table:
    return stored_table(seated, AT, accepted=accepted)


def test_companions_are_the_accepted_players_of_my_latest_tables_most_recent_first(
    make_player: Callable[..., User],
) -> None:
    ana, beto, carla, dani, eva = (make_player(name) for name in ("Ana", "Beto", "Carla", "Dani", "Eva"))
    table([ana, beto, None, carla])
    table([dani, ana, beto, None])
    table([eva, None, ana, None], accepted=False)  # Ana never accepted: Eva never played with her
    table([beto, carla, None, None])  # not Ana's table
    assert companions(ana.pk) == [dani.pk, beto.pk, carla.pk]
    assert companions(ana.pk, tables=1) == [dani.pk, beto.pk]
    assert companions(eva.pk) == []


def test_the_lobby_page_carries_my_companions(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    beto = make_player("Beto")
    table([ana.user, beto, None, None])
    page = ana.client.get("/").content.decode()
    assert 'id="table-companions"' in page and f'"ids": [{beto.pk}]' in page and "jug\\u00f3 contigo" in page
