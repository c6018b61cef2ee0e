"""A long mixed load across hosts, watching for what keeps growing (issue 40, item 5).

    python bench/soak.py --minutes 30 [--hosts N] [--tables T] [--bot-tables B] [--lobby L]
                         [--spectators S] [--correspondence C] [--svg PATH] [--json] [--quick]

Starts N hosts (``amigos.bench.hosts``; PostgreSQL and Redis shared through proxies, the database
named by --database dropped and created again) and keeps on them, for the whole run:

* T tables of four people (every seat a client on another host than the next seat's, playing its
  first legal tile a moment after its turn comes and voting for a rematch at each match's end) and
  B tables of one person against three hard computer players;
* L lobby players who chat (a line every few seconds, within the chat's flood limit) and leave
  and come back (their socket closed and opened again about every half minute);
* S spectators, each watching a random table for a few seconds, then another;
* C correspondence tables of four, whose players come and go (`Correspondent`): each opens the
  table now and then, plays if the turn is theirs, and leaves.

Every 10 s (2 s with --quick) it samples the hosts' resident memory (with their children: the
computer players' pools, the archive worker), their open file descriptors, the database's
connections (``pg_stat_activity`` of the bench's database), Redis's memory (``INFO``: the whole
server's, which others may share) and each host's event-loop lag (a `/healthz` round trip, which
the loop answers itself; the largest of the hosts). It prints JSON with the samples, a ``growth``
verdict per series (``amigos.bench.soak.growth``: ``flat``, ``grows`` or ``too_short``), the plays
acknowledged and ``machine_loop_ns``, and draws the series as an SVG (--svg). It never fails on
time; its exit status is 1 only when no play was acknowledged (the bench itself broken).
``--quick``: 2 hosts, 3 tables, 1 computer table, 2 lobby players, 1 spectator, 1 correspondence
table, 40 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import chaos  # noqa: E402
from amigos.bench.hosts import Cluster, Host, reset_database, stop_on_signals  # noqa: E402
from amigos.bench.soak import growth, svg_plot  # noqa: E402

#: Growth that is not a leak, in each series' unit (a few descriptors, a connection or two).
FLOORS = {"rss_mb": 20.0, "fds": 10.0, "db_connections": 3.0, "redis_memory_mb": 5.0, "loop_lag_ms": 20.0}


async def lobby_player(host: Host, session: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Chats in the lobby and leaves and comes back, as a player who wanders off does."""
    url = f"ws://{host.address}:{host.port}/ws/"
    headers = {"Origin": host.url, "Cookie": f"sessionid={session}"}
    ident = 0
    while not stop.is_set():
        try:
            async with websockets.connect(url, additional_headers=headers, open_timeout=10) as ws:
                counts["lobby_joins"] += 1
                stay = time.monotonic() + random.uniform(20, 40)
                while time.monotonic() < stay and not stop.is_set():
                    ident += 1
                    text = f"¿alguien para una mano? {ident}"
                    await ws.send(json.dumps({"type": "chat.send", "id": ident, "payload": {"text": text}}))
                    counts["chat_lines"] += 1
                    end = time.monotonic() + random.uniform(3, 6)  # the flood limit: 5 lines in 10 s
                    while time.monotonic() < end and not stop.is_set():
                        try:
                            await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                        except TimeoutError:
                            break
        except (OSError, TimeoutError, websockets.WebSocketException):
            counts["lobby_reconnects"] += 1
        await asyncio.sleep(random.uniform(0.5, 2.0))


