"""Recording an action on the idle clock never holds up the socket's next command.

Regression: the recording (a session read and write on the database thread) ran before the socket
took its next command; at 300 tables the sockets that opened together recorded together every 30 s
and each one's next play waited behind 1,200 of them (p99 from 0.5 s to 0.7 s in bench/load.py).
Here the session read is made to hang until the test lets it go: the next command is answered
meanwhile, and the recording finishes afterwards."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.realtime import consumer
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_next_command_is_answered_while_the_last_action_is_being_recorded(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = await sync_to_async(sign_in)("Ana")
    beto = await sync_to_async(sign_in)("Beto")
    peer = await connect(site_server, ana)
    await peer.expect(of_type("welcome"))

    real_verdict = consumer.db_verdict
    release = threading.Event()
    recordings: list[str] = []

    async def slow_verdict(*args: Any) -> Any:
        recordings.append("started")
        await asyncio.to_thread(release.wait, 60)  # a database thread stuck behind others
        recordings.append("finished")
        return await real_verdict(*args)

    monkeypatch.setattr(consumer, "db_verdict", slow_verdict)
    # An action (it counts on the idle clock), then a heartbeat right behind it.
    muted = await peer.send("moderation.mute", {"player_id": beto.user.pk})
    assert (await peer.reply(muted))["type"] == "ack"
    beat = await peer.send("heartbeat")
    assert (await peer.reply(beat))["type"] == "ack"  # answered while the recording still hangs
    assert recordings == ["started"]
    release.set()
    # The recording finishes, and the socket goes on as before.
    unmuted = await peer.send("moderation.unmute", {"player_id": beto.user.pk})
    assert (await peer.reply(unmuted))["type"] == "ack"
    await asyncio.wait_for(_until(lambda: recordings == ["started", "finished"]), 60)
    await peer.connection.close()


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.01)
