"""The organizer and scorekeeper flow through the site, with Django's test client."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from amigos.recreo.event import parse_event
from amigos.recreo.standings import compute_standings
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, TableMatch
from amigos.web.events.services import EventError
from amigos.web.events.services.results import standings
from amigos.web.events.services.setup import EventSetup, create_event

pytestmark = pytest.mark.django_db


def new_event(client: Client, players: int = 4, **fields: Any) -> Event:
    data = {
        "name": "Recreo del sábado",
        "origin": "Club Roma",
        "date": "2026-11-21",
        "player_count": players,
        "target": "100",
        "time_limit_minutes": "",
        "stake": "10",
        "extra_payment": "on",
        **fields,
    }
    response = client.post(reverse("events:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.latest("created_at")


def fill_players(client: Client, event: Event, emails: dict[int, str] | None = None) -> None:
    emails = emails or {}
    data = {}
    for n in range(2, event.player_count + 1):
        data[f"name_{n}"] = f"Jugador {n}"
        data[f"email_{n}"] = emails.get(n, "")
    response = client.post(reverse("events:players", args=[event.pk]), data)
    assert response.status_code == 302


def accept(client: Client, event: Event) -> None:
    """The invited player takes the seat the organizer's list offers them."""
    response = client.post(reverse("events:accept", args=[event.pk]))
    assert response.status_code == 302


