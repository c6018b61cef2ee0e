"""The expert computer level (issue 41, item 5): chosen from the lobby's forms like the other
levels, named in both languages, and refused, with a translated reason, in Cuban, where it is not
offered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from django.forms import ChoiceField
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from amigos.bots.hard import EXPERT_SETTINGS, HardBot
from amigos.bots.registry import find_bot
from amigos.web.accounts.models import User
from amigos.web.tables import services, views
from amigos.web.tables.forms import ComputerGameForm, CreateTableForm
from amigos.web.tables.models import Seat, Table
from amigos.web.tables.seat_names import computer_label, computer_name

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def generous_limits(settings: Any) -> None:
    settings.AMIGOS_LIVE_TABLES_PER_PLAYER = 1
    settings.AMIGOS_TABLES_CREATED_PER_WINDOW = 10


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_offers_the_expert_level_in_both_languages(make_player: Callable[..., User]) -> None:
    client = signed_in(make_player("Ana"))
    spanish = client.get(reverse("lobby:home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<option value="expert">experto</option>' in spanish
    for language, word in (("en", "expert"), ("es", "experto")):
        with translation.override(language):
            level = ComputerGameForm().fields["level"]
            assert isinstance(level, ChoiceField)
            assert str(dict(cast(Any, level.choices))["expert"]) == word
    with translation.override("en"):
        seat = CreateTableForm().fields["seat_1"]
        assert isinstance(seat, ChoiceField)
        groups = dict(cast(Any, seat.choices))
        computers = dict(groups["Computer players"])
    assert "computer:expert" in computers


def test_playing_the_expert_level_from_the_lobby_seats_expert_computers(
    make_player: Callable[..., User],
) -> None:
    client = signed_in(make_player("Ana"))
    form = {"variant": "all-fives-100", "level": "expert", "players": "2"}
    answer = client.post(reverse("tables:computer"), form)
    assert answer.status_code == 302 and "/mesas/" in answer["Location"]
    table = Table.objects.get()
    assert list(Seat.objects.filter(table=table, user__isnull=True).values_list("level", flat=True)) == [
        "expert"
    ]
    # The level the seats name is the one that thinks for them.
    bot = find_bot("expert")
    assert isinstance(bot, HardBot) and bot.settings == EXPERT_SETTINGS and bot.name == "expert"


@pytest.mark.parametrize("variant", ["cuban-2v2", "cuban-1v1"])
def test_the_expert_level_is_refused_in_cuban_with_a_reason(
    make_player: Callable[..., User], variant: str
) -> None:
    ana = make_player("Ana")
    assert ComputerGameForm({"variant": variant, "level": "expert"}).is_valid()  # the form only shapes
    answer = signed_in(ana).post(
        reverse("tables:computer"),
        {"variant": variant, "level": "expert", "players": ""},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert not Table.objects.exists()
    with translation.override("es"):
        reason = views.refusal_text("expert_not_offered")
    assert "experto" in reason
    assert escape(reason) in answer.content.decode()
    with pytest.raises(services.TableRefused) as refused:
        services.create_table(
            organizer=ana,
            name="Mesa",
            variant=variant,
            kind="correspondence",
            seats={
                number: services.SeatChoice(level="expert")
                for number in range(1, 4 if "2v2" in variant else 2)
            },
        )
    assert refused.value.code == "expert_not_offered"
    assert not Table.objects.exists()


def test_an_expert_seat_of_a_new_table_is_accepted_in_amigos(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    table = services.create_table(
        organizer=ana,
        name="Mesa",
        variant="amigos-100",
        kind="correspondence",
        seats={number: services.SeatChoice(level="expert") for number in range(1, 4)},
    )
    assert sorted(table.seats.exclude(level="").values_list("level", flat=True)) == ["expert"] * 3


def test_an_unknown_level_still_names_the_four_levels() -> None:
    with translation.override("en"):
        assert "expert" in views.refusal_text("bad_level")
    with translation.override("es"):
        assert "experto" in views.refusal_text("bad_level")


def test_an_expert_computer_is_named_in_both_languages() -> None:
    assert computer_name(2, 4, "expert") == "Computadora Norte (experto)"
    with translation.override("en"):
        assert computer_label(2, 4, "expert") == "Computer North (expert)"
    with translation.override("es"):
        assert computer_label(2, 4, "expert") == "Computadora Norte (experto)"


def test_the_computer_seats_of_the_table_form_are_named_in_the_readers_language() -> None:
    """The seat names were built once at import: whichever language was active then stayed."""
    for language, name in (
        ("es", "Computadora (experto)"),
        ("en", "Computer (expert)"),
        ("es", "Computadora (difícil)"),
    ):
        with translation.override(language):
            seat = CreateTableForm().fields["seat_1"]
            assert isinstance(seat, ChoiceField)
            groups = dict(cast(Any, seat.choices))
            computers = {
                key: str(label) for key, label in next(v for k, v in groups.items() if "omput" in str(k))
            }
            assert name in computers.values(), (language, computers)
