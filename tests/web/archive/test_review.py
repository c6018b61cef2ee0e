"""After a hand, a player sees what each of their plays cost against the best one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from amigos.academy.solve import action_costs
from amigos.engine.record import parse_record
from amigos.engine.replay import replay_record
from amigos.web.accounts.models import User
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.models import ArchivedMatch, HandReview
from amigos.web.archive.review import review_turn, turns_to_review
from amigos.web.archive.services import archive_match
from amigos.web.archive.services.review import request_review, run_review
from tests.web.archive.test_statistics import suits_record
from tests.web.conftest import SignedIn

START = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)


def test_the_turns_with_a_choice_worked_by_hand() -> None:
    record = suits_record()
    # Hand 1, Beto (seat 1): moves 2 and 7 are passes (no six, then no fitting tile); at move 6
    # the ends are 6 and 5 and he holds six fives: his first real choice.
    turns = turns_to_review(record, 1, 1)
    assert turns[0] == 6 and 2 not in turns and 7 not in turns
    first = review_turn(record, 1, 6)
    assert first["played"] == "5-5" and first["choices"] == 6 and first["exact"] is True


def test_each_cost_is_the_solvers_cost_of_the_play_made() -> None:
    record = suits_record()
    states = replay_record(parse_record(record), keep_states=True).hands[0].states
    moves = record["hands"][0]["moves"]
    for move in turns_to_review(record, 1, 1):
        state = states[move - 1]
        played = state.parse_move(moves[move - 1])
        costs = {state.move_notation(a): c for a, c in action_costs(state).items()}
        review = review_turn(record, 1, move)
        assert review["cost"] == costs[state.move_notation(played)]
        assert review["best"] == sorted(text for text, cost in costs.items() if cost == 0)
        assert review["cost"] >= 0


def test_unfinished_and_missing_hands_are_refused() -> None:
    record = suits_record()
    record["hands"] = record["hands"][:1]
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:8]
    with pytest.raises(ArchiveError) as unfinished:
        turns_to_review(record, 1, 1)
    assert unfinished.value.code == "hand-unfinished"
    with pytest.raises(ArchiveError) as missing:
        turns_to_review(record, 2, 1)
    assert missing.value.code == "hand-unknown"


def archived(make_player: Callable[..., User], beto: User) -> ArchivedMatch:
    players = [make_player("Ana"), beto, make_player("Caro"), make_player("Dani")]
    archive_match(
        source="table:8:match:1",
        record=suits_record(),
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    return ArchivedMatch.objects.get()


@pytest.mark.django_db
def test_a_review_is_computed_with_progress_and_shown(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    match = archived(make_player, beto.user)
    review, created = request_review(user_id=beto.user.pk, match_id=match.pk, hand=1)
    assert created and review.status == HandReview.Status.PENDING and review.seat == 1
    assert request_review(user_id=beto.user.pk, match_id=match.pk, hand=1)[1] is False
    progress: list[int] = []

    def solve(record: Any, hand: int, move: int) -> dict[str, Any]:
        progress.append(HandReview.objects.get(pk=review.pk).done_turns)
        return review_turn(record, hand, move)

    run_review(review_id=review.pk, solve=solve)
    review.refresh_from_db()
    assert review.status == HandReview.Status.DONE
    assert progress == list(range(review.total_turns))  # saved after every turn
    assert [turn["move"] for turn in review.turns] == turns_to_review(suits_record(), 1, 1)
    page = beto.client.get(f"/stats/match/{match.pk}/hand/1/").content.decode()
    assert "Jugaste" in page and "Mejor jugada" in page and "5-5" in page


@pytest.mark.django_db
def test_only_the_matchs_players_may_ask(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    match = archived(make_player, beto.user)
    outsider = sign_in("Eva")
    assert outsider.client.get(f"/stats/match/{match.pk}/hand/1/").status_code == 404
    assert outsider.client.post(f"/stats/match/{match.pk}/hand/1/").status_code == 404
    with pytest.raises(ArchiveError) as refused:
        request_review(user_id=outsider.user.pk, match_id=match.pk, hand=1)
    assert refused.value.code == "not-a-player"
    assert beto.client.get(f"/stats/match/{match.pk}/hand/99/").status_code == 404
    assert not HandReview.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_page_starts_the_review_in_the_background(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    match = archived(make_player, beto.user)
    url = f"/stats/match/{match.pk}/hand/1/"
    assert "Revisar mis jugadas" in beto.client.get(url).content.decode()
    response = beto.client.post(url)
    assert response.status_code == 302 and response["Location"] == url
    from amigos.web.archive.services import review as service

    assert service._threads is not None
    service._threads.submit(lambda: None).result()  # the queue is done with our review
    review = HandReview.objects.get()
    assert review.status == HandReview.Status.DONE and review.turns
    assert "Jugaste" in beto.client.get(url).content.decode()


@pytest.mark.django_db
def test_a_player_has_one_review_at_a_time_and_the_site_a_bounded_queue(
    sign_in: Callable[..., SignedIn],
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    """A review is a heavy job like the Academy's: while one of the player's reviews is queued or
    computed, another is refused with a translated message (and no review is left waiting)."""
    from amigos.web.archive.services import review as service

    beto = sign_in("Beto")
    match = archived(make_player, beto.user)
    monkeypatch.setattr(service, "_admitted", {("archive.HandReview", 10_000): beto.user.pk})
    url = f"/stats/match/{match.pk}/hand/2/"
    refused = beto.client.post(url, follow=True)
    assert "Ya se está calculando una revisión tuya" in refused.content.decode()
    assert not HandReview.objects.exists()
    # Another player's review is queued, but the site's queue holds one at most.
    settings.AMIGOS_ACADEMY_QUEUE = 1
    monkeypatch.setattr(service, "_admitted", {("archive.HandReview", 10_000): beto.user.pk + 1})
    full = beto.client.post(url, follow=True)
    assert "demasiadas revisiones esperando" in full.content.decode()
    assert not HandReview.objects.exists()
    settings.AMIGOS_ACADEMY_QUEUE = 2
    assert beto.client.post(url).status_code == 302 and HandReview.objects.count() == 1
