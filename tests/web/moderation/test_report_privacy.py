"""Issue 36, item 4: a report's answer reveals nothing about a table the reporter cannot see.

A correspondence game is seen by its own players only. Reporting someone there, or a line of its
chat, gets the answer a table or line that does not exist gets, whoever sits there and whoever
wrote the line; its own players still report as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.moderation import services
from amigos.web.moderation.models import Report
from amigos.web.tables.models import Kind, Table, TableChatLine
from tests.web.conftest import ServerThread, SignedIn
from tests.web.moderation.support import START, table_for
from tests.web.test_socket import connect, of_type

MISSING = 10**9


def private_game(*players: User) -> tuple[Table, TableChatLine]:
    """A correspondence game of ``players`` (the first two seated, the rest computer players) and
    a line of its chat by the second."""
    table = table_for(*players)
    Table.objects.filter(pk=table.pk).update(kind=Kind.CORRESPONDENCE)
    table.refresh_from_db()
    line = TableChatLine.objects.create(table=table, author=players[1], seat=1, text="secreto", sent_at=START)
    return table, line


def code_of(reporter: User, **fields: Any) -> str:
    try:
        services.report(reporter=reporter, comment="x", now=START, **fields)
    except services.ModerationError as error:
        return error.code
    return "filed"


@pytest.mark.django_db
def test_a_private_games_seats_and_lines_answer_as_missing(
    make_player: Callable[..., User], settings: Any
) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 100
    beto, dora, ana, eva = (make_player(name) for name in ("Beto", "Dora", "Ana", "Eva"))
    table, line = private_game(dora, beto)
    asked = {
        "the author of a line": code_of(ana, reported_id=beto.pk, table_id=table.pk, table_line_id=line.pk),
        "someone else for that line": code_of(
            ana, reported_id=dora.pk, table_id=table.pk, table_line_id=line.pk
        ),
        "a line that does not exist": code_of(
            ana, reported_id=beto.pk, table_id=table.pk, table_line_id=MISSING
        ),
        "at a table that does not exist": code_of(
            ana, reported_id=beto.pk, table_id=MISSING, table_line_id=MISSING
        ),
    }
    assert set(asked.values()) == {"unknown_line"}, asked
    seats = {
        "a player seated there": code_of(ana, reported_id=beto.pk, table_id=table.pk),
        "a player not seated there": code_of(ana, reported_id=eva.pk, table_id=table.pk),
        "a table that does not exist": code_of(ana, reported_id=beto.pk, table_id=MISSING),
    }
    assert set(seats.values()) == {"unknown_table"}, seats
    assert not Report.objects.exists()

    # The game's own players report as before.
    assert code_of(dora, reported_id=beto.pk, table_id=table.pk, table_line_id=line.pk) == "filed"
    assert code_of(dora, reported_id=eva.pk, table_id=table.pk) == "not_at_table"


@pytest.mark.django_db
def test_anyone_may_report_a_line_of_a_live_table_spectators_lines_too(
    make_player: Callable[..., User],
) -> None:
    """A live table is watched by anyone, and a spectator may chat there: the line proves who wrote
    it, though they hold no seat (the desk refused such lines with not_at_table before)."""
    ana, beto, carla = make_player("Ana"), make_player("Beto"), make_player("Carla")
    table = table_for(ana, beto)
    line = TableChatLine.objects.create(table=table, author=carla, seat=None, text="feo", sent_at=START)
    row = services.report(
        reporter=beto,
        reported_id=carla.pk,
        comment="insulta",
        now=START,
        table_id=table.pk,
        table_line_id=line.pk,
    )
    assert (row.place, row.table_line_id) == ("table_chat", line.pk)


@pytest.mark.django_db(transaction=True)
async def test_over_a_socket_the_answers_are_the_same_to_the_byte(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    ana = await sync_to_async(sign_in)("Ana")
    dora, beto = await sync_to_async(make_player)("Dora"), await sync_to_async(make_player)("Beto")
    table, line = await sync_to_async(private_game)(dora, beto)
    peer = await connect(site_server, ana)
    await peer.expect(of_type("welcome"))

    async def answer(**fields: int) -> dict[str, Any]:
        reply = await peer.reply(await peer.send("moderation.report", {"comment": "x", **fields}))
        assert reply["type"] == "error"
        return {name: value for name, value in reply["payload"].items() if name != "reply_to"}

    hidden = await answer(player_id=beto.pk, table_id=table.pk, table_line_id=line.pk)
    missing = await answer(player_id=beto.pk, table_id=table.pk, table_line_id=MISSING)
    assert hidden == missing and hidden["code"] == "unknown_line"
    seated = await answer(player_id=beto.pk, table_id=table.pk)
    nowhere = await answer(player_id=beto.pk, table_id=MISSING)
    assert seated == nowhere and seated["code"] == "unknown_table"
    await peer.connection.close()
