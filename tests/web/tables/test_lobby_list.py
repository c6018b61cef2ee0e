"""The lobby's list of live tables: built only where a lobby socket will receive it, from any
process's change. Two hubs on one bus stand for two processes (in memory, and again on Redis)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.realtime.bus import Bus
from amigos.web.realtime.hub import Hub
from amigos.web.tables import lobby, rendering, selectors
from amigos.web.tables.models import Table
from tests.web.tables.support import stored_table
from tests.web.test_bus import buses  # noqa: F401  (the fixture: two buses, memory and Redis)

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10.0


class LobbySocket:
    def __init__(self) -> None:
        self.lists: list[list[dict[str, Any]]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "tables.list":
            self.lists.append(payload["tables"])


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per list built from the database."""
    made: list[int] = []
    real = selectors.live_tables

    def counted() -> list[dict[str, Any]]:
        made.append(1)
        return real()

    monkeypatch.setattr(selectors, "live_tables", counted)
    monkeypatch.setattr(lobby, "LIST_EVERY", 0.05)
    return made


async def a_playing_table(make_player: Callable[..., User]) -> int:
    def build() -> int:
        table = stored_table([make_player("Ana"), None, None, None], datetime(2026, 11, 25, tzinfo=UTC))
        Table.objects.filter(pk=table.pk).update(status="playing")
        return table.pk

    return await sync_to_async(build)()


async def until(condition: Callable[[], bool]) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), WAIT)


async def test_a_change_in_one_process_reaches_the_lobby_of_another_which_alone_builds_the_list(
    buses: tuple[Bus, Bus],  # noqa: F811
    builds: list[int],
    make_player: Callable[..., User],
) -> None:
    table_id = await a_playing_table(make_player)
    owner, other = Hub(buses[0]), Hub(buses[1])
    socket = LobbySocket()
    await lobby.list_feed(other).listen()
    await other.join(rendering.LOBBY_TOPIC, socket)
    await lobby.list_feed(owner).changed()
    await until(lambda: bool(socket.lists))
    assert [entry["table_id"] for entry in socket.lists[-1]] == [table_id]
    assert len(builds) == 1  # by the process with the lobby socket; the table's own built nothing
    await owner.close()
    if buses[1] is not buses[0]:
        await other.close()


async def test_with_nobody_in_the_lobby_no_list_is_built(
    buses: tuple[Bus, Bus],  # noqa: F811
    builds: list[int],
    make_player: Callable[..., User],
) -> None:
    await a_playing_table(make_player)
    owner, other = Hub(buses[0]), Hub(buses[1])
    await lobby.list_feed(other).listen()
    probe = LobbySocket()
    await other.observe(rendering.LOBBY_TOPIC, lambda kind, payload: probe.lists.append([{"kind": kind}]))
    for _ in range(3):
        await lobby.list_feed(owner).changed()
    await until(lambda: len(probe.lists) == 3)  # the signals did arrive
    await asyncio.sleep(0.2)
    assert builds == []
    await owner.close()
    if buses[1] is not buses[0]:
        await other.close()


async def test_a_burst_of_changes_builds_the_list_at_most_once_per_period(
    builds: list[int], make_player: Callable[..., User]
) -> None:
    from amigos.web.realtime.bus import InMemoryBus

    table_id = await a_playing_table(make_player)
    hub = Hub(InMemoryBus())
    socket = LobbySocket()
    await lobby.list_feed(hub).listen()
    await hub.join(rendering.LOBBY_TOPIC, socket)
    for _ in range(20):
        await lobby.list_feed(hub).changed()
    await until(lambda: len(socket.lists) == 2)
    await asyncio.sleep(0.3)
    # the first change at once, every later one of the burst together after the period
    assert len(builds) == len(socket.lists) == 2
    assert [entry["table_id"] for entry in socket.lists[-1]] == [table_id]
    await hub.close()
