"""Two real `amigos serve` processes share the tables through PostgreSQL and Redis.

Ana's socket is on the process that holds the table's lease, Beto's on the other: Beto's accept,
join and plays are forwarded to the owner and answered as if local. Then the owner is killed
(SIGKILL): the other process adopts the table once its lease expires, rebuilds it from the log and
stored deadlines, gives the player in turn fresh time (a `fresh_time` notice) and play goes on.
No accepted move is lost or doubled: the log's versions run without a gap, each accepted play is
the event right after the version it was sent at, and Beto's socket, on the other process, saw
every version the owner published once and in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.web.conftest import in_ci
from tests.web.tables.support import event_in, flat_events
from tests.web.tables.test_restart import AMIGOS, Seat, connect, kill_all
from tests.web.test_processes import REDIS_URL, require_redis

# Two servers and their clients share the machine's cores: beside the rest of the suite (two
# workers, browsers) its turns once stalled past every timeout, so it runs by itself.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.alone]

PG_URL = os.environ.get("AMIGOS_DATABASE_URL", "")
if not PG_URL.startswith("postgres"):
    PG_URL = "postgresql://postgres@127.0.0.1:5432/amigos"
# The server's maintenance database: the one named in the address may not exist (the suite's own
# databases are created by pytest-django under other names).
ADMIN_URL = urlunsplit(urlsplit(PG_URL)._replace(path="/postgres"))

SETUP = """
import json, time
from django.test import Client
from django.utils import timezone
from amigos.web.accounts.models import User
from amigos.web.accounts import sessions
from amigos.web.tables import services
keys = {}
users = {}
for name in ("Ana", "Beto"):
    user = User.objects.create_user(
        email=f"{name.lower()}@example.org", display_name=name, password="dominó-seguro-2024",
        email_verified_at=timezone.now(),
    )
    client = Client()
    client.force_login(user)
    keys[name] = client.cookies["sessionid"].value
    sessions.touch(keys[name], user.pk, time.time())
    users[name] = user
table = services.create_table(
    organizer=users["Ana"], name="Mesa compartida", variant="amigos-100",
    seats={1: services.SeatChoice(level="easy"), 2: services.SeatChoice(user_id=users["Beto"].pk),
           3: services.SeatChoice(level="easy")},
)
print(json.dumps({"sessions": keys, "table": table.pk}))
"""

OWNER = "select owner from tables_table where id = %s"
LOG = "select version, kind, data from tables_logrow where table_id = %s order by version"


def require_postgres() -> None:
    import psycopg

    try:
        psycopg.connect(ADMIN_URL, connect_timeout=3).close()
    except Exception as error:
        if in_ci():
            pytest.fail(f"PostgreSQL is required under CI but not reachable at {PG_URL}: {error}")
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}")


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh database of our own on the PostgreSQL server, dropped afterwards."""
    import psycopg

    require_postgres()
    require_redis()
    name = f"amigos_shared_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'create database "{name}"')
    parts = urlsplit(PG_URL)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'drop database if exists "{name}" with (force)')