def act(client: Client, match: TableMatch, action: str, **data: Any) -> str:
    url = reverse("events:table_action", args=[match.event_id, match.round, match.table])
    response = client.post(url, {"action": action, **data}, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def play_match(
    keeper: Client, organizer: Client, match: TableMatch, hands: list[tuple[str, str, int]]
) -> None:
    table = match.event.players.order_by("number")
    seated = [p.number for p in table]
    from amigos.web.events.services.tables import assignment_of

    a = assignment_of(match)
    act(keeper, match, "attendance")
    act(keeper, match, "leader", leader=a.pair_a[0], right=a.pair_b[0])
    for end, side, points in hands:
        act(keeper, match, "hand", end=end, side=side, points=points)
    act(keeper, match, "confirm_end")
    match.refresh_from_db()
    assert seated
    if match.state != TableMatch.State.CLOSED:
        assert match.state == TableMatch.State.AWAITING
        act(organizer, match, "close")


def test_organizer_runs_a_four_player_event(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    keeper = sign_in("Beto")
    event = new_event(org.client)
    assert event.players.get(number=1).user == org.user
    fill_players(org.client, event, {2: keeper.user.email})
    assert event.players.get(number=2).user is None  # invited, not enrolled
    accept(keeper.client, event)
    assert event.players.get(number=2).user == keeper.user
    page = org.client.get(reverse("events:players", args=[event.pk])).content.decode()
    assert "Jugador 3" in page
    org.client.post(reverse("events:start", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == "running" and event.started_at is not None and event.current_round == 1

    # Round 1: 1&2 v 3&4. Beto (player 2) keeps the sheet.
    match = event.matches.get(round=1, table=1)
    act(keeper.client, match, "keeper", player=2)
    # The next round cannot start while the table is open, and the board flags it.
    board = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "data-missing" in board
    org.client.post(reverse("events:next_round", args=[event.pk]))
    event.refresh_from_db()
    assert event.current_round == 1
    play_match(
        keeper.client, org.client, match, [("domino", "a", 60), ("tied-block", "b", 0), ("block", "a", 52)]
    )
    match.refresh_from_db()
    assert (match.state, match.score_a, match.score_b, match.end) == ("closed", 112, 0, "target")
    org.client.post(reverse("events:next_round", args=[event.pk]))
    event.refresh_from_db()
    assert event.current_round == 2

    # Round 2 (1&3 v 4&2): the organizer keeps the sheet; 4&2 win 105-0.
    match = event.matches.get(round=2, table=1)
    act(org.client, match, "keeper", player=1)
    play_match(org.client, org.client, match, [("domino", "b", 105)])
    org.client.post(reverse("events:next_round", args=[event.pk]))
    # Round 3: entered by the organizer from a paper sheet.
    match = event.matches.get(round=3, table=1)
    act(org.client, match, "result", score_a=100, score_b=75, end="target")
    org.client.post(reverse("events:next_round", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == "finished"

    table = standings(event)
    assert table.rounds_complete == 3
    assert sum(r.money for r in table.rows) == 0
    report = org.client.get(reverse("events:report", args=[event.pk])).content.decode()
    assert "data-winner" in report
    # Exported file and the command agree with the site.
    exported = org.client.get(reverse("events:export", args=[event.pk])).content.decode()
    assert compute_standings(parse_event(exported)) == table
    csv_text = org.client.get(reverse("events:standings_csv", args=[event.pk])).content.decode()
    assert csv_text.splitlines()[0].startswith("rank,player,name,points")
    assert len(csv_text.splitlines()) == 5
    # Finished: everybody is free to join another event.
    assert not event.players.exclude(active_email=None).exists()


def test_one_active_event_per_person(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    other = sign_in("Caro")
    event = new_event(org.client)
    setup = EventSetup("x", "", dt.date(2026, 11, 21), 4, "100", None, Decimal(0), False)
    with pytest.raises(EventError):
        create_event(org.user, setup)
    second = create_event(other.user, setup)
    # Caro may be invited to Ana's event, but cannot accept while she is in her own.
    response = org.client.post(
        reverse("events:players", args=[event.pk]),
        {
            "name_2": "Caro",
            "email_2": other.user.email.upper(),
            "name_3": "c",
            "email_3": "",
            "name_4": "d",
            "email_4": "",
        },
    )
    assert response.status_code == 302
    refused = other.client.post(reverse("events:accept", args=[event.pk]), follow=True)
    assert "Ya estás registrado en un juego recreativo activo." in refused.content.decode()
    assert event.players.get(number=2).user is None
    assert event.players.count() == 4
    assert second.players.count() == 1
    # The start page sends a person to their active event.
    assert org.client.get(reverse("events:home")).url == reverse("events:detail", args=[event.pk])


def test_only_the_scorekeeper_or_organizer_writes(sign_in: Callable[..., Any]) -> None:
    org, two, three = sign_in("Ana"), sign_in("Beto"), sign_in("Caro")
    outsider = sign_in("Zoe")
    event = new_event(org.client, target="hands")
    fill_players(org.client, event, {2: two.user.email, 3: three.user.email})
    accept(two.client, event)
    accept(three.client, event)
    org.client.post(reverse("events:start", args=[event.pk]))
    match = event.matches.get(round=1, table=1)
    assert outsider.client.get(reverse("events:detail", args=[event.pk])).status_code == 404
    assert three.client.get(reverse("events:detail", args=[event.pk])).status_code == 200
    act(three.client, match, "keeper", player=2, for_partner="on")
    match.refresh_from_db()
    assert match.scorekeeper.number == 2 and match.keeps_for_partner
    page = act(three.client, match, "attendance")
    assert "Only this table" in page or "Solo" in page
    act(two.client, match, "attendance")
    act(two.client, match, "leader", leader=1, right=3)
    sheet = two.client.get(reverse("events:table", args=[event.pk, 1, 1])).content.decode()
    assert 'data-next-leader="1"' in sheet
    act(two.client, match, "hand", end="block", side="a")  # a block wins nothing under hands won
    sheet = two.client.get(reverse("events:table", args=[event.pk, 1, 1])).content.decode()
    assert 'data-next-leader="3"' in sheet  # the lead moved to the right anyway
    for _ in range(4):
        act(two.client, match, "hand", end="domino", side="b")
    match.refresh_from_db()
    assert (match.score_a, match.score_b) == (0, 4)
    act(two.client, match, "confirm_end")
    match.refresh_from_db()
    assert match.state == "awaiting"
    act(two.client, match, "close")  # not the organizer: refused
    match.refresh_from_db()
    assert match.state == "awaiting"
    act(org.client, match, "close")
    match.refresh_from_db()
    assert match.state == "closed"


def test_suspend_default_castigo_and_correction(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client, players=8, target="100", stake="0")
    fill_players(org.client, event)
    org.client.post(reverse("events:start", args=[event.pk]))
    one, two = event.matches.get(round=1, table=1), event.matches.get(round=1, table=2)
    act(org.client, one, "keeper", player=1)
    act(org.client, one, "attendance")
    act(org.client, one, "leader", leader=1, right=3)
    act(org.client, one, "hand", end="domino", side="a", points=40)
    # Regression: one tap suspended the match. Without the confirmation nothing changes.
    page = act(org.client, one, "suspend")
    one.refresh_from_db()
    assert one.state == "playing" and "Confírmalo primero" in page
    act(org.client, two, "default", offender="b")
    two.refresh_from_db()
    assert two.state == "playing"
    act(org.client, one, "suspend", confirm="yes")
    one.refresh_from_db()
    assert (one.state, one.end) == ("closed", "suspended")
    act(org.client, two, "default", offender="b", confirm="yes")
    two.refresh_from_db()
    assert (two.state, two.end, two.offender) == ("closed", "default", "b")
    org.client.post(reverse("events:penalty", args=[event.pk]), {"player": 3, "round": 1, "points": 15})
    rows = {r.player: r for r in standings(event).rows}
    assert rows[1].points == 1 and rows[5].points == 3 and rows[3].penalties == 15
    # The organizer corrects table 1 to a full win 100-20.
    act(org.client, one, "result", score_a=100, score_b=20, end="target")
    rows = {r.player: r for r in standings(event).rows}
    assert rows[1].points == 2 and rows[1].effectiveness == 80
    # Regression: the core's English sentences showed inside the Spanish page.
    page = act(org.client, one, "result", score_a=50, score_b=50, end="target")
    assert "50–50 es un empate" in page and "tied score" not in page
    page = act(org.client, one, "result", score_a=120, score_b=110, end="target")
    assert "solo una pareja puede llegar a la meta de 100" in page and "both pairs" not in page
    page = act(org.client, one, "result", score_a=100, score_b=100, end="target")
    assert "100–100 es un empate" in page
    org.client.cookies["django_language"] = "en"
    page = act(org.client, one, "result", score_a=120, score_b=110, end="target")
    assert "only one pair can reach the target of 100" in page


def test_import_export_round_trip(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    raw = {
        "format": "amigos-event/1", "name": "Importado", "origin": "Casa", "date": "2026-11-21",
        "players": ["A", "B", "C", "D", "E"], "target": 200, "stake": 5, "extra_payment": True,
        "results": [{"round": 1, "table": 1, "score": [200, 30]}, {"round": 2, "table": 1, "score": [90, 20],
                    "end": "suspended"}],
        "penalties": [{"round": 1, "player": 2, "points": 7}],
    }  # fmt: skip
    upload = _upload(json.dumps(raw))
    response = org.client.post(reverse("events:import"), {"file": upload})
    event = Event.objects.get(name="Importado")
    assert response.url == reverse("events:detail", args=[event.pk])
    # Regression: a partly played import started at once; now it waits for the organizer.
    assert event.status == "draft" and event.current_round == 3
    org.client.post(reverse("events:start", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == "running" and event.matches.filter(round=3).count() == 1
    exported = json.loads(org.client.get(reverse("events:export", args=[event.pk])).content)
    assert parse_event(json.dumps(exported)) == parse_event(json.dumps(raw))
    bad = org.client.post(reverse("events:import"), {"file": _upload('{"format": "x"}')}, follow=True)
    assert (
        "El archivo fue rechazado" in bad.content.decode()
        and "no es un archivo de juego" in bad.content.decode()
    )
    assert "unknown format" not in bad.content.decode()


def _upload(text: str) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("event.json", text.encode(), content_type="application/json")


def test_every_change_bumps_the_version_the_board_watches(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client)
    page = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert f'data-live-event="{event.pk}"' in page and "data-poll-url" not in page
    first = event.version
    fill_players(org.client, event)
    event.refresh_from_db()
    assert event.version > first


def test_pages_need_an_account(client: Client) -> None:
    response = client.get(reverse("events:home"))
    assert response.status_code == 302 and "sign-in" in response.url
    assert isinstance(User.objects.count(), int)


def test_spanish_first_with_english_available(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client)
    page = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "El juego aún no inicia." in page and f'href="{reverse("events:home")}"' in page
    org.client.cookies["django_language"] = "en"
    page = org.client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert "The event has not started yet." in page


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_catalogs_are_complete_and_compiled(lang: str) -> None:
    import gettext
    from pathlib import Path

    import amigos.web.events as app

    folder = Path(app.__file__).parent / "locale" / lang / "LC_MESSAGES"
    po = (folder / "django.po").read_text(encoding="utf-8")
    header = 'msgid ""\nmsgstr ""\n"'
    blocks = [b for b in po.split("\n\n") if b.startswith("msgid") and not b.startswith(header)]
    assert len(blocks) > 150
    with (folder / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for block in blocks:
        assert 'msgstr ""' not in block and 'msgstr[0] ""' not in block, block
        if "msgid_plural" not in block:
            msgid = block.split("\nmsgstr ")[0].removeprefix("msgid ")
            msgstr = block.split("\nmsgstr ")[1]
            assert compiled.gettext(json.loads(msgid)) == json.loads(msgstr), block


def test_a_draft_can_be_discarded_but_not_a_started_event(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    event = new_event(org.client)
    org.client.post(reverse("events:discard", args=[event.pk]))
    assert not Event.objects.filter(pk=event.pk).exists()
    event = new_event(org.client)  # free again to organize
    fill_players(org.client, event)
    org.client.post(reverse("events:start", args=[event.pk]))
    response = org.client.post(reverse("events:discard", args=[event.pk]), follow=True)
    assert "Solo se descarta un juego que no ha iniciado." in response.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()


def test_import_refuses_over_long_names_and_accepts_a_bom(sign_in: Callable[..., Any]) -> None:
    org = sign_in("Ana")
    raw = {"format": "amigos-event/1", "players": ["x" * 61, "b", "c", "d"], "target": 100, "results": []}
    page = org.client.post(reverse("events:import"), {"file": _upload(json.dumps(raw))}, follow=True)
    assert "más largo" in page.content.decode()
    raw["players"][0] = "Ana"
    upload = _upload("\ufeff" + json.dumps(raw))
    assert org.client.post(reverse("events:import"), {"file": upload}).status_code == 302
    assert Event.objects.filter(organizer=org.user, status="draft").count() == 1


def test_staff_see_events_in_the_administration(sign_in: Callable[..., Any]) -> None:
    staff = sign_in("Admin", is_staff=True, is_superuser=True)
    event = new_event(staff.client)
    assert staff.client.get(reverse("admin:events_event_changelist")).status_code == 200
    assert staff.client.get(reverse("admin:events_event_change", args=[event.pk])).status_code == 200
    assert staff.client.get(reverse("admin:events_tablematch_changelist")).status_code == 200
