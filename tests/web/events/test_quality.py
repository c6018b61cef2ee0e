"""Regressions of the quality pass (issue 11) and the data findings of the probe (issue 8): each
test failed on the code before the fix."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from amigos.web.events.models import Event, EventPlayer, HandRecord, Penalty, TableMatch
from amigos.web.events.services import EventError
from amigos.web.events.services import tables as svc
from amigos.web.events.services.results import standings_csv
from amigos.web.events.services.rounds import start_event
from tests.web.events.test_flow import _upload, act, fill_players, new_event

pytestmark = pytest.mark.django_db


def started(client: Client, organizer: Any, players: int = 4, **fields: Any) -> Event:
    event = new_event(client, players=players, **fields)
    fill_players(client, event)
    start_event(event, organizer)
    return event


def ready_table(client: Client, event: Event) -> TableMatch:
    match = event.matches.get(round=1, table=1)
    act(client, match, "keeper", player=1)
    act(client, match, "attendance")
    act(client, match, "leader", leader=1, right=3)
    return match


def page(client: Client, match: TableMatch) -> str:
    return client.get(
        reverse("events:table", args=[match.event_id, match.round, match.table])
    ).content.decode()


def test_a_hand_worth_more_than_the_whole_set_is_refused(sign_in: Callable[..., Any]) -> None:
    """Item 1: a dominada of 999 tantos (the page's limit removed) was stored and ended the match."""
    org = sign_in("Ana")
    match = ready_table(org.client, started(org.client, org.user))
    for points in ("999", "169", "0", str(2**31), str(2**63), "-5", "1e3"):
        html = act(org.client, match, "hand", end="domino", side="a", points=points, number=1)
        assert "tantos" in html or "número entero" in html, points
    assert HandRecord.objects.filter(match=match).count() == 0
    match.refresh_from_db()
    assert (match.score_a, match.score_b) == (0, 0)
    act(org.client, match, "hand", end="domino", side="a", points="168", number=1)
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.state) == (168, 0, "playing")


def test_a_paper_result_shows_on_the_table_page_too(sign_in: Callable[..., Any]) -> None:
    """Item 3: the board showed 104-0 but the table's page "0-0 · Cerrada"."""
    org = sign_in("Ana")
    event = started(org.client, org.user)
    match = event.matches.get(round=1, table=1)
    act(org.client, match, "result", score_a=104, score_b=0, end="target")
    html = page(org.client, match)
    assert "104–0" in html and "0–0" not in html
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "104–0" in board


def test_a_juegos_ganados_sheet_reads_like_the_paper_one(sign_in: Callable[..., Any]) -> None:
    """Item 6: every line read "Dominada · +0" and a finished 4-2 showed "ventaja-60"."""
    org = sign_in("Ana")
    match = ready_table(org.client, started(org.client, org.user, target="hands", stake="0"))
    for side in "ababaa":
        act(org.client, match, "hand", end="domino", side=side)
    html = page(org.client, match)
    assert "+0" not in html and "ventaja" not in html.lower()
    assert "Juego–40" in html
    org.client.cookies["django_language"] = "en"
    assert "Game–40" in page(org.client, match)


def test_the_leader_at_his_own_right_gets_the_right_message(sign_in: Callable[..., Any]) -> None:
    """Item 8: choosing the leader as his own right-hand player said "never the partner"."""
    org = sign_in("Ana")
    event = started(org.client, org.user)
    match = event.matches.get(round=1, table=1)
    act(org.client, match, "keeper", player=1)
    act(org.client, match, "attendance")
    html = act(org.client, match, "leader", leader=1, right=1)
    assert "su propia derecha" in html and "nunca el compañero" not in html
    match.refresh_from_db()
    assert match.first_leader is None


def test_one_resting_player_reads_in_the_singular(sign_in: Callable[..., Any]) -> None:
    """Item 9: "Descansan: 5. Ana López" for one resting player."""
    org = sign_in("Ana")
    event = started(org.client, org.user, players=5)
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "Descansa:" in board and "Descansan:" not in board


