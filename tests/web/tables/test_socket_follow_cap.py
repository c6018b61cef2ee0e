"""One socket follows at most `MAX_TABLES_PER_SOCKET` tables: joining one more leaves the one it
joined longest ago, so a client that never says `table.leave` cannot pile up topics (and their
bus subscriptions) for as long as its socket lives."""

from __future__ import annotations

from typing import Any

import pytest

from amigos.web.realtime.hub import get_hub
from amigos.web.tables import rendering
from amigos.web.tables import socket as table_socket
from tests.web.tables.support import Recorder


@pytest.fixture
def joins_as_spectator(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """`table.join` without tables: the operation joins the table's public topics, as a
    spectator's join does, and answers with no seat."""
    asked: list[int] = []

    async def run(name: str, connection: Any, payload: dict[str, Any]) -> dict[str, Any]:
        table_id = payload["table_id"]
        asked.append(table_id)
        await connection.join(rendering.watch_topic(table_id))
        await connection.join(rendering.chat_topic(table_id))
        return {"table_id": table_id, "seat": None, "version": 0, "mode": "snapshot"}

    monkeypatch.setattr(table_socket, "_run", run)
    return asked


def _tables(socket: Recorder) -> set[int]:
    return {int(topic.split(":")[1]) for topic in socket.topics if topic.startswith("table:")}


async def test_joining_one_table_too_many_leaves_the_one_joined_longest_ago(
    joins_as_spectator: list[int],
) -> None:
    cap = table_socket.MAX_TABLES_PER_SOCKET
    socket = Recorder(7)
    for table_id in range(1, cap + 1):
        await table_socket.join(socket, {"table_id": table_id, "as": "spectator"})
    assert _tables(socket) == set(range(1, cap + 1))

    await table_socket.join(socket, {"table_id": 1, "as": "spectator"})  # table 1 is the newest again
    await table_socket.join(socket, {"table_id": cap + 1, "as": "spectator"})
    assert _tables(socket) == {1, *range(3, cap + 2)}  # table 2 went, not table 1
    hub = get_hub()
    assert not hub.has_local(rendering.watch_topic(2)) and not hub.has_local(rendering.chat_topic(2))

    await table_socket.leave(socket, {"table_id": 5})  # a table left by hand no longer counts
    await table_socket.join(socket, {"table_id": cap + 2, "as": "spectator"})
    assert _tables(socket) == {1, *range(3, cap + 3)} - {5}
    await socket.close()


async def test_sockets_are_counted_apart(joins_as_spectator: list[int]) -> None:
    first, second = Recorder(7), Recorder(8)
    for table_id in range(1, table_socket.MAX_TABLES_PER_SOCKET + 1):
        await table_socket.join(first, {"table_id": table_id, "as": "spectator"})
    await table_socket.join(second, {"table_id": 99, "as": "spectator"})
    assert len(_tables(first)) == table_socket.MAX_TABLES_PER_SOCKET
    assert _tables(second) == {99}
    await first.close()
    await second.close()
