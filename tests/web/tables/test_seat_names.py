"""Computer players named by seat and level (issue 38, item 5), the same on the seats, in the
lobby's list, and in the match's record (from which the sheet and the archive take the names)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from amigos.web.accounts.models import User
from amigos.web.tables import registry
from amigos.web.tables.models import Status, Table
from amigos.web.tables.seat_names import computer_name
from amigos.web.tables.selectors import live_tables
from tests.web.tables.test_actor import against_computers


def test_each_seat_of_each_table_size_has_its_own_name() -> None:
    for players in (2, 3, 4):
        names = {computer_name(seat, players, "hard") for seat in range(players)}
        assert len(names) == players
    assert computer_name(2, 4, "hard") == "Computadora Norte (difícil)"
    assert computer_name(1, 2, "easy") == "Computadora Norte (fácil)"


@pytest.mark.django_db(transaction=True)
async def test_the_seats_the_record_and_the_lobby_name_the_same_computer_players(
    make_player: Callable[..., User],
) -> None:
    _user, actor = await against_computers(make_player, "amigos-100")
    try:
        seats = [seat["name"] for seat in actor.snapshot(0)["seats"]]
        assert seats[1:] == [
            "Computadora Este (fácil)",
            "Computadora Norte (fácil)",
            "Computadora Oeste (fácil)",
        ]
        assert list(actor.game.record()["players"]) == seats
        assert [seat["team"] for seat in actor.snapshot(0)["seats"]] == [0, 1, 0, 1]
        await sync_to_async(Table.objects.filter(pk=actor.id).update)(status=Status.PLAYING)

        def listed_in(lang: str) -> list[dict[str, Any]]:
            with translation.override(lang):  # the lobby's list is rendered for its reader
                return live_tables()

        row = next(row for row in await sync_to_async(listed_in)("es") if row["table_id"] == actor.id)
        assert [seat["name"] for seat in row["seats"]] == seats
        row = next(row for row in await sync_to_async(listed_in)("en") if row["table_id"] == actor.id)
        assert [seat["name"] for seat in row["seats"]][1:] == [
            "Computer East (easy)",
            "Computer North (easy)",
            "Computer West (easy)",
        ]
    finally:
        await registry.stop_all()


def test_the_tables_script_has_each_computer_name_in_the_readers_language() -> None:
    from amigos.web.tables.labels import computer_names

    with translation.override("en"):
        english = computer_names()
    with translation.override("es"):
        spanish = computer_names()
    assert english["4"][2]["hard"] == "Computer North (hard)"
    assert english["2"][1]["easy"] == "Computer North (easy)"
    assert spanish["4"][2]["hard"] == computer_name(2, 4, "hard")
    assert [len(english[str(players)]) for players in (2, 3, 4)] == [2, 3, 4]