def test_the_create_form_is_not_offered_to_someone_in_an_active_event(sign_in: Callable[..., Any]) -> None:
    """Item 9: they learnt it only after filling in and sending the form."""
    org = sign_in("Ana")
    event = new_event(org.client)
    html = org.client.get(reverse("events:create")).content.decode()
    assert "Ya estás inscrito en un juego activo" in html and 'name="player_count"' not in html
    assert reverse("events:detail", args=[event.pk]) in html


def test_an_imported_partial_event_waits_and_can_be_discarded(sign_in: Callable[..., Any]) -> None:
    """Item 5: a partly played import started at once and could not be discarded or left."""
    org = sign_in("Ana")
    raw = {
        "format": "amigos-event/1", "name": "A medias", "players": ["A", "B", "C", "D", "E"], "target": 100,
        "results": [{"round": 1, "table": 1, "score": [100, 30]}],
    }  # fmt: skip
    org.client.post(reverse("events:import"), {"file": _upload(json.dumps(raw))})
    event = Event.objects.get(name="A medias")
    assert event.status == "draft" and not event.matches.filter(round=2).exists()
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "revísalo antes de iniciarlo" in board and "Partida 1, mesa 1: 100–30" in board
    assert '<p class="ev-meta"> · ' not in board  # no origin in the file: no stray separator
    org.client.post(reverse("events:discard", args=[event.pk]))
    assert not Event.objects.filter(pk=event.pk).exists()
    # Free again: the organizer can create another event at once.
    assert new_event(org.client).status == "draft"