class Correspondent(chaos.SeatClient):
    """A correspondence game's player: opens the table now and then, plays if the turn is theirs,
    and leaves: after the move is taken, or after a look of a few seconds when it is not their
    turn. Each visit joins with the version last seen, so the table sends what happened meanwhile.
    No heartbeats: a visit is short, and the table does not wait for a correspondent to be there."""

    def __init__(self, *args: Any, counts: dict[str, int]) -> None:
        super().__init__(*args)
        self.counts = counts
        self.leave = asyncio.Event()

    async def _session(self, stop: asyncio.Event) -> None:
        self.leave = asyncio.Event()
        url = f"ws://{self.host.address}:{self.host.port}/ws/?lobby=0"
        headers = {"Origin": self.host.url, "Cookie": f"sessionid={self.session}"}
        async with websockets.connect(url, additional_headers=headers, open_timeout=10, max_size=None) as ws:
            self.ws = ws
            self.counts["correspondence_visits"] += 1
            await self.send("table.join", {"table_id": self.table, "since": self.version})
            ends = [
                asyncio.create_task(stop.wait()),
                asyncio.create_task(self.leave.wait()),
                asyncio.create_task(asyncio.sleep(random.uniform(3, 8))),  # a look, then away
            ]
            try:
                while True:
                    reading = asyncio.create_task(ws.recv())
                    await asyncio.wait((reading, *ends), return_when=asyncio.FIRST_COMPLETED)
                    if not reading.done():
                        reading.cancel()
                        break
                    await self.on_message(json.loads(reading.result()))
            finally:
                for end in ends:
                    end.cancel()
        with contextlib.suppress(TimeoutError):  # away for a while before the next visit
            await asyncio.wait_for(stop.wait(), random.uniform(2, 6))

    async def on_message(self, envelope: dict[str, Any]) -> None:
        sent = self.sent.get(envelope["payload"].get("reply_to")) if envelope["type"] == "ack" else None
        await super().on_message(envelope)
        if sent is not None and sent[0] == "table.play":
            self.counts["correspondence_moves"] += 1
            self.leave.set()


async def spectator(
    hosts: list[Host], session: str, tables: list[int], stop: asyncio.Event, counts: dict[str, int]
) -> None:
    """Watches a random table for a few seconds, then another, on a random host."""
    while not stop.is_set():
        host = random.choice(hosts)
        url = f"ws://{host.address}:{host.port}/ws/?lobby=0"
        headers = {"Origin": host.url, "Cookie": f"sessionid={session}"}
        try:
            async with websockets.connect(
                url, additional_headers=headers, open_timeout=10, max_size=None
            ) as ws:
                table = random.choice(tables)
                payload = {"table_id": table, "since": None, "as": "spectator"}
                await ws.send(json.dumps({"type": "table.join", "id": 1, "payload": payload}))
                counts["spectator_joins"] += 1
                end = time.monotonic() + random.uniform(5, 15)
                while time.monotonic() < end and not stop.is_set():
                    try:
                        await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                    except TimeoutError:
                        break
                await ws.send(json.dumps({"type": "table.leave", "id": 2, "payload": {"table_id": table}}))
        except (OSError, TimeoutError, websockets.WebSocketException):
            counts["spectator_reconnects"] += 1
        await asyncio.sleep(random.uniform(0.5, 2.0))


def _fds(pid: int | None) -> int:
    if pid is None:
        return 0
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _lag_ms(host: Host) -> float:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"{host.url}/healthz", timeout=10) as answer:  # noqa: S310
            answer.read()
    except OSError:
        return 10_000.0
    return (time.perf_counter() - started) * 1000


def sample(cluster: Cluster, database: str, redis_url: str) -> dict[str, float]:
    """One sample of every series (blocking: run on a thread)."""
    import psycopg
    import redis

    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as connection:
        row = connection.execute(
            "select count(*) from pg_stat_activity where datname = %s", (name,)
        ).fetchone()
    client = redis.Redis.from_url(redis_url)
    try:
        used = int(client.info("memory")["used_memory"])
    finally:
        client.close()
    hosts = cluster.hosts
    return {
        "rss_mb": round(sum(cluster.resident_kb(host) for host in hosts) / 1024, 1),
        "fds": float(sum(_fds(host.pid) for host in hosts)),
        "db_connections": float(row[0] if row else 0),
        "redis_memory_mb": round(used / 1024 / 1024, 2),
        "loop_lag_ms": round(max(_lag_ms(host) for host in hosts), 1),
    }


