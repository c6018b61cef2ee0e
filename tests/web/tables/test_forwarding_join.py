"""A join forwarded to the table's owner gives the socket every version, those the join itself
commits included (issue 40).

With `bench/load.py --hosts 3 --tables 300` on a loaded machine, 45 tables had no play at all: the
seats' sockets were on hosts that did not own their tables, the seats were away (their joins took
longer than the 30 s of silence), and the last seat's join brought the table back and started the
turn's clock. The owner published those events (the seat back, the clock) during the join, before
the asking process listened to the seat's topic, and the asker's catch-up read the log from the
answer's version, which already counted them: the seat in turn never heard its clock start.

Here one process plays both parts on real Redis: the socket's joins go out on the bus to this
process's own topic, as to another host, and the owner's publications reach the socket only
through its subscription, as between hosts.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from amigos.web.accounts.models import User
from amigos.web.realtime import hub as hub_module
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import forwarding, registry
from amigos.web.tables.actor import TableActor
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import among_people
from tests.web.test_processes import REDIS_URL, require_redis

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

#: Upper bound so that a broken test ends; it goes on as soon as the socket has what it waits for.
SAFETY = 30.0


@pytest.fixture
def shared(settings: Any) -> Any:
    require_redis()
    settings.REDIS_URL = REDIS_URL  # this test's loop gets a hub on Redis: the tables are shared
    settings.AMIGOS_BUS_NAMESPACE = f"amigos-test-{uuid.uuid4().hex}"
    return settings


@pytest.fixture
async def from_elsewhere(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A socket's command (`forwarding.run`, which names the socket's loop) finds the table run by
    another process, this one under its own identity, so it goes out on the bus; the owner's side
    (`forwarding._serve`) finds the actor here."""
    real = registry.locate

    async def locate(
        table_id: int, loop: asyncio.AbstractEventLoop | None = None, *, ended: bool = True
    ) -> Any:
        found = await real(table_id, loop, ended=ended)
        if loop is not None and isinstance(found, TableActor):
            return registry.Elsewhere(registry.sharing().leases.identity)
        return found

    monkeypatch.setattr(registry, "locate", locate)
    yield
    await registry.stop_all()
    await get_hub().close()
    hub_module._hubs.pop(asyncio.get_running_loop(), None)


async def until(condition: Callable[[], bool]) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), SAFETY)


def versions(socket: Recorder) -> list[int]:
    """The versions the socket has: its snapshot's, then each event's."""
    seen = [payload["version"] for kind, payload in socket.received if kind == "table.snapshot"][:1]
    return seen + [event["version"] for event in socket.events()]


async def test_a_forwarded_join_that_brings_the_table_back_gives_the_seat_its_clock(
    shared: Any,
    from_elsewhere: None,
    fake_clock: FakeClock,
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people, actor = await among_people(make_player, monkeypatch)
    in_turn = actor.game.to_move
    assert in_turn is not None
    fake_clock.advance(31)  # nobody joined: every seat is away and the table waits
    await actor.fire_deadline()
    assert set(actor.away_since) == {0, 1, 2, 3} and actor.clock_info is None

    sockets = {seat: Recorder(user.pk, f"seat {seat}") for seat, user in enumerate(people)}
    order = [seat for seat in sockets if seat != in_turn] + [in_turn]  # the seat in turn comes last
    for seat in order:
        answer = await forwarding.run(
            "table.join",
            actor.id,
            sockets[seat],
            {"table_id": actor.id, "since": None, "socket_key": f"socket-{seat}"},
        )
        assert answer["seat"] == seat
    assert not actor.away_since and actor.clock_info is not None  # back, the clock running
    mine = sockets[in_turn]
    # Before the fix the clock's event never came: the log was read from the answer's version.
    await until(lambda: any(event["data"]["seat"] == in_turn for event in mine.events("clock")))
    for seat, socket in sockets.items():
        await until(lambda socket=socket: bool(versions(socket)) and versions(socket)[-1] == actor.version)
        seen = versions(socket)
        assert seen == list(range(seen[0], actor.version + 1)), (seat, seen)  # once each, in order
        await socket.close()


async def test_a_forwarded_join_with_since_gets_the_events_its_own_return_commits(
    shared: Any,
    from_elsewhere: None,
    fake_clock: FakeClock,
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page that joins again from its version, up to date, and away meanwhile: the owner sends it
    nothing, and its return (`reconnected`) is the version after the one it asked from."""
    people, actor = await among_people(make_player, monkeypatch)
    watcher = Recorder(people[1].pk, "seat 1")
    await forwarding.run("table.join", actor.id, watcher, {"table_id": actor.id, "socket_key": "w"})
    fake_clock.advance(31)
    await actor.fire_deadline()
    assert 0 in actor.away_since
    since = actor.version
    socket = Recorder(people[0].pk, "seat 0")
    answer = await forwarding.run(
        "table.join", actor.id, socket, {"table_id": actor.id, "since": since, "socket_key": "s"}
    )
    assert answer["mode"] == "events" and answer["version"] > since
    await until(lambda: bool(socket.events()) and socket.events()[-1]["version"] == actor.version)
    assert [event["version"] for event in socket.events()] == list(range(since + 1, actor.version + 1))
    assert any(event["data"]["seat"] == 0 for event in socket.events("reconnected"))
    await socket.close()
    await watcher.close()
