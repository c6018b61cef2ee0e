"""The lobby's online list over time (issue 8, item 7): the full list once, then at most one
`presence.delta` per socket per second, holding only what changed, and a client that applies them
ends with exactly the server's list.

The feed (`LobbyFeed`) runs here for real, on the real hub and in-memory bus, on an event loop whose
clock is virtual: waiting advances the clock at once to the next timer, so "within one second" is
exact and the test never depends on how fast this machine is. The database's online list is the
test's own dict (`fetch` is replaced), changed by a drawn sequence of joins, leaves and status
changes, each announced as the lobby's services do (`announce()`), with new sockets arriving
in between.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import selectors
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.web.lobby import feed as lobby_feed
from amigos.web.lobby import presence
from amigos.web.realtime.bus import InMemoryBus
from amigos.web.realtime.hub import Hub

Players = dict[int, dict[str, object]]
STATUSES = ["available", "invited", "playing", "reconnecting"]
INTERVAL = lobby_feed.PRESENCE_INTERVAL


class _InstantSelector(selectors.SelectSelector):
    """A selector that never sleeps: waiting for ``timeout`` moves the loop's clock instead."""

    def __init__(self, advance: Callable[[float], None]) -> None:
        super().__init__()
        self._advance = advance

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout:
            self._advance(timeout)
        return []


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time (nothing here does real I/O, so nothing is missed)."""

    def __init__(self) -> None:
        self.now = 1000.0
        super().__init__(_InstantSelector(self._advance))

    def _advance(self, seconds: float) -> None:
        self.now += seconds

    def time(self) -> float:
        return self.now


def run_virtual(main: Coroutine[Any, Any, None]) -> None:
    loop = VirtualClockLoop()
    try:
        loop.run_until_complete(main)
    finally:
        loop.close()


@dataclass(eq=False)
class Socket:
    """A lobby socket as the browser sees it: the full list, then the deltas it applies."""

    clock: Callable[[], float]
    players: Players = field(default_factory=dict)
    version: int = 0
    delta_times: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        assert kind == "presence.delta"
        self.delta_times.append(self.clock())
        # Only what changed for this socket: each added player is new to it, each changed entry
        # differs from the one it holds, each removed id is one it holds; and no empty message.
        for entry in payload["added"]:
            if entry["id"] in self.players:
                self.problems.append(f"added {entry['id']} is already in the list")
        for entry in payload["changed"]:
            if self.players.get(entry["id"]) in (None, entry):
                self.problems.append(f"changed {entry['id']} is new or unchanged")
        for key in payload["removed"]:
            if key not in self.players:
                self.problems.append(f"removed {key} is not in the list")
        if not (payload["added"] or payload["changed"] or payload["removed"]):
            self.problems.append("an empty delta")
        if payload["version"] != self.version + 1:
            self.problems.append(f"version {payload['version']} after {self.version}")
        self.version = payload["version"]
        delta = presence.Delta(payload["added"], payload["changed"], payload["removed"])
        self.players = presence.apply(self.players, copy.deepcopy(delta))


def entry(key: int, status: str, since: int) -> dict[str, object]:
    return {
        "id": key,
        "name": f"Jugador {key}",
        "status": status,
        "quintile": None,
        "signed_in_at": f"2026-11-25T10:{since // 60 % 60:02d}:{since % 60:02d}+00:00",
    }


step = st.tuples(
    st.sampled_from(["join", "leave", "status", "socket"]),
    st.integers(1, 30),  # the player concerned
    st.sampled_from(STATUSES),
    st.sampled_from([0.0, 0.0, 0.01, 0.1, 0.25, 0.5, 0.99, 1.0, 1.5]),  # virtual seconds before it
)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_joins_and_leaves_reach_every_socket_as_rare_exact_deltas(data: st.DataObject) -> None:
    server: Players = {
        key: entry(key, data.draw(st.sampled_from(STATUSES)), key)
        for key in data.draw(st.sets(st.integers(1, 30)))
    }
    steps = data.draw(st.lists(step, min_size=1, max_size=60))
    fetches: list[float] = []

    async def fetch() -> Players:
        fetches.append(asyncio.get_running_loop().time())
        return copy.deepcopy(server)

    async def sweep(every_process_restarted: bool) -> None:
        return None

    async def main() -> None:
        loop = asyncio.get_running_loop()
        hub = Hub(InMemoryBus())
        feed = lobby_feed.LobbyFeed(hub)
        sockets: list[Socket] = []

        async def connect() -> None:
            socket = Socket(loop.time)
            await hub.join(lobby_feed.TOPIC, socket)
            full = await feed.current()
            socket.players = {player["id"]: player for player in copy.deepcopy(full["players"])}
            socket.version = full["version"]
            sockets.append(socket)

        await connect()
        clock = 0
        for kind, key, status, wait in steps:
            await asyncio.sleep(wait)
            clock += 1
            if kind == "socket":
                await connect()
                continue
            if kind == "join" and key not in server:
                server[key] = entry(key, status, 100 + clock)
            elif kind == "leave":
                server.pop(key, None)
            elif kind == "status" and key in server:
                server[key] = {**server[key], "status": status}
            await feed.announce()  # as the lobby's services do after every change
        await asyncio.sleep(2 * INTERVAL + 0.01)  # the last changes go out within one interval

        for socket in sockets:
            assert socket.problems == []
            assert socket.players == server  # the client's list is exactly the server's
            assert lobby_feed.ordered(socket.players) == lobby_feed.ordered(server)
            # At most one presence delta per socket per second, however many changes came in.
            gaps = [later - earlier for earlier, later in itertools.pairwise(socket.delta_times)]
            assert all(gap >= INTERVAL - 1e-9 for gap in gaps), gaps
        # One query per interval at most, not one per change or per socket.
        assert all(later - earlier >= INTERVAL - 1e-9 for earlier, later in itertools.pairwise(fetches[1:]))
        for socket in sockets:
            await hub.leave(lobby_feed.TOPIC, socket)
        feed._dirty.set()  # the feed's task notices that nobody listens and ends
        await asyncio.sleep(INTERVAL + 0.01)
        assert feed._task is not None and feed._task.done()

    with pytest.MonkeyPatch.context() as patch:  # per example: the database is the test's dict
        patch.setattr(lobby_feed, "fetch", fetch)
        patch.setattr(lobby_feed, "sweep", sweep)
        run_virtual(main())


def test_a_burst_within_one_second_is_one_delta_with_only_the_net_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worked example of the promise: forty changes in under a second after a first one reach a
    socket as a single delta, which names neither the player who came and went nor the one whose
    status went back to what the socket already shows."""
    server: Players = {1: entry(1, "available", 1), 2: entry(2, "available", 2), 3: entry(3, "playing", 3)}

    async def fetch() -> Players:
        return copy.deepcopy(server)

    async def sweep(every_process_restarted: bool) -> None:
        return None

    monkeypatch.setattr(lobby_feed, "fetch", fetch)
    monkeypatch.setattr(lobby_feed, "sweep", sweep)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        hub = Hub(InMemoryBus())
        feed = lobby_feed.LobbyFeed(hub)
        socket = Socket(loop.time)
        await hub.join(lobby_feed.TOPIC, socket)
        full = await feed.current()
        socket.players = {p["id"]: p for p in copy.deepcopy(full["players"])}
        server[4] = entry(4, "available", 4)
        await feed.announce()
        await asyncio.sleep(0.05)
        assert len(socket.delta_times) == 1  # the first change goes out at once
        for round_ in range(10):
            server[9] = entry(9, "available", 9)  # comes and goes
            await feed.announce()
            server[1] = {**server[1], "status": "playing"}
            await feed.announce()
            server.pop(9)
            await feed.announce()
            server[1] = {**server[1], "status": "available"}  # back to what the socket has
            server[2] = {**server[2], "status": STATUSES[round_ % 4]}
            await feed.announce()
            await asyncio.sleep(0.08)
        server[5] = entry(5, "invited", 5)
        await feed.announce()
        await asyncio.sleep(0.1)
        assert len(socket.delta_times) == 1  # still within the second: nothing more yet
        await asyncio.sleep(INTERVAL)
        assert len(socket.delta_times) == 2 and socket.problems == []
        assert socket.players == server
        assert socket.delta_times[1] - socket.delta_times[0] >= INTERVAL - 1e-9
        await hub.leave(lobby_feed.TOPIC, socket)
        feed._dirty.set()
        await asyncio.sleep(INTERVAL + 0.01)

    run_virtual(main())