def test_an_organizer_can_end_a_running_event(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = started(org.client, org.user)
    org.client.post(reverse("events:end_now", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == "running"  # not without the confirmation
    org.client.post(reverse("events:end_now", args=[event.pk]), {"confirm": "yes"})
    event.refresh_from_db()
    assert event.status == "finished"
    assert not EventPlayer.objects.filter(event=event, active_email__isnull=False).exists()


def test_viewing_a_page_writes_nothing(sign_in: Callable[..., Any]) -> None:
    """Item 16: the board linked a listed e-mail to the visitor's account on a GET. A seat is taken
    by accepting the invitation (a POST); looking at the board changes nothing."""
    org, carla = sign_in("Ana"), sign_in("Carla")
    event = new_event(org.client)
    fill_players(org.client, event, {2: carla.user.email})
    seat = event.players.get(number=2)
    for name in ("events:detail", "events:standings", "events:report"):
        assert carla.client.get(reverse(name, args=[event.pk])).status_code == 200
    seat.refresh_from_db()
    assert seat.user_id is None and seat.active_email is None
    carla.client.post(reverse("events:accept", args=[event.pk]))
    seat.refresh_from_db()
    assert seat.user_id == carla.user.pk


def test_numbers_of_2_to_the_31_are_refused_not_a_500(sign_in: Callable[..., Any]) -> None:
    """Issue 8, item 14: hand points, castigos, results, imported scores and stakes."""
    org = sign_in("Ana")
    event = started(org.client, org.user)
    match = ready_table(org.client, event)
    huge = str(2**31)
    html = act(org.client, match, "result", score_a=huge, score_b=0, end="target")
    assert "número entero" in html or "no puede ocurrir" in html
    html = act(org.client, match, "result", score_a=str(2**31 - 1), score_b=0, end="target")
    assert "no puede ocurrir" in html
    response = org.client.post(
        reverse("events:penalty", args=[event.pk]), {"player": 3, "round": 1, "points": huge}, follow=True
    )
    assert response.status_code == 200 and not Penalty.objects.exists()
    with pytest.raises(EventError):
        from amigos.web.events.services.results import add_penalty

        add_penalty(org.user, event, 3, 1, 2**31, "")
    for leader in (huge, "99999999999999999999"):
        assert act(org.client, match, "keeper", player=leader)
    big_stake = {"format": "amigos-event/1", "players": ["A", "B", "C", "D"], "target": 100, "stake": 10**7,
                 "results": []}  # fmt: skip
    other = sign_in("Beto")
    response = other.client.post(
        reverse("events:import"), {"file": _upload(json.dumps(big_stake))}, follow=True
    )
    assert response.status_code == 200 and "importe" in response.content.decode()
    big_score = {**big_stake, "stake": 1, "results": [{"round": 1, "table": 1, "score": [2**31, 0]}]}
    response = other.client.post(
        reverse("events:import"), {"file": _upload(json.dumps(big_score))}, follow=True
    )
    assert response.status_code == 200 and "marcador" in response.content.decode()
    assert not Event.objects.filter(organizer=other.user).exists()


def test_a_crash_between_two_writes_of_a_hand_leaves_nothing_half_done(
    sign_in: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 8, item 13: killed between the hand and the score, a sheet read 80-100 with 80-99
    stored. The hand, the score and the version are one transaction now."""
    org = sign_in("Ana")
    event = started(org.client, org.user)
    match = ready_table(org.client, event)
    act(org.client, match, "hand", end="domino", side="a", points=80, number=1)
    version = Event.objects.get(pk=event.pk).version

    def crash(*args: Any, **kwargs: Any) -> None:
        raise DatabaseError("the process died here")

    monkeypatch.setattr(svc, "_store_score", crash)
    with pytest.raises(DatabaseError):
        svc.record_hand(org.user, match, svc.HandEnd.DOMINO, "b", 100, number=2)
    monkeypatch.undo()
    match.refresh_from_db()
    assert HandRecord.objects.filter(match=match).count() == 1
    assert (match.score_a, match.score_b) == (80, 0)
    assert Event.objects.get(pk=event.pk).version == version


def test_csv_exports_never_carry_a_formula(sign_in: Callable[..., Any]) -> None:
    """Issue 8, item 15: names like =1+1 and @SUM(A1) were written raw."""
    org = sign_in("Ana")
    event = new_event(org.client)
    data = {"name_2": "=1+1", "name_3": "@SUM(A1)", "name_4": "+cmd|' /C calc'!A0"}
    data |= {f"email_{n}": "" for n in (2, 3, 4)}
    org.client.post(reverse("events:players", args=[event.pk]), data)
    start_event(event, org.user)
    match = event.matches.get(round=1, table=1)
    act(org.client, match, "result", score_a=100, score_b=20, end="target")
    text = standings_csv(event)
    cells = [cell for line in text.splitlines()[1:] for cell in line.split(",")]
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or c[:2] == '"=']
    assert "'=1+1" in text and "'@SUM(A1)" in text
    assert any(c.startswith("-") for c in cells)  # a negative efectividad stays a number


def test_the_administration_names_events_in_spanish_and_english(sign_in: Callable[..., Any]) -> None:
    """Item 12 (the events part): "Events", "Penaltys", "Table matchs" in the administration."""
    staff = sign_in("Admin", is_staff=True, is_superuser=True)
    index = staff.client.get(reverse("admin:index")).content.decode()
    assert "Castigos" in index and "Partidas de mesa" in index and "Penaltys" not in index
    assert "Table matchs" not in index
    staff.client.cookies["django_language"] = "en"
    index = staff.client.get(reverse("admin:index")).content.decode()
    assert "Matches at tables" in index and "Penaltys" not in index


def test_importing_a_three_player_file_is_refused_in_spanish(sign_in: Callable[..., Any]) -> None:
    """Item 2: the import showed the core's English ("unknown player count 3")."""
    org = sign_in("Ana")
    raw = {"format": "amigos-event/1", "players": ["A", "B", "C"], "target": 100, "results": []}
    html = org.client.post(reverse("events:import"), {"file": _upload(json.dumps(raw))}, follow=True)
    text = html.content.decode()
    assert "este archivo tiene 3" in text and "unknown player count" not in text
