"""Games with friends (issue 39, item 5): a correspondence game may invite any registered player,
online or not, found by name (the players one played with lately first). The invitation waits a day
or what the organizer chooses up to a week, in the friend's "my games" and the meeting room, and a
verified address gets an e-mail. Every refusal has a code and a translated text and creates
nothing: inviting oneself, a suspended player, someone over the limit, an id of nobody."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from amigos.web.accounts.models import User
from amigos.web.accounts.selectors import players_named
from amigos.web.tables import selectors, services
from amigos.web.tables.models import Invitation, Kind, Seat, Table
from tests.web.conftest import SignedIn
from tests.web.tables.support import stored_table

pytestmark = pytest.mark.django_db

URL = reverse("tables:friends")


@pytest.fixture(autouse=True)
def documented_limits(settings: Any) -> None:
    settings.AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER = 5
    settings.AMIGOS_TABLES_CREATED_PER_WINDOW = 10
    settings.AMIGOS_TABLE_CREATION_WINDOW_SECONDS = 600


def in_language(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def invite(client: Client, *others: User | str, days: int = 1, **extra: Any) -> Any:
    """Post the friends form for a game with ``others`` in seats 1, 2, 3 (a user or a raw value)."""
    seats = {}
    for field, other in zip(("seat_1", "seat_2", "seat_3"), others, strict=False):
        seats[field] = other if isinstance(other, str) else f"user:{other.pk}"
    variant = "cuban-1v1" if len(others) == 1 else "amigos-100"
    data = {"name": "Con amigos", "variant": variant, "answer_days": days, **seats, **extra}
    return client.post(URL, data)


def test_an_offline_registered_player_is_invited_and_the_invitation_waits(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana", time_zone="Europe/Madrid")
    beto = make_player("Beto", time_zone="America/Havana")  # never signed in: not online
    before = timezone.now()
    response = invite(in_language(ana.client, "es"), beto, days=3)
    assert response.status_code == 302 and response["Location"] == reverse("tables:my_games")
    table = Table.objects.get()
    assert table.kind == Kind.CORRESPONDENCE and table.organizer_id == ana.user.pk
    seat = Seat.objects.get(table=table, user=beto)
    assert seat.invitation == Invitation.PENDING and seat.invited_until is not None
    assert timedelta(days=3) <= seat.invited_until - before < timedelta(days=3, minutes=1)
    assert table.deadline_at == seat.invited_until and table.deadline_kind == "invitation"
    mine = ana.client.get(response["Location"]).content.decode()
    assert "Invitación enviada" in mine
    # Ana reads until when the invitation stays open, in her own zone.
    until = timezone.localtime(seat.invited_until, zoneinfo.ZoneInfo("Europe/Madrid"))
    assert f"La invitación sigue abierta hasta el {until:%d/%m/%Y %H:%M} (quedan " in mine
    # It waits in Beto's lobby (the socket's list of invitations) and in his games.
    assert [entry["table_id"] for entry in selectors.open_invitations(beto.pk)] == [table.pk]
    [game] = selectors.my_games(beto.pk)
    assert game["invited"] and game["invited_until"] == seat.invited_until


def test_the_invited_friend_reads_the_answer_deadline_in_their_own_zone(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = make_player("Ana")
    beto = sign_in("Beto", time_zone="America/Havana")
    at = datetime(2026, 11, 28, 14, 20, tzinfo=UTC)
    services.create_table(
        organizer=ana,
        name="Con amigos",
        variant="cuban-1v1",
        kind=Kind.CORRESPONDENCE,
        seats={1: services.SeatChoice(user_id=beto.user.pk)},
        now=at,
        answer_within=timedelta(days=2),
    )
    page = in_language(beto.client, "es").get(reverse("tables:my_games")).content.decode()
    # 14:20 UTC two days later is 09:20 in Havana; the text never shows the stored UTC digits.
    assert "Responde antes del 30/11/2026 09:20" in page and "14:20" not in page
    assert "Te invitaron" in page
    english = in_language(beto.client, "en").get(reverse("tables:my_games")).content.decode()
    assert "Answer by 30 Nov 2026, 09:20" in english and "You are invited" in english


def test_an_invitation_waits_between_a_day_and_a_week(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")

    def create(**extra: Any) -> Table:
        return services.create_table(
            organizer=ana,
            name="Con amigos",
            variant="cuban-1v1",
            seats={1: services.SeatChoice(user_id=beto.pk)},
            **extra,
        )

    for wrong in (timedelta(hours=2), timedelta(days=8)):
        with pytest.raises(services.TableRefused) as refused:
            create(kind=Kind.CORRESPONDENCE, answer_within=wrong)
        assert refused.value.code == "bad_answer_time"
    with pytest.raises(services.TableRefused) as refused:
        create(kind=Kind.LIVE, answer_within=timedelta(days=1))  # a live table keeps its 30 s
    assert refused.value.code == "bad_answer_time"
    assert not Table.objects.exists()
    table = create(kind=Kind.CORRESPONDENCE, answer_within=timedelta(days=7))
    assert table.kind == Kind.CORRESPONDENCE


def test_the_form_offers_only_a_day_to_a_week(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    beto = make_player("Beto")
    response = invite(ana.client, beto, days=30)
    assert response.status_code == 400 and not Table.objects.exists()
    page = in_language(ana.client, "es").get(URL).content.decode()
    assert '<option value="1" selected>1 día</option>' in page and '<option value="7">7 días</option>' in page


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("es", "Cada asiento necesita un jugador o una computadora"),
        ("en", "Each seat needs one player or one computer player, and nobody sits twice."),
    ],
)
def test_inviting_oneself_is_refused(sign_in: Callable[..., SignedIn], language: str, text: str) -> None:
    ana = sign_in("Ana")
    response = invite(in_language(ana.client, language), ana.user)
    assert response.status_code == 400 and escape(text) in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("es", "Uno de los jugadores elegidos está suspendido y ahora no se le puede invitar."),
        ("en", "One of the chosen players is suspended and cannot be invited now."),
    ],
)
def test_a_suspended_player_cannot_be_invited(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User], language: str, text: str
) -> None:
    ana = sign_in("Ana")
    beto = make_player("Beto", suspended_until=timezone.now() + timedelta(days=2))
    response = invite(in_language(ana.client, language), beto)
    assert response.status_code == 400 and text in response.content.decode()
    assert not Table.objects.exists()
    # Once the suspension has run out, he may be invited again.
    User.objects.filter(pk=beto.pk).update(suspended_until=timezone.now() - timedelta(minutes=1))
    assert invite(ana.client, beto).status_code == 302


def correspondence_games(player: User, count: int, partner: User) -> None:
    at = timezone.now() - timedelta(hours=1)
    for _ in range(count):
        table = stored_table([player, partner], at, accepted=True)
        Table.objects.filter(pk=table.pk).update(kind=Kind.CORRESPONDENCE, status="playing")


def test_the_organizer_over_the_limit_is_refused(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    beto, carla = make_player("Beto"), make_player("Carla")
    correspondence_games(ana.user, 5, carla)
    before = Table.objects.count()
    response = invite(in_language(ana.client, "es"), beto)
    assert response.status_code == 400
    assert "Ya tienes todas las partidas por correspondencia" in response.content.decode()
    assert Table.objects.count() == before


def test_a_friend_over_the_limit_is_refused(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    beto, carla = make_player("Beto"), make_player("Carla")
    correspondence_games(beto, 5, carla)
    before = Table.objects.count()
    response = invite(in_language(ana.client, "en"), beto)
    assert response.status_code == 400
    assert "One of the chosen players is already at as many tables" in response.content.decode()
    assert Table.objects.count() == before


@pytest.mark.parametrize(
    "forged", ["user:999999", "user:0", "user:-1", "user:abc", "user:", "robot:1", "computer:"]
)
def test_forged_seats_are_refused(sign_in: Callable[..., SignedIn], forged: str) -> None:
    ana = sign_in("Ana")
    response = invite(in_language(ana.client, "en"), forged)
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "Choose who sits here." in page
        or "One of the chosen players does not exist any more." in page
        or escape("Each seat needs one player or one computer player") in page
        or "Choose easy, normal or hard" in page
    )
    assert not Table.objects.exists()


def test_an_inactive_account_cannot_be_invited(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    gone = make_player("Beto", is_active=False)
    response = invite(in_language(ana.client, "en"), gone)
    assert response.status_code == 400 and "does not exist any more" in response.content.decode()
    assert not Table.objects.exists()


def test_a_signed_out_visitor_is_sent_to_sign_in(client: Client, make_player: Callable[..., User]) -> None:
    beto = make_player("Beto")
    response = invite(client, beto)
    assert response.status_code == 302 and "/accounts/sign-in/" in response["Location"]
    assert not Table.objects.exists()


def test_players_are_found_by_name_never_by_address(make_player: Callable[..., User]) -> None:
    ana = make_player("Ana")
    jose = make_player("José Pérez")
    make_player("Josefina")
    gone = make_player("Joselito", is_active=False)
    found = players_named("jose", exclude=ana.pk)
    assert [name for _pk, name in found] == ["José Pérez", "Josefina"]
    assert gone.pk not in [pk for pk, _name in found]
    assert players_named(jose.email, exclude=ana.pk) == []
    assert players_named("j", exclude=ana.pk) == []
    assert players_named("Ana", exclude=ana.pk) == []


def test_recent_opponents_come_first_then_the_search(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    dani, beto = make_player("Dani"), make_player("Beto Ruiz")
    stored_table([ana.user, dani], timezone.now() - timedelta(days=3), accepted=True)
    page = in_language(ana.client, "es").get(URL, {"q": "beto"}).content.decode()
    assert page.index(f'value="user:{dani.pk}"') < page.index(f'value="user:{beto.pk}"')
    assert page.index('label="Jugaron contigo hace poco"') < page.index(f'value="user:{dani.pk}"')
    assert page.index('label="Jugadores"') < page.index(f'value="user:{beto.pk}"')
    assert 'data-found="1"' in page
    without = ana.client.get(URL).content.decode()
    assert f'value="user:{dani.pk}"' in without and f'value="user:{beto.pk}"' not in without


def test_a_verified_friend_gets_an_email_in_both_languages_in_their_zone(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = sign_in("Ana")
    beto = make_player("Beto", time_zone="America/Havana")
    carla = make_player("Carla", email_verified_at=None)
    response = ana.client.post(
        URL,
        {
            "name": "Mesa del barrio",
            "variant": "draw-100",
            "players": 3,
            "answer_days": 2,
            "seat_1": f"user:{beto.pk}",
            "seat_2": f"user:{carla.pk}",
        },
    )
    assert response.status_code == 302
    assert [message.to for message in mail.outbox] == [[beto.email]]  # Carla's address is unproven
    message = mail.outbox[0]
    until = Seat.objects.get(user=beto).invited_until
    assert until is not None
    havana = timezone.localtime(until, timezone=__import__("zoneinfo").ZoneInfo("America/Havana"))
    assert "Ana te invita a la partida por correspondencia «Mesa del barrio»." in message.body
    assert "Ana invites you to the correspondence game «Mesa del barrio»." in message.body
    assert havana.strftime("%H:%M") in message.body
    assert "http://testserver" + reverse("tables:my_games") in message.body


def test_the_meeting_room_says_how_many_games_wait_for_me(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = make_player("Ana")
    beto = sign_in("Beto")
    lobby = in_language(beto.client, "es")
    assert 'id="games-waiting"' not in lobby.get(reverse("lobby:home")).content.decode()
    for name in ("Una", "Otra"):
        services.create_table(
            organizer=ana,
            name=name,
            variant="cuban-1v1",
            kind=Kind.CORRESPONDENCE,
            seats={1: services.SeatChoice(user_id=beto.user.pk)},
        )
    page = lobby.get(reverse("lobby:home")).content.decode()
    assert "2 partidas por correspondencia te esperan." in page
    english = in_language(beto.client, "en").get(reverse("lobby:home")).content.decode()
    assert "2 correspondence games wait for you." in english
    # The organizer waits for Beto: nothing waits for her.
    assert selectors.games_waiting(ana.pk) == 0 and selectors.games_waiting(beto.user.pk) == 2
