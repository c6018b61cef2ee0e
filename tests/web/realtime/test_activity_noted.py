"""A player's action costs the socket no session work: it is noted, and the process's session check
writes it on the idle clock with every other socket's.

Regression: each socket read and wrote its own session to record an action (once per 30 s). At 300
tables the sockets that opened together recorded together and each one's next play waited behind
1,200 of them; at a thousand tables the recordings were a sixth of the server's time
(bench/load.py). Here the per-socket session calls fail if they are reached at all."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.realtime import consumer
from tests.web.conftest import ServerThread, SignedIn
from tests.web.realtime.test_watchdog import last_action, set_last_action
from tests.web.test_socket import connect, of_type

pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_action_is_answered_without_session_work_and_reaches_the_idle_clock(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    ana = await sync_to_async(sign_in)("Ana")
    beto = await sync_to_async(sign_in)("Beto")
    settings.AMIGOS_IDLE_CHECK_SECONDS = 1  # the process's check runs every second
    peer = await connect(site_server, ana)
    await peer.expect(of_type("welcome"))
    before = time.time() - 100
    await sync_to_async(set_last_action)(ana, before)

    async def no_session_work(*args: Any) -> Any:
        raise AssertionError("a socket's command read or wrote its session")

    monkeypatch.setattr(consumer, "db_verdict", no_session_work)
    monkeypatch.setattr(consumer, "db_touch", no_session_work)
    sent = time.time()
    muted = await peer.send("moderation.mute", {"player_id": beto.user.pk})  # an action
    assert (await peer.reply(muted))["type"] == "ack"

    async def written() -> float:
        while (found := await sync_to_async(last_action)(ana)) == before:
            await asyncio.sleep(0.05)
        return found

    assert await asyncio.wait_for(written(), 30) >= sent - 1
    beat = await peer.send("heartbeat")
    assert (await peer.reply(beat))["type"] == "ack"  # the socket goes on as before
    await peer.connection.close()