def query(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as connection:
        return list(connection.execute(sql, args).fetchall())


def environment(tmp_path: Path, database: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env.update(
        AMIGOS_DATA_DIR=str(tmp_path),
        AMIGOS_DATABASE_URL=database,
        AMIGOS_REDIS_URL=REDIS_URL,
        AMIGOS_BUS_NAMESPACE=f"amigos-test-{uuid.uuid4().hex}",
        AMIGOS_TABLE_BOT_DELAY_MS="0",
        AMIGOS_TABLE_HAND_PAUSE_SECONDS="0",
        AMIGOS_BOT_PROCESSES="0",
        AMIGOS_TABLE_LEASE_SECONDS="3",
        AMIGOS_TABLE_LEASE_RENEW_SECONDS="1",
        AMIGOS_TABLE_FORWARD_TIMEOUT_SECONDS="5",
    )
    return env


def serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`amigos serve` on ``port``, its log in ``log`` (shown when the test fails)."""
    with log.open("wb") as output:
        server = subprocess.Popen(
            [*AMIGOS, "serve", "--port", str(port), "--log-level", "info"],
            env={**env, "AMIGOS_LOG_LEVEL": "INFO"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/sign-in/", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    kill_all(server)
    raise RuntimeError("the server did not start")


def turn_of(seat: int, envelope: dict[str, Any]) -> dict[str, Any] | None:
    payload = envelope["payload"]
    if envelope["type"] == "table.snapshot" and payload["turn"] and payload["turn"]["seat"] == seat:
        return {"version": payload["version"], **payload["turn"]}
    clocks = [event for event in flat_events(envelope["type"], payload) if event["kind"] == "clock"]
    if clocks and clocks[-1]["data"]["seat"] == seat:
        return {"version": clocks[-1]["version"], **clocks[-1]["data"]}
    return None


class Player:
    """One player's socket, playing the first legal tile whenever it is their turn."""

    def __init__(self, seat: Seat, number: int, table: int) -> None:
        self.socket = seat
        self.number = number
        self.table = table
        self.accepted: list[tuple[int, str]] = []  # (version sent, tile) of each accepted play
        self.looked = 0  # how many of the socket's messages `next_turn` went through

    async def ask(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        ident = await self.socket.send(kind, payload)
        return await self.socket.until(
            lambda e: e["type"] in ("ack", "error") and e["payload"].get("reply_to") == ident
        )

    async def next_turn(self) -> dict[str, Any]:
        """The next turn of this seat among the messages not looked at yet (received or to come)."""
        while True:
            while self.looked < len(self.socket.received):
                envelope = self.socket.received[self.looked]
                self.looked += 1
                turn = turn_of(self.number, envelope)
                if turn is not None:
                    return turn
            await self.socket.until(lambda e: True)

    async def play(self, plays: int) -> None:
        """Play ``plays`` turns (refusals of a stale version are retried on the next turn)."""
        while len(self.accepted) < plays:
            turn = await self.next_turn()
            if turn["version"] < max((e["version"] for e in self.socket.table_events()), default=0):
                continue  # an old turn (a snapshot or a catch-up); its clock is not the latest
            entry = turn["legal"][0]
            ack = await self.ask(
                "table.play",
                {
                    "table_id": self.table,
                    "version": turn["version"],
                    "tile": entry["tile"],
                    "arm": entry["arms"][0] if entry["arms"] else None,
                    "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
                },
            )
            if ack["type"] == "ack":
                self.accepted.append((turn["version"], entry["tile"]))
            else:
                assert ack["payload"]["code"] in ("stale_version", "not_your_turn", "busy"), ack


async def beat(*players: Player) -> None:
    """Heartbeats every 10 s, as a page sends them: on a loaded machine a turn can take longer
    than the 30 s of silence after which a seat counts as away and the table pauses."""
    while True:
        await asyncio.sleep(10)
        for player in players:
            with contextlib.suppress(Exception):
                await player.socket.send("heartbeat", {})


async def play_both(ana: Player, beto: Player, beto_plays: int) -> None:
    """Both play their turns until Beto has ``beto_plays`` accepted plays."""
    ana_task = asyncio.ensure_future(ana.play(10_000))
    beating = asyncio.ensure_future(beat(ana, beto))
    try:
        await asyncio.wait_for(beto.play(beto_plays), 90)
    except TimeoutError:
        # Say why Beto never got his turn: Ana's side failing, or the table's last events.
        failed = ana_task.done() and not ana_task.cancelled() and ana_task.exception() is not None
        last = [
            (e["type"], e["payload"].get("kind"), e["payload"].get("version"))
            for e in beto.socket.received[-8:]
        ]
        raise AssertionError(
            f"Beto waited 90 s; Ana's side: {ana_task.exception() if failed else 'playing'}; last: {last}"
        ) from None
    finally:
        for task in (ana_task, beating):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    if ana_task.done() and not ana_task.cancelled() and ana_task.exception() is not None:
        raise ana_task.exception()  # type: ignore[misc]


def test_two_processes_share_a_table_and_one_takes_it_over(tmp_path: Path, database: str) -> None:
    env = environment(tmp_path, database)
    migrated = subprocess.run(
        [*AMIGOS, "manage", "migrate", "--noinput"], env=env, capture_output=True, timeout=300
    )
    assert migrated.returncode == 0, migrated.stderr
    made = subprocess.run(
        [*AMIGOS, "manage", "shell", "-c", SETUP], env=env, capture_output=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    setup = json.loads(made.stdout.decode().strip().splitlines()[-1])
    ports = [free_port(), free_port()]
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    owner = serve(env, ports[0], logs[0])
    other: Any = None
    try:
        # the first process adopts the new table at start-up (nobody held it)
        asyncio.run(_eventually(lambda: bool(query(database, OWNER, setup["table"])[0][0]), 30))
        first_identity = query(database, OWNER, setup["table"])[0][0]
        assert first_identity.split(":")[1] == str(owner.pid)
        other = serve(env, ports[1], logs[1])
        asyncio.run(_play(database, ports, setup, owner, first_identity))
    except BaseException:
        for log in logs:
            if log.exists():
                print(f"--- {log.name}\n{log.read_text(errors='replace')[-6000:]}")
        raise
    finally:
        kill_all(owner)
        if other is not None:
            kill_all(other)


def free_port() -> int:
    from tests.web.conftest import free_port as pick

    return pick()


async def _eventually(check: Any, seconds: float) -> None:
    async def loop() -> None:
        while not check():
            await asyncio.sleep(0.1)

    await asyncio.wait_for(loop(), seconds)


async def _play(database: str, ports: list[int], setup: dict[str, Any], owner: Any, first: str) -> None:
    table = setup["table"]
    ana = Player(await connect(ports[0], setup["sessions"]["Ana"]), 0, table)
    beto = Player(await connect(ports[1], setup["sessions"]["Beto"]), 2, table)
    # Beto's accept reaches the owner through the bus; Ana's start (on the owner) starts the match
    ack = await beto.ask("table.invite.accept", {"table_id": table})
    assert ack["type"] == "ack" and ack["payload"]["seat"] == 2, ack
    ack = await ana.ask("table.start", {"table_id": table})
    assert ack["type"] == "ack", ack
    ack = await ana.ask("table.join", {"table_id": table, "since": None})
    assert ack["type"] == "ack" and ack["payload"]["seat"] == 0, ack
    ack = await beto.ask("table.join", {"table_id": table, "since": None})
    assert ack["type"] == "ack" and ack["payload"] == {**ack["payload"], "seat": 2, "mode": "snapshot"}, ack
    snapshots = [e for e in beto.socket.received if e["type"] == "table.snapshot"]
    assert snapshots and snapshots[0]["payload"]["seat"] == 2
    # the seat is the socket's player's: naming another seat in the payload changes nothing
    refused = await beto.ask("table.play", {"table_id": table, "version": 0, "tile": "6-6", "seat": 0})
    assert refused["type"] == "error"
    await play_both(ana, beto, 3)
    assert query(database, OWNER, table)[0][0] == first  # the table never moved meanwhile

    # the owner dies; the other process adopts the table and the player in turn gets fresh time
    kill_all(owner)
    # every version the owner published reached Beto's socket on the other process, once, in order
    before = [e["version"] for e in beto.socket.table_events()]
    assert before == list(range(before[0], before[-1] + 1))
    notice = event_in(await beto.socket.until(lambda e: event_in(e, "notice") is not None), "notice")
    assert notice is not None and notice["data"]["code"] == "fresh_time"
    second = query(database, OWNER, table)[0][0]
    assert second and second != first
    # Ana comes back on the surviving process and catches up from the last version she saw
    seen = max(e["version"] for e in ana.socket.table_events())
    ana.socket = await connect(ports[1], setup["sessions"]["Ana"])
    ana.looked = 0
    ack = await ana.ask("table.join", {"table_id": table, "since": seen})
    assert ack["type"] == "ack", ack
    await play_both(ana, beto, 6)

    # nothing lost, nothing doubled
    log = query(database, LOG, table)
    versions = [version for version, _, _ in log]
    assert versions == list(range(1, len(versions) + 1))
    by_version = {version: (kind, data) for version, kind, data in log}
    for player in (ana, beto):
        for sent_at, tile in player.accepted:
            kind, data = by_version[sent_at + 1]
            assert kind == "played" and data["seat"] == player.number and data["tile"] == tile
    # A crash between storing and publishing leaves stored events nobody was sent; the page sees
    # the gap and joins again from its last version, as Beto does here: then it has every version.
    ack = await beto.ask("table.join", {"table_id": table, "since": before[-1]})
    assert ack["type"] == "ack" and ack["payload"]["mode"] == "events", ack
    beto_versions = {e["version"] for e in beto.socket.table_events()}
    assert beto_versions == set(range(before[0], max(beto_versions) + 1))
    fresh = [data for kind, data in by_version.values() if kind == "notice"]
    assert fresh and all(notice["code"] == "fresh_time" for notice in fresh)
    await ana.socket.connection.close()
    await beto.socket.connection.close()
