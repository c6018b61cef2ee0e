"""Staff watch any table unseen, chat included; nobody else may use the staff watch."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.moderation import socket as moderation_socket
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import registry
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import against_computers, turn_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def fresh_registry() -> Any:
    registry.use_clock(None)
    yield
    await registry.stop_all()
    registry.use_clock(None)


async def test_staff_watch_a_table_and_its_chat_without_a_seat_and_unseen(
    make_player: Callable[..., User],
) -> None:
    registry.use_clock(FakeClock())
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    admin = await sync_to_async(make_player)("Jefa", is_staff=True)
    nosy = await sync_to_async(make_player)("Curioso")
    with pytest.raises(CommandError) as refused:
        await moderation_socket.watch(Recorder(nosy.pk), {"table_id": actor.id})
    assert refused.value.code == "table_not_found"
    watcher = Recorder(admin.pk, "Jefa")
    answer = await moderation_socket.watch(watcher, {"table_id": actor.id})
    assert answer["seat"] is None
    snapshots = [payload for kind, payload in watcher.received if kind == "table.snapshot"]
    assert len(snapshots) == 1
    # Exactly the spectators' snapshot (the tables app's view for no seat: no hidden tile).
    assert snapshots[0] == await actor.call(lambda: _async(actor.snapshot(None)))
    # The players are not told anybody joined: nothing new reached the seated player.
    before = len(me.received)
    await actor.call(lambda: actor.post_chat(user.pk, "hola"))

    def lines() -> list[str]:
        return [payload["text"] for kind, payload in watcher.received if kind == "table.chat"]

    # Through Redis (the PostgreSQL run) the line reaches the watcher a moment after it is stored.
    for _ in range(100):
        if lines():
            break
        await asyncio.sleep(0.05)
    assert lines() == ["hola"]
    assert all(kind in ("table.chat", "table.events") for kind, _ in me.received[before:])
    assert "Jefa" not in str(me.received)


async def _async(value: dict[str, Any]) -> dict[str, Any]:
    return value