async def soak(
    cluster: Cluster,
    args: argparse.Namespace,
    made: list[tuple[int, list[int]]],
    slow: list[tuple[int, list[int]]],
    sessions: dict[int, str],
    extra: list[int],
    period: float,
) -> tuple[list[dict[str, float]], chaos.Watch, dict[str, int]]:
    watch = chaos.Watch()
    stop = asyncio.Event()
    counts = dict.fromkeys(
        (
            "lobby_joins",
            "chat_lines",
            "lobby_reconnects",
            "spectator_joins",
            "spectator_reconnects",
            "correspondence_visits",
            "correspondence_moves",
        ),
        0,
    )
    hosts = cluster.hosts
    tasks = [
        asyncio.create_task(
            chaos.SeatClient(
                chain, table, seat, hosts[(chain + seat) % len(hosts)], sessions[user], watch
            ).run(stop)
        )
        for chain, (table, users) in enumerate(made)
        for seat, user in enumerate(users)
    ]
    tasks += [
        asyncio.create_task(
            Correspondent(
                chain, table, seat, hosts[(chain + seat) % len(hosts)], sessions[user], watch, counts=counts
            ).run(stop)
        )
        for chain, (table, users) in enumerate(slow, start=len(made))
        for seat, user in enumerate(users)
    ]
    lobby, watchers = extra[: args.lobby], extra[args.lobby : args.lobby + args.spectators]
    tables = [table for table, _ in made]
    tasks += [
        asyncio.create_task(lobby_player(hosts[number % len(hosts)], sessions[user], stop, counts))
        for number, user in enumerate(lobby)
    ]
    tasks += [
        asyncio.create_task(spectator(hosts, sessions[user], tables, stop, counts)) for user in watchers
    ]
    samples = []
    start = time.monotonic()
    while time.monotonic() - start < args.minutes * 60:
        await asyncio.sleep(period)
        found = await asyncio.to_thread(sample, cluster, args.database, args.redis)
        samples.append({"second": round(time.monotonic() - start, 1), "plays": len(watch.acked), **found})
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples, watch, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--hosts", type=int, default=2)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--bot-tables", type=int, default=4)
    parser.add_argument("--lobby", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=5)
    parser.add_argument("--correspondence", type=int, default=4, help="correspondence tables of four")
    parser.add_argument(
        "--database", default=chaos.DEFAULT_DATABASE, help="a database of its own: it is reset"
    )
    parser.add_argument("--redis", default=chaos.DEFAULT_REDIS)
    parser.add_argument("--svg", help="write the plot here")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    period = 10.0
    if args.quick:
        args.hosts, args.tables, args.bot_tables, args.lobby, args.spectators = 2, 3, 1, 2, 1
        args.correspondence = 1
        args.minutes, period = 40 / 60, 2.0
    from amigos.bench.machine import machine_loop_ns

    loop_ns = machine_loop_ns()
    reset_database(args.database)
    with tempfile.TemporaryDirectory(prefix="amigos-soak-") as data_dir:
        env = chaos.host_env(data_dir)
        env["AMIGOS_BOT_PROCESSES"] = "1"
        env["AMIGOS_TABLE_BOT_DELAY_MS"] = "300"
        env["AMIGOS_CHAT_FLOOD_COUNT"] = "5"
        os.environ.update({**env, "AMIGOS_DATABASE_URL": args.database})
        import load as load_bench

        players = load_bench.make_players(
            (args.tables + args.correspondence) * 4 + args.bot_tables + args.lobby + args.spectators
        )
        made = load_bench.make_tables(players, args.tables, args.bot_tables)
        used = args.tables * 4 + args.bot_tables
        slow = load_bench.make_tables(players[used:], args.correspondence, 0, kind="correspondence")
        used += args.correspondence * 4
        extra = [user for user, _ in players[used:]]
        from django.db import connections

        connections.close_all()
        stop_on_signals()  # SIGTERM or SIGINT: the hosts and namespaces go too
        with Cluster(args.hosts, args.database, args.redis, env) as cluster:
            run = soak(cluster, args, made, slow, dict(players), extra, period)
            samples, watch, counts = asyncio.run(run)
            namespaces = cluster.namespaces
    names = list(FLOORS)
    result = {
        "bench": "soak",
        "minutes": round(args.minutes, 2),
        "hosts": args.hosts,
        "namespaces": namespaces,
        "tables": args.tables,
        "bot_tables": args.bot_tables,
        "correspondence_tables": args.correspondence,
        "plays": len(watch.acked),
        "errors": dict(sorted(watch.errors.items())),
        **counts,
        "growth": {name: growth([row[name] for row in samples], floor=FLOORS[name]) for name in names},
        "samples": samples,
        "machine_loop_ns": loop_ns,
    }
    if args.svg:
        Path(args.svg).write_text(
            svg_plot(
                {name: [row[name] for row in samples] for name in names},
                [row["second"] for row in samples],
                f"soak: {args.hosts} hosts, {args.tables}+{args.bot_tables} tables, {args.minutes:g} min",
            )
        )
    print(json.dumps(result, indent=None if args.json else 2))
    return 0 if result["plays"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
