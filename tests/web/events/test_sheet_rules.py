"""Rules of the table sheet on the site: guards against double entries, corrections, the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from amigos.recreo.sheet import HandEnd
from amigos.web.events import selectors
from amigos.web.events.models import Event, TableMatch
from amigos.web.events.services import EventError, rounds
from amigos.web.events.services import tables as svc
from amigos.web.events.services.results import add_penalty, import_event, standings
from amigos.web.events.services.rounds import start_event
from amigos.web.events.services.setup import accept_invitation
from tests.web.events.test_flow import act, fill_players, new_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(sign_in: Callable[..., Any]) -> tuple[Any, Any, Event]:
    """A started 4-player event to 100; Beto (player 2) has an account and keeps round 1."""
    org, beto = sign_in("Ana"), sign_in("Beto")
    event = new_event(org.client)
    fill_players(org.client, event, {2: beto.user.email})
    accept_invitation(event, beto.user)
    start_event(event, org.user)
    match = event.matches.get(round=1, table=1)
    svc.choose_scorekeeper(beto.user, match, 2, keeps_for_partner=False)
    svc.confirm_attendance(beto.user, match)
    svc.set_first_leader(beto.user, match, 1, 3)
    return org, beto, event


def test_a_double_tap_does_not_enter_a_hand_twice(running: tuple[Any, Any, Event]) -> None:
    _org, beto, event = running
    match = event.matches.get(round=1, table=1)
    page = act(beto.client, match, "hand", end="domino", side="a", points=30, number=1)
    page = act(beto.client, match, "hand", end="domino", side="a", points=30, number=1)
    assert "La mano 1 ya está en la plantilla" in page
    match.refresh_from_db()
    assert (match.hands.count(), match.score_a) == (1, 30)


def test_undo_and_the_first_leader_locks_once_hands_exist(running: tuple[Any, Any, Event]) -> None:
    org, beto, event = running
    match = event.matches.get(round=1, table=1)
    svc.record_hand(beto.user, match, HandEnd.DOMINO, "b", 45)
    with pytest.raises(EventError):
        svc.set_first_leader(beto.user, match, 2, 3)
    svc.undo_last_hand(org.user, match)
    match.refresh_from_db()
    assert (match.hands.count(), match.score_b) == (0, 0)
    with pytest.raises(EventError):
        svc.undo_last_hand(beto.user, match)
    with pytest.raises(EventError, match="contrario"):
        svc.set_first_leader(beto.user, match, 1, 2)


def test_a_tied_block_scores_zero_and_passes_the_lead(running: tuple[Any, Any, Event]) -> None:
    _org, beto, event = running
    match = event.matches.get(round=1, table=1)
    svc.record_hand(beto.user, match, HandEnd.TIED_BLOCK, "b", 99)
    lines, next_leader, state = selectors.sheet_lines(match)
    assert state.score == (0, 0) and lines[0].points == 0 and lines[0].written == "0" and lines[0].leader == 1
    assert next_leader == 3


def test_nobody_but_the_keeper_or_organizer_writes_and_not_after_closing(
    running: tuple[Any, Any, Event], sign_in: Callable[..., Any]
) -> None:
    org, beto, event = running
    match = event.matches.get(round=1, table=1)
    stranger = sign_in("Zoe")
    with pytest.raises(EventError):
        svc.record_hand(stranger.user, match, HandEnd.DOMINO, "a", 10)
    with pytest.raises(EventError):
        svc.choose_scorekeeper(stranger.user, match, 3, keeps_for_partner=False)
    with pytest.raises(EventError):
        svc.choose_scorekeeper(org.user, match, 5, keeps_for_partner=False)
    svc.record_hand(beto.user, match, HandEnd.DOMINO, "a", 100)
    with pytest.raises(EventError, match="La partida ya terminó"):
        svc.record_hand(beto.user, match, HandEnd.DOMINO, "a", 10)
    with pytest.raises(EventError):
        svc.suspend_match(beto.user, match)
    svc.confirm_end(beto.user, match)
    with pytest.raises(EventError):
        svc.record_hand(org.user, match, HandEnd.DOMINO, "a", 10)
    svc.organizer_confirm(org.user, match)
    match.refresh_from_db()
    assert match.state == TableMatch.State.CLOSED
    with pytest.raises(EventError):
        svc.undo_last_hand(org.user, match)


def test_default_claims_and_calls_are_logged_for_the_organizer(running: tuple[Any, Any, Event]) -> None:
    org, beto, event = running
    match = event.matches.get(round=1, table=1)
    act(beto.client, match, "default_rejected")
    match.refresh_from_db()
    assert not match.organizer_requested
    act(beto.client, match, "default_accepted")
    match.refresh_from_db()
    assert match.organizer_requested
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "El anotador solicita al organizador." in board
    sheet = org.client.get(reverse("events:table", args=[event.pk, 1, 1])).content.decode()
    assert "Se negó una solicitud de default" in sheet and "Se aceptó una solicitud de default" in sheet
    act(org.client, match, "default", offender="b", confirm="yes")
    match.refresh_from_db()
    assert (match.state, match.end, match.organizer_requested) == ("closed", "default", False)


def test_corrections_after_the_next_round_update_every_standing(running: tuple[Any, Any, Event]) -> None:
    org, beto, event = running
    first = event.matches.get(round=1, table=1)
    svc.set_result(org.user, first, (100, 50), svc.MatchEnd.TARGET, "")
    rounds.start_next_round(org.user, event)
    add_penalty(org.user, event, 4, 1, 10, "")
    before = {r.player: r.points for r in standings(event).rows}
    svc.set_result(org.user, first, (0, 100), svc.MatchEnd.TARGET, "")
    after = {r.player: r.points for r in standings(event).rows}
    assert before[1] == 2 and after[1] == 0 and after[3] == 3
    with pytest.raises(EventError):
        add_penalty(org.user, event, 4, 3, 10, "")  # round 3 not played yet
    with pytest.raises(EventError):
        add_penalty(beto.user, event, 4, 1, 10, "")
    with pytest.raises(EventError):
        add_penalty(org.user, event, 4, 1, 0, "")
    # Standings as they stood after round 1 leave out later castigos (none here) and results.
    assert standings(event, after_round=1).rounds_complete == 1
    page = org.client.get(reverse("events:standings", args=[event.pk]) + "?after=1").content.decode()
    assert "Clasificación tras 1 partida" in page


def test_the_next_round_waits_for_every_table_in_todos_con_todos(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client, players=8, stake="0")
    fill_players(org.client, event)
    start_event(event, org.user)
    one, two = (event.matches.get(round=1, table=t) for t in (1, 2))
    svc.set_result(org.user, one, (100, 20), svc.MatchEnd.TARGET, "")
    assert [m.table for m in selectors.missing_tables(event)] == [2]
    with pytest.raises(EventError):
        rounds.start_next_round(org.user, event)
    svc.set_result(org.user, two, (30, 100), svc.MatchEnd.TARGET, "")
    rounds.start_next_round(org.user, event)
    event.refresh_from_db()
    assert event.current_round == 2 and event.matches.filter(round=2).count() == 2
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "Partida 2 de 7" in board


def test_importing_while_in_an_active_event_is_refused_unless_the_file_is_finished(
    running: tuple[Any, Any, Event],
) -> None:
    org, _beto, _event = running
    partial = '{"format": "amigos-event/1", "players": ["a","b","c","d"], "target": 100, "results": []}'
    with pytest.raises(EventError):
        import_event(org.user, partial)
    finished = (
        '{"format": "amigos-event/1", "players": ["a","b","c","d"], "target": 100, "results": ['
        '{"round": 1, "table": 1, "score": [100, 0]}, {"round": 2, "table": 1, "score": [100, 0]},'
        '{"round": 3, "table": 1, "score": [100, 0]}]}'
    )
    imported = import_event(org.user, finished)
    assert imported.status == "finished" and standings(imported).rounds_complete == 3


def test_todos_con_todos_tables_start_with_their_scorekeeper(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client, players=12, stake="0")
    fill_players(org.client, event)
    start_event(event, org.user)
    keepers = {m.table: m.scorekeeper.number for m in event.matches.filter(round=1)}
    assert keepers == {1: 1, 2: 7, 3: 11}  # 1&2 v 3&4, 5&6 v 7&8, 9&10 v 11&12
    for match in event.matches.filter(round=1):
        svc.set_result(org.user, match, (100, 10), svc.MatchEnd.TARGET, "")
    rounds.start_next_round(org.user, event)
    keepers = {m.table: m.scorekeeper.number for m in event.matches.filter(round=2)}
    assert keepers == {1: 2, 2: 1, 3: 11}  # 5&7 v 2&4, 1&3 v 10&12, 9&11 v 6&8
    page = org.client.get(reverse("events:players", args=[event.pk])).content.decode()
    assert page.count("<strong>anotador</strong>") == 5


def test_paper_sheets_of_a_round_list_every_table_and_who_rests(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client, players=7)
    fill_players(org.client, event)
    start_event(event, org.user)
    page = org.client.get(reverse("events:paper", args=[event.pk, 2])).content.decode()
    assert 'data-paper-table="1"' in page and "4. Jugador 4 / 6. Jugador 6" in page
    assert "Descansan:" in page and "1. Ana" in page  # round 2: 4&6 v 5&7, 1, 2 and 3 rest
    assert org.client.get(reverse("events:paper", args=[event.pk, 12])).status_code == 404


def test_a_chosen_scorekeeper_is_only_replaced_by_themselves_or_the_organizer(
    running: tuple[Any, Any, Event], sign_in: Callable[..., Any]
) -> None:
    org, beto, event = running
    caro = sign_in("Caro")
    seat = event.players.get(number=3)
    seat.user = caro.user
    seat.save()
    match = event.matches.get(round=1, table=1)
    with pytest.raises(EventError, match="ya tiene anotador"):
        svc.choose_scorekeeper(caro.user, match, 3, keeps_for_partner=False)
    svc.choose_scorekeeper(beto.user, match, 3, keeps_for_partner=False)  # Beto hands the sheet over
    match.refresh_from_db()
    assert match.scorekeeper.number == 3
    svc.choose_scorekeeper(org.user, match, 1, keeps_for_partner=False)
    match.refresh_from_db()
    assert match.scorekeeper.number == 1
