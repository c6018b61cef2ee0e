"""Beyond the spec: at a live table, a player reviews their own plays in a hand that just ended."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from amigos.web.accounts.models import User
from amigos.web.archive.review import review_turn, turns_to_review
from amigos.web.archive.services import review as runner
from amigos.web.tables.hand_review import request_live_review
from amigos.web.tables.models import LiveHandReview, MatchRecord, Table
from amigos.web.tables.services import TableRefused
from tests.web.archive.test_statistics import suits_record
from tests.web.conftest import SignedIn
from tests.web.tables.support import stored_table

START = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)


def live_match(players: list[User], *, accepted: bool = True) -> Table:
    """A table whose match 1 has hand 1 over and hand 2 in its eighth move (as the live record
    stands between two hand ends). Beto (seat 1) holds the fives in hand 1."""
    table = stored_table(list(players), START, accepted=accepted)
    record = suits_record()
    record["hands"] = record["hands"][:2]
    record["hands"][1]["moves"] = record["hands"][1]["moves"][:8]
    MatchRecord.objects.create(table=table, number=1, record=record, started_at=START)
    return table


def url(table: Table, hand: int, match: int = 1) -> str:
    return f"/mesas/{table.pk}/partida/{match}/mano/{hand}/repaso/"


@pytest.mark.django_db
def test_a_seated_player_reviews_a_hand_that_ended(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    table = live_match([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")])
    assert "Revisar mis jugadas" in beto.client.get(url(table, 1)).content.decode()
    review, created = request_live_review(user_id=beto.user.pk, table_id=table.pk, match=1, hand=1)
    assert created and review.seat == 1 and review.status == LiveHandReview.Status.PENDING
    assert request_live_review(user_id=beto.user.pk, table_id=table.pk, match=1, hand=1)[1] is False
    progress: list[int] = []

    def solve(record: Any, hand: int, move: int) -> dict[str, Any]:
        progress.append(LiveHandReview.objects.get(pk=review.pk).done_turns)
        return review_turn(record, hand, move)

    runner.run_review(review_id=review.pk, solve=solve, model=LiveHandReview)
    review.refresh_from_db()
    assert review.status == LiveHandReview.Status.DONE
    assert progress == list(range(review.total_turns))
    expected = turns_to_review(suits_record(), 1, 1)
    assert [turn["move"] for turn in review.turns] == expected
    assert review.turns[0] == review_turn(suits_record(), 1, expected[0])
    page = beto.client.get(url(table, 1)).content.decode()
    assert "Jugaste" in page and "Mejor jugada" in page and "5-5" in page
    assert f'href="/mesas/{table.pk}/"' in page and "Volver a la mesa" in page


@pytest.mark.django_db
def test_a_hand_still_being_played_is_never_valued(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    table = live_match([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")])
    assert beto.client.get(url(table, 2)).status_code == 404
    response = beto.client.post(url(table, 2), follow=True)
    assert "Esa mano todavía se está jugando" in response.content.decode()
    for hand, code in ((2, "hand_unfinished"), (3, "hand_unknown")):
        with pytest.raises(TableRefused) as refused:
            request_live_review(user_id=beto.user.pk, table_id=table.pk, match=1, hand=hand)
        assert refused.value.code == code
    with pytest.raises(TableRefused) as no_match:
        request_live_review(user_id=beto.user.pk, table_id=table.pk, match=2, hand=1)
    assert no_match.value.code == "hand_unknown"
    assert beto.client.get(url(table, 1, match=2)).status_code == 404
    assert not LiveHandReview.objects.exists()


@pytest.mark.django_db
def test_only_the_tables_seated_players_may_ask(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    outsider = sign_in("Eva")  # a spectator, say: not seated
    table = live_match(
        [make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")], accepted=False
    )
    for client in (outsider.client, beto.client):  # Beto was invited but never accepted
        assert client.get(url(table, 1)).status_code == 404
        assert client.post(url(table, 1)).status_code == 404
    with pytest.raises(TableRefused) as refused:
        request_live_review(user_id=outsider.user.pk, table_id=table.pk, match=1, hand=1)
    assert refused.value.code == "not_seated"
    assert not LiveHandReview.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_asking_from_the_page_runs_the_review_in_the_background(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    table = live_match([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")])
    response = beto.client.post(url(table, 1))
    assert response.status_code == 302 and response["Location"] == url(table, 1)
    assert runner._threads is not None
    runner._threads.submit(lambda: None).result()  # the one background thread is done with it
    review = LiveHandReview.objects.get()
    assert review.status == LiveHandReview.Status.DONE and review.turns
    assert "Jugaste" in beto.client.get(url(table, 1)).content.decode()


@pytest.mark.django_db
def test_a_second_review_while_one_is_computed_is_refused(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One heavy job per player: the live table's review waits for the player's other review."""
    beto = sign_in("Beto")
    table = live_match([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")])
    monkeypatch.setattr(runner, "_admitted", {("archive.HandReview", 10_000): beto.user.pk})
    refused = beto.client.post(url(table, 1), follow=True)
    assert "Ya se está calculando una revisión tuya" in refused.content.decode()
    assert not LiveHandReview.objects.exists()
