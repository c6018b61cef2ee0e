"""The statistics pages: the owner sees everything; others a profile; nothing of unfinished matches."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from amigos.web.accounts.models import User
from amigos.web.archive.services import archive_match
from tests.web.archive.test_statistics import suits_record
from tests.web.conftest import SignedIn

pytestmark = pytest.mark.django_db

START = datetime(2026, 4, 10, 19, 0, tzinfo=UTC)


def seat_four(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> tuple[SignedIn, list[User]]:
    ana = make_player("Ana")
    beto = sign_in("Beto")
    caro, dani = make_player("Caro"), make_player("Dani")
    players = [ana, beto.user, caro, dani]
    archive_match(
        source="table:5:match:1",
        record=suits_record(),
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa <b>del</b> Malecón",
        started_at=START,
        ended_at=START + timedelta(minutes=40),
    )
    return beto, players


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_own_page_shows_matches_hands_and_the_graph(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto, _ = seat_four(sign_in, make_player)
    response = beto.client.get("/stats/", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tus estadísticas" in html
    assert "Mesa &lt;b&gt;del&lt;/b&gt; Malecón" in html  # escaped, never markup
    assert '<svg class="graph"' in html and '<polyline class="graph__pr"' in html
    text = text_of(html)
    assert "100 tantos" in text and "Perdida" in text
    # Beto's hand 1 row: 53 pips, 2 doubles, six fives, no six; the hand lost by 14.
    assert "Beto (tú) 53 2 6 fichas del 5 1 (6)" in text
    assert "Ana (izquierda, sale) 63 1 7 fichas del 6 0" in text
    assert "Dominada · perdida ¿Cuánto me costaron mis jugadas? −14" in text


def test_english_page(sign_in: Callable[..., SignedIn], make_player: Callable[..., User]) -> None:
    beto, _ = seat_four(sign_in, make_player)
    beto.client.post("/i18n/setlang/", {"language": "en", "next": "/stats/"})
    text = text_of(beto.client.get("/stats/", follow=True).content.decode())
    assert "Your statistics" in text and "100 points" in text
    assert "Beto (you) 53 2 6 tiles of 5 1 (6)" in text
    assert "Domino · lost What did my plays cost? −14" in text


def test_another_players_page_is_a_profile(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto, players = seat_four(sign_in, make_player)
    response = beto.client.get(f"/stats/{players[0].pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Estadísticas de Ana" in html
    assert "Partidas clasificadas" in html and "Porcentaje ganado" in html
    assert "graph__pr" not in html and "Mano" not in text_of(html).split("Por juego")[0]
    assert "fichas del" not in html  # no hand level: nobody else's tiles


def test_an_unfinished_match_shows_nowhere(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    players = [make_player(name) for name in ("Ana", "Caro", "Dani")]
    beto = sign_in("Beto")
    record: dict[str, Any] = suits_record()
    record["hands"] = record["hands"][:1]
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:4]
    archive_match(
        source="table:6:match:1",
        record=record,
        seat_user_ids=[players[0].pk, beto.user.pk, players[1].pk, players[2].pk],
        table_name="Mesa en juego",
        started_at=START,
        ended_at=START + timedelta(minutes=5),
    )
    html = beto.client.get("/stats/", follow=True).content.decode()
    assert "Mesa en juego" not in html and "fichas del" not in html
    assert "Todavía ninguna partida completa" in html


def test_signed_out_visitors_are_sent_to_sign_in(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    response = Client().get(f"/stats/{ana.pk}/")
    assert response.status_code == 302 and "/accounts/" in response["Location"]


def test_unknown_player_is_404(sign_in: Callable[..., SignedIn]) -> None:
    assert sign_in("Beto").client.get("/stats/999999/").status_code == 404
