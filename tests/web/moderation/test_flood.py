"""Issue 36, item 4: every chat line, report and mute is limited like the lobby chat, per player.

The rule itself (`moderation.flood`) with a fake clock; then real sockets: a spectator flooding a
table's chat, one player's two sockets sharing one limit, lines stored by another process counting
too, and reports and mutes refused past the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.moderation import flood, services
from amigos.web.moderation.models import Report
from amigos.web.tables import registry
from amigos.web.tables import services as tables
from amigos.web.tables.models import TableChatLine
from tests.web.conftest import ServerThread, SignedIn
from tests.web.moderation.support import START, table_for
from tests.web.test_socket import Peer, connect, of_type


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_rule_counts_each_player_and_kind_apart_within_the_window(settings: Any) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT, settings.AMIGOS_CHAT_FLOOD_WINDOW_SECONDS = 3, 10
    clock = Clock()
    recent = flood.RecentActions(clock)
    table = flood.Budget.TABLE_CHAT
    assert [recent.take(table, 1) for _ in range(4)] == [True, True, True, False]
    # Another player, and another kind of the same player, are counted apart.
    assert recent.take(table, 2)
    assert recent.take(flood.Budget.LOBBY_CHAT, 1) and recent.take(flood.Budget.REPORT, 1)
    clock.now += 9.9
    assert not recent.take(table, 1)  # a refusal is not counted, but the window has not passed
    clock.now += 0.1
    assert recent.take(table, 1)  # the first three left the window together


def test_players_who_stopped_are_forgotten(settings: Any) -> None:
    """The memory held is that of the players who acted within the window, not of all who ever did."""
    settings.AMIGOS_CHAT_FLOOD_COUNT, settings.AMIGOS_CHAT_FLOOD_WINDOW_SECONDS = 3, 10
    clock = Clock()
    recent = flood.RecentActions(clock)
    for user_id in range(500):
        recent.take(flood.Budget.LOBBY_CHAT, user_id)
    assert len(recent) == 500
    clock.now += 10
    recent.take(flood.Budget.LOBBY_CHAT, 999)
    assert len(recent) == 1


@pytest.mark.django_db
def test_stored_reports_count_across_processes(make_player: Callable[..., User], settings: Any) -> None:
    """The database is the authority: reports another process stored within the window count."""
    settings.AMIGOS_CHAT_FLOOD_COUNT, settings.AMIGOS_CHAT_FLOOD_WINDOW_SECONDS = 2, 10
    ana, beto = make_player("Ana"), make_player("Beto")
    old = START - timedelta(seconds=10)
    services.report(reporter=ana, reported_id=beto.pk, comment="antes", now=old)
    for comment in ("uno", "dos"):
        services.report(reporter=ana, reported_id=beto.pk, comment=comment, now=START)
    with pytest.raises(services.ModerationError) as refused:
        services.report(reporter=ana, reported_id=beto.pk, comment="tres", now=START)
    assert refused.value.code == "flood"
    assert Report.objects.count() == 3
    # Another reporter is not held back.
    services.report(reporter=beto, reported_id=ana.pk, comment="yo también", now=START)


# -- real sockets ----------------------------------------------------------------------------------


@pytest.fixture
async def fresh_registry() -> Any:
    registry.use_clock(None)
    yield
    await registry.stop_all()
    registry.use_clock(None)


async def command(peer: Peer, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return await peer.reply(await peer.send(kind, payload))


async def welcomed(server: ServerThread, player: SignedIn) -> Peer:
    peer = await connect(server, player)
    await peer.expect(of_type("welcome"))
    return peer


def lines_of(peer: Peer, author: User) -> list[str]:
    return [
        e["payload"]["text"]
        for e in peer.received
        if e["type"] == "table.chat" and e["payload"]["author_id"] == author.pk
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_registry")
async def test_a_spectator_flooding_a_table_chat_is_refused_like_in_the_lobby(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 3
    ana, carla = [await sync_to_async(sign_in)(name) for name in ("Ana", "Carla")]
    table = await sync_to_async(tables.play_against_computer)(
        user=ana.user, variant="amigos-100", level="easy"
    )
    ana_peer, carla_peer = await welcomed(site_server, ana), await welcomed(site_server, carla)
    assert (await command(ana_peer, "table.join", {"table_id": table.pk}))["type"] == "ack"
    watching = {"table_id": table.pk, "as": "spectator"}
    assert (await command(carla_peer, "table.join", watching))["type"] == "ack"

    replies = [
        await command(carla_peer, "table.chat", {"table_id": table.pk, "text": f"spam {n}"}) for n in range(8)
    ]
    assert [r["type"] for r in replies] == ["ack"] * 3 + ["error"] * 5
    # The lobby chat's code, so each page's words for it apply.
    assert {r["payload"]["code"] for r in replies[3:]} == {"flood"}
    lobby = await command(carla_peer, "chat.send", {"text": "x"})
    assert lobby["type"] == "ack"  # the table's chat does not use up the lobby's

    # Only what was accepted was stored and reached the table.
    assert (await command(ana_peer, "table.chat", {"table_id": table.pk, "text": "basta"}))["type"] == "ack"
    await ana_peer.expect(lambda e: e["type"] == "table.chat" and e["payload"]["text"] == "basta")
    assert lines_of(ana_peer, carla.user) == ["spam 0", "spam 1", "spam 2"]
    assert await sync_to_async(TableChatLine.objects.filter(author=carla.user).count)() == 3
    for peer in (ana_peer, carla_peer):
        await peer.connection.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_registry")
async def test_more_sockets_do_not_buy_more_lines(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    settings.AMIGOS_CHAT_FLOOD_COUNT = 3
    carla = await sync_to_async(sign_in)("Carla")
    table = await sync_to_async(tables.play_against_computer)(
        user=carla.user, variant="amigos-100", level="easy"
    )
    peers = [await welcomed(site_server, carla) for _ in range(3)]
    codes = []
    for n in range(6):
        reply = await command(peers[n % 3], "table.chat", {"table_id": table.pk, "text": f"hola {n}"})
        codes.append(reply["payload"].get("code", "ack"))
    assert codes == ["ack", "ack", "ack", "flood", "flood", "flood"]
    assert await sync_to_async(TableChatLine.objects.count)() == 3
    for peer in peers:
        await peer.connection.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_registry")
async def test_table_lines_stored_by_another_process_count(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    """A socket of this process has sent nothing yet; the lines the player's sockets in other
    processes stored a moment ago (at any table) still fill the limit."""
    settings.AMIGOS_CHAT_FLOOD_COUNT = 3
    carla = await sync_to_async(sign_in)("Carla")
    table = await sync_to_async(tables.play_against_computer)(
        user=carla.user, variant="amigos-100", level="easy"
    )

    def elsewhere() -> None:
        other = table_for(carla.user)
        for n in range(3):
            TableChatLine.objects.create(
                table=other, author=carla.user, seat=0, text=f"{n}", sent_at=timezone.now()
            )

    await sync_to_async(elsewhere)()
    peer = await welcomed(site_server, carla)
    refused = await command(peer, "table.chat", {"table_id": table.pk, "text": "una más"})
    assert refused["payload"]["code"] == "flood"
    assert not await sync_to_async(TableChatLine.objects.filter(table_id=table.pk).exists)()
    await peer.connection.close()


@pytest.mark.django_db(transaction=True)
async def test_reports_and_mutes_are_limited_per_player(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    """Two sockets of Ana's share one count; reports and mutes are counted apart, so reporting a
    player never keeps her from muting them."""
    settings.AMIGOS_CHAT_FLOOD_COUNT = 3
    ana, beto = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto")]
    first, second = await welcomed(site_server, ana), await welcomed(site_server, ana)
    report = {"player_id": beto.user.pk, "comment": "insulta"}
    mute, unmute = ("moderation.mute", "moderation.unmute")
    toggles = [(mute, first), (unmute, second), (mute, first), (unmute, second)]
    reports = [await command(peer, "moderation.report", report) for peer in (first, second, first, second)]
    mutes = [await command(peer, kind, {"player_id": beto.user.pk}) for kind, peer in toggles]
    for replies in (reports, mutes):
        assert [r["payload"].get("code", r["type"]) for r in replies] == ["ack", "ack", "ack", "flood"]
    assert await sync_to_async(Report.objects.count)() == 3
    # Beto is not held back by Ana's reports.
    third = await welcomed(site_server, beto)
    back = await command(third, "moderation.report", {**report, "player_id": ana.user.pk})
    assert back["type"] == "ack"
    for peer in (first, second, third):
        await peer.connection.close()
