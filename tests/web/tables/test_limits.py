"""What one account may hold and create (docs/rules.md, "A player's tables"): one open live table
at a time, a few correspondence games, a bounded number of new tables in a window, and table
names held to the display names' character rules. Each refusal has a code, a translated text and
creates nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import override

from amigos.web.accounts.models import User
from amigos.web.tables import services, views
from amigos.web.tables.models import Status, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def documented_limits(settings: Any) -> None:
    """The documented defaults, whatever the environment says."""
    settings.AMIGOS_LIVE_TABLES_PER_PLAYER = 1
    settings.AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER = 5
    settings.AMIGOS_TABLES_CREATED_PER_WINDOW = 10
    settings.AMIGOS_TABLE_CREATION_WINDOW_SECONDS = 600


def refusal_of(call: Callable[[], object]) -> str:
    with pytest.raises(services.TableRefused) as refused:
        call()
    return refused.value.code


def computer_game(user: User, **extra: Any) -> Table:
    return services.play_against_computer(user=user, variant="cuban-1v1", level="hard", **extra)


def test_a_player_holds_one_live_table_at_a_time(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    first = computer_game(ana)
    assert refusal_of(lambda: computer_game(ana)) == "live_table_open"
    assert (
        refusal_of(
            lambda: services.create_table(
                organizer=ana, name="Otra", variant="cuban-1v1", seats={1: services.SeatChoice(level="easy")}
            )
        )
        == "live_table_open"
    )
    assert Table.objects.count() == 1
    # Once it ends, the next one may be made.
    Table.objects.filter(pk=first.pk).update(status=Status.FINISHED)
    assert computer_game(ana).pk != first.pk


def test_a_live_table_does_not_keep_a_player_from_correspondence_games_up_to_their_limit(
    make_player: Callable[..., User],
) -> None:
    ana = make_player("Ana")
    computer_game(ana)
    made = [
        services.create_table(
            organizer=ana,
            name=f"Carta {number}",
            variant="cuban-1v1",
            kind="correspondence",
            seats={1: services.SeatChoice(level="easy")},
        )
        for number in range(5)
    ]
    assert len(made) == 5
    sixth = refusal_of(
        lambda: services.create_table(
            organizer=ana,
            name="Carta 6",
            variant="cuban-1v1",
            kind="correspondence",
            seats={1: services.SeatChoice(level="easy")},
        )
    )
    assert sixth == "correspondence_full"
    assert Table.objects.filter(kind="correspondence").count() == 5


def test_a_player_already_at_a_live_table_cannot_be_invited_to_another(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto, carla = make_player("Ana"), make_player("Beto"), make_player("Carla")
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk, carla.pk})
    services.create_table(
        organizer=ana, name="Mesa", variant="cuban-1v1", seats={1: services.SeatChoice(user_id=beto.pk)}
    )
    # Beto is invited at Ana's table (a pending invitation counts): Carla cannot seat him too.
    code = refusal_of(
        lambda: services.create_table(
            organizer=carla, name="Otra", variant="cuban-1v1", seats={1: services.SeatChoice(user_id=beto.pk)}
        )
    )
    assert code == "player_busy"
    assert not Table.objects.filter(organizer=carla).exists()


def test_an_account_creates_a_bounded_number_of_tables_in_the_window(
    make_player: Callable[..., User],
) -> None:
    """The probe made 150 tables against the computer in 15 s from one account."""
    ana = make_player("Ana")
    start = timezone.now()
    for number in range(10):
        table = computer_game(ana, now=start + timedelta(seconds=number))
        Table.objects.filter(pk=table.pk).update(status=Status.FINISHED)  # the one-at-a-time rule aside
    late = start + timedelta(seconds=20)
    assert refusal_of(lambda: computer_game(ana, now=late)) == "creating_too_fast"
    assert Table.objects.count() == 10
    # Once the window has passed the first creations, the account may create again.
    assert computer_game(ana, now=start + timedelta(seconds=601)).pk


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Mesa \u202eanA", "name_invisible"),  # a right-to-left override turns the text around
        ("Me\u200bsa", "name_invisible"),  # a zero-width space
        ("Mesa \u0301", "name_marks"),
        ("Mеsa", "name_mixed_scripts"),  # a Cyrillic е among Latin letters
        ("mesa@club", "name_at_sign"),
    ],
)
def test_table_names_follow_the_display_names_character_rules(
    make_player: Callable[..., User], name: str, code: str
) -> None:
    ana = make_player("Ana")
    refused = refusal_of(
        lambda: services.create_table(
            organizer=ana, name=name, variant="cuban-1v1", seats={1: services.SeatChoice(level="easy")}
        )
    )
    assert refused == code
    assert not Table.objects.exists()


def test_a_table_name_is_stored_as_display_names_are(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    table = services.create_table(
        organizer=ana,
        name="  Los   del ＰＡＲＱＵＥ ",
        variant="cuban-1v1",
        seats={1: services.SeatChoice(level="easy")},
    )
    assert table.name == "Los del PARQUE"


def test_a_computer_game_of_a_player_with_a_cyrillic_name_is_not_refused_for_its_own_name(
    make_player: Callable[..., User],
) -> None:
    """The site names a computer game after its player, in Latin words beside the player's name
    (in the language of the player who opens it)."""
    with override("es"):
        table = computer_game(make_player("Ирина"))
    assert table.name == "Ирина contra la computadora"


@pytest.mark.parametrize(
    "code",
    [
        "name_invisible",
        "name_marks",
        "name_mixed_scripts",
        "name_at_sign",
        "creating_too_fast",
        "live_table_open",
        "correspondence_full",
        "player_busy",
    ],
)
def test_every_refusal_reads_in_spanish_and_english(code: str) -> None:
    with override("es"):
        spanish, spanish_fallback = views.refusal_text(code), views.refusal_text("no_such_code")
    with override("en"):
        english, english_fallback = views.refusal_text(code), views.refusal_text("no_such_code")
    assert spanish != english
    assert (spanish, english) != (spanish_fallback, english_fallback)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_play_against_the_computer_form_says_why_a_second_live_table_is_refused(
    make_player: Callable[..., User],
) -> None:
    ana = make_player("Ana")
    client = signed_in(ana)
    form = {"variant": "cuban-1v1", "level": "hard", "players": ""}
    first = client.post(reverse("tables:computer"), form)
    assert first.status_code == 302 and "/mesas/" in first["Location"]
    second = client.post(reverse("tables:computer"), form, follow=True, HTTP_ACCEPT_LANGUAGE="es")
    assert Table.objects.count() == 1
    with override("es"):
        expected = views.refusal_text("live_table_open")
    assert escape(expected) in second.content.decode()


def test_the_new_table_form_refuses_a_name_with_a_direction_override_and_is_rate_limited(
    make_player: Callable[..., User], settings: Any
) -> None:
    ana = make_player("Ana")
    client = signed_in(ana)
    form = {
        "name": "Mesa \u202e",
        "variant": "cuban-1v1",
        "kind": "correspondence",
        "seat_1": "computer:easy",
    }
    page = client.post(reverse("tables:new"), form)
    assert page.status_code == 200 and not Table.objects.exists()
    with override("es"):
        assert escape(views.refusal_text("name_invisible")) in page.content.decode()
    settings.AMIGOS_TABLES_CREATED_PER_WINDOW = 2
    settings.AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER = 10
    form["name"] = "Carta"
    assert client.post(reverse("tables:new"), form).status_code == 302
    assert client.post(reverse("tables:new"), form).status_code == 302
    third = client.post(reverse("tables:new"), form)
    assert third.status_code == 200 and Table.objects.count() == 2
    with override("es"):
        assert escape(views.refusal_text("creating_too_fast")) in third.content.decode()


def presence(table: Table, *kinds: str, seat: int = 0) -> None:
    """The table's log says the seat's player went away / came back, in this order."""
    from amigos.web.tables.models import LogRow

    start = LogRow.objects.filter(table=table).count()
    LogRow.objects.bulk_create(
        LogRow(table=table, version=start + n, kind=kind, data={"seat": seat}, at=timezone.now())
        for n, kind in enumerate(kinds, start=1)
    )


def test_a_practice_table_the_player_walked_away_from_does_not_hold_them(
    make_player: Callable[..., User],
) -> None:
    """Issue 38: a player who closed a game against the computer waited minutes, until it ended,
    before any other live table; the table they left no longer counts."""
    ana = make_player("Ana")
    first = computer_game(ana)
    presence(first, "disconnected")
    second = computer_game(ana)
    assert second.pk != first.pk
    # Back at the second one and gone from it, then back again: it counts once more.
    presence(second, "disconnected", "reconnected")
    assert refusal_of(lambda: computer_game(ana)) == "live_table_open"


def test_a_table_of_people_the_player_left_still_holds_them(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk})
    table = services.create_table(
        organizer=ana, name="Mesa", variant="cuban-1v1", seats={1: services.SeatChoice(user_id=beto.pk)}
    )
    presence(table, "disconnected")
    assert refusal_of(lambda: computer_game(ana)) == "live_table_open"
