"""A correspondence game waiting for a player's move mails them (issue 39, item 5): at most once a
day per game, only to a verified address of an active, unsuspended account, never for a computer's
turn nor once the hand has ended, with the deadline in the player's own zone."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command

from amigos.web.accounts.models import User
from amigos.web.lobby.models import TurnReminder
from amigos.web.tables.models import Invitation, Kind, LogRow, Seat, Status, Table
from amigos.web.tables.reminders import send_turn_reminders, waiting_moves

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 28, 14, 20, tzinfo=UTC)
LINK = "https://amigos.example/mesas/mis-partidas/"


def correspondence_game(*seated: User | None, name: str = "Por carta") -> Table:
    table = Table.objects.create(
        name=name,
        variant="cuban-1v1" if len(seated) == 2 else "amigos-100",
        players=len(seated),
        kind=Kind.CORRESPONDENCE,
        status=Status.PLAYING,
        organizer=seated[0],
        created_at=NOW - timedelta(days=2),
    )
    for number, user in enumerate(seated):
        Seat.objects.create(
            table=table,
            number=number,
            user=user,
            level="" if user else "easy",
            invitation=Invitation.ACCEPTED,
        )
    return table


def event(table: Table, kind: str, data: dict[str, Any]) -> None:
    version = LogRow.objects.filter(table=table).count() + 1
    LogRow.objects.create(table=table, version=version, kind=kind, data=data, at=NOW)


def clock(table: Table, seat: int, deadline: datetime = NOW + timedelta(hours=23, minutes=5)) -> None:
    event(
        table,
        "clock",
        {"seat": seat, "deadline": deadline.isoformat().replace("+00:00", "Z"), "seconds": 86400},
    )


def test_the_player_to_move_is_mailed_once_a_day_per_game(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto", time_zone="America/Havana")
    table = correspondence_game(ana, beto)
    clock(table, 1)
    assert send_turn_reminders(now=NOW, link=LINK) == 1
    [message] = mail.outbox
    assert message.to == [beto.email]
    assert "Te toca en «Por carta»" in message.subject and "Your move in «Por carta»" in message.subject
    assert "La partida por correspondencia «Por carta» espera tu jugada." in message.body
    # 13:25 UTC tomorrow is 08:25 in Havana; 23 h 5 min are left.
    havana = (NOW + timedelta(hours=23, minutes=5)).astimezone(zoneinfo.ZoneInfo("America/Havana"))
    assert havana.strftime("%H:%M") == "08:25"
    assert "08:25 (quedan 23 h 5 min)" in message.body
    assert "29 Nov 2026, 08:25 (23 h 5 min left)" in message.body
    assert LINK in message.body
    # Within the day, no second mail for this game, even if the turn comes back to him.
    clock(table, 0)
    clock(table, 1)
    assert send_turn_reminders(now=NOW + timedelta(hours=23), link=LINK) == 0
    # A day later, one more.
    assert send_turn_reminders(now=NOW + timedelta(days=1, minutes=1), link=LINK) == 1
    assert len(mail.outbox) == 2 and TurnReminder.objects.count() == 1


def test_each_game_has_its_own_day(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    first, second = correspondence_game(ana, beto, name="Una"), correspondence_game(ana, beto, name="Otra")
    clock(first, 1)
    clock(second, 1)
    assert send_turn_reminders(now=NOW, link=LINK) == 2
    assert sorted(message.to[0] for message in mail.outbox) == [beto.email, beto.email]


def test_nobody_is_mailed_for_a_computers_turn_nor_after_the_hand_ended(
    make_player: Callable[..., User],
) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    practice = correspondence_game(ana, None, name="Práctica")
    clock(practice, 1)  # the computer's turn
    ended = correspondence_game(ana, beto, name="Terminada")
    clock(ended, 1)
    event(ended, "hand_ended", {})
    assert waiting_moves() == []
    assert send_turn_reminders(now=NOW, link=LINK) == 0 and mail.outbox == []


@pytest.mark.parametrize(
    "account",
    [
        {"email_verified_at": None},
        {"is_active": False},
        {"suspended_until": NOW + timedelta(days=3)},
    ],
)
def test_only_a_verified_active_unsuspended_player_is_mailed(
    make_player: Callable[..., User], account: dict[str, Any]
) -> None:
    ana, beto = make_player("Ana"), make_player("Beto", **account)
    table = correspondence_game(ana, beto)
    clock(table, 1)
    assert send_turn_reminders(now=NOW, link=LINK) == 0 and mail.outbox == []


def test_live_tables_and_games_not_being_played_are_left_alone(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    live = correspondence_game(ana, beto, name="En vivo")
    Table.objects.filter(pk=live.pk).update(kind=Kind.LIVE)
    clock(live, 1)
    finished = correspondence_game(ana, beto, name="Acabada")
    Table.objects.filter(pk=finished.pk).update(status=Status.FINISHED)
    clock(finished, 1)
    assert send_turn_reminders(now=NOW, link=LINK) == 0


def test_the_command_mails_with_the_sites_link(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    clock(correspondence_game(ana, beto), 1)
    out = StringIO()
    call_command("remind_turns", "--site", "https://club.example/", stdout=out)
    assert out.getvalue().strip() == "sent=1"
    assert "https://club.example/mesas/mis-partidas/" in mail.outbox[0].body
