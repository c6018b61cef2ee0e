"""The table pages over HTTP: who may open a table and how, creating a table from the form,
playing against the computer, and "my games"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from amigos.web.tables.models import Kind, Table
from amigos.web.tables.services import SeatChoice, create_table
from amigos.web.tables.views import refusal_text

pytestmark = pytest.mark.django_db


def computer_table(organizer: Any, kind: str = Kind.LIVE, name: str = "La peña") -> Table:
    seats = {number: SeatChoice(level="easy") for number in (1, 2, 3)}
    return create_table(organizer=organizer, name=name, variant="amigos-100", kind=kind, seats=seats)


def test_the_organizer_sits_and_others_watch(sign_in: Callable[..., Any]) -> None:
    ana, eva = sign_in("Ana"), sign_in("Eva")
    table = computer_table(ana.user)
    seated = ana.client.get(f"/mesas/{table.pk}/")
    assert seated.status_code == 200
    assert b'data-join-as="seat"' in seated.content and b'id="my-hand"' in seated.content
    watching = eva.client.get(f"/mesas/{table.pk}/")
    assert watching.status_code == 200
    assert b'data-join-as="spectator"' in watching.content
    assert b'id="my-hand"' not in watching.content and b'id="table-chat-form"' not in watching.content


def test_a_correspondence_game_is_only_for_its_players(sign_in: Callable[..., Any]) -> None:
    ana, eva = sign_in("Ana"), sign_in("Eva")
    table = computer_table(ana.user, kind=Kind.CORRESPONDENCE, name="Por carta")
    assert eva.client.get(f"/mesas/{table.pk}/").status_code == 404
    assert ana.client.get(f"/mesas/{table.pk}/").status_code == 200
    mine = ana.client.get("/mesas/mis-partidas/")
    assert "Por carta" in mine.content.decode()
    assert "Por carta" not in eva.client.get("/mesas/mis-partidas/").content.decode()


def test_strangers_are_sent_to_sign_in(client: Any) -> None:
    response = client.get("/mesas/1/")
    assert response.status_code == 302 and "/accounts/sign-in/" in response["Location"]


def test_creating_a_table_with_computer_players(sign_in: Callable[..., Any]) -> None:
    ana = sign_in("Ana")
    form = ana.client.get("/mesas/nueva/")
    assert "Compañero (enfrente)" in form.content.decode()
    response = ana.client.post(
        "/mesas/nueva/",
        {
            "name": "Los del parque",
            "variant": "amigos-200",
            "players": "4",
            "kind": "live",
            "seat_1": "computer:easy",
            "seat_2": "computer:normal",
            "seat_3": "computer:hard",
        },
    )
    table = Table.objects.get(name="Los del parque")
    assert response.status_code == 302 and response["Location"] == f"/mesas/{table.pk}/"
    assert table.variant == "amigos-200"
    assert sorted(seat.level for seat in table.seats.exclude(number=0)) == ["easy", "hard", "normal"]


def test_a_refused_table_says_why_in_the_players_language(
    sign_in: Callable[..., Any], make_player: Callable[..., Any]
) -> None:
    ana = sign_in("Ana")
    beto = make_player("Beto")  # never signed in: not in the online list
    data = {"name": "Mesa", "variant": "cuban-1v1", "kind": "live", "seat_1": f"user:{beto.pk}"}
    response = ana.client.post("/mesas/nueva/", data)
    assert response.status_code == 200
    assert "Beto" not in response.content.decode()  # only online players are offered
    assert not Table.objects.exists()
    nameless = ana.client.post("/mesas/nueva/", {**data, "name": "   ", "seat_1": "computer:easy"})
    assert nameless.status_code == 200 and "errorlist" in nameless.content.decode()
    missing = ana.client.post("/mesas/nueva/", {**data, "seat_1": ""})
    assert "Elige quién se sienta aquí." in missing.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("code", "spanish", "english"),
    [
        (
            "not_online",
            "Solo se puede invitar a una mesa en vivo a jugadores en línea.",
            "Only players who are online",
        ),
        ("bad_seats", "Cada asiento necesita un jugador o una computadora", "Each seat needs one player"),
        ("something_new", "No se pudo crear la mesa.", "The table could not be created."),
    ],
)
def test_the_services_refusals_are_told_by_code(code: str, spanish: str, english: str) -> None:
    with translation.override("es"):
        assert refusal_text(code).startswith(spanish)
    with translation.override("en"):
        assert refusal_text(code).startswith(english)


def test_play_against_the_computer_from_the_lobby(sign_in: Callable[..., Any]) -> None:
    ana = sign_in("Ana")
    lobby = ana.client.get("/").content.decode()
    assert "Jugar contra la computadora" in lobby and "Crear una mesa" in lobby
    response = ana.client.post(
        "/mesas/computadora/", {"variant": "all-fives-100", "level": "hard", "players": "3"}
    )
    table = Table.objects.get()
    assert response["Location"] == f"/mesas/{table.pk}/"
    assert (table.variant, table.players) == ("all-fives-100", 3)
    assert ana.client.post("/mesas/computadora/", {"variant": "nada"})["Location"] == "/"
    assert Table.objects.count() == 1
