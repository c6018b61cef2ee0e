"""The lobby under load, over real sockets: `python bench/lobby.py [--players N] [--rate R] [--quick]`.

Starts its own server (`amigos serve`, production settings, SQLite in a scratch directory unless
--database-url names another database), creates N players with signed-in sessions, then joins them
one after another at R joins per second, each over its own WebSocket, every client heartbeating like
a browser. It prints JSON:

* `presence_messages_per_socket`, `presence_bytes_per_socket` (mean, and max) — what the online
  list cost each socket during the whole join;
* `max_presence_messages_in_one_second` — the most presence messages any socket got in a single
  second of the clock (the goal is 1; a new socket's full list may share its first second);
* `server_cpu_seconds` — user+system CPU of the server process during the join;
* `change_latency_p50_s`, `change_latency_p99_s`, `change_latency_max_s` — for each join and
  each socket already connected, the time from the joining socket's connection to that socket's
  list showing the newcomer;
* `list_correct` — after the join every socket's list (full list + deltas applied) holds all N.

`--flood` measures issue 8's flood instead: one account opens as many sockets as it may and sends
commands as fast as it can, while another player's heartbeat round trip is timed. It measures issue
36's probe too (`costly`): one socket sends 8 KB frames made to be slow to parse (an unterminated
string of escaped quotes behind 33 brackets), two a second, while the same heartbeat is timed.

Goals (one process, this machine): 2,000 players at 20 joins/s, p99 ≤ 2 s, at most one presence
message per socket per second, under 30 s of server CPU for the whole join.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from amigos.bench.quantiles import percentile  # noqa: E402  (load.py's figures use it too)

AMIGOS = (
    [sys.executable, "-m", "amigos.cli"]
    if not (ROOT / ".venv/bin/amigos").exists()
    else [str(ROOT / ".venv/bin/amigos")]
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_env(data_dir: str, database_url: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "amigos.web.settings.production",
            "AMIGOS_SECRET_KEY": "bench-" + "x" * 40,
            "AMIGOS_ALLOWED_HOSTS": "127.0.0.1",
            "AMIGOS_SSL_REDIRECT": "0",
            "AMIGOS_DATA_DIR": data_dir,
            "AMIGOS_LOG_LEVEL": "WARNING",
            "AMIGOS_DB_CONN_MAX_AGE": "60",
            # Every client of a bench opens its sockets from 127.0.0.1, thousands in a minute: the
            # openings one address may make (a defence against one machine, tested on its own)
            # would refuse nearly all of them.
            "AMIGOS_SOCKET_OPENINGS_PER_SECOND": "1000000",
            "AMIGOS_SOCKET_OPENING_BURST": "1000000",
        }
    )
    if database_url:
        env["AMIGOS_DATABASE_URL"] = database_url
    if os.environ.get("AMIGOS_REDIS_URL"):
        env["AMIGOS_REDIS_URL"] = os.environ["AMIGOS_REDIS_URL"]
        env["AMIGOS_BUS_NAMESPACE"] = f"bench-{os.getpid()}"
    return env


def make_players(count: int) -> list[tuple[int, str]]:
    """N players with a live session each (no password hashing: sessions are made directly)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from amigos.web.accounts.models import User
    from amigos.web.accounts.services import LAST_ACTIVITY_KEY

    call_command("migrate", verbosity=0, interactive=False)
    users = User.objects.bulk_create([keyed(User, n) for n in range(count)])
    result = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store[LAST_ACTIVITY_KEY] = time.time() + 3600  # active throughout the run
        store.create()
        assert store.session_key is not None
        result.append((int(user.pk), store.session_key))
    return result


def keyed(user_model: Any, n: int) -> Any:
    """An unsaved player with the comparison keys `save()` would give it (bulk_create skips save)."""
    from amigos.web.accounts import identity

    email, name = f"bench{n}@example.org", f"Jugador {n:05d}"
    user = user_model(email=email, display_name=name, password="!")  # noqa: S106  (no password sign-in)
    for field, value in (
        ("email_key", identity.identifier_key(email)),
        ("name_key", identity.identifier_key(name)),
        ("email_skeleton", identity.skeleton(email)),
        ("name_skeleton", identity.skeleton(name)),
    ):
        if hasattr(user, field):
            setattr(user, field, value)
    return user


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One player's socket: keeps the online list the way the browser does, and when each id
    appeared in it."""

    def __init__(self, user_id: int, session_key: str) -> None:
        self.user_id = user_id
        self.session_key = session_key
        self.online: set[int] = set()
        self.seen_at: dict[int, float] = {}
        self.presence_messages = 0
        self.presence_bytes = 0
        self.per_second: defaultdict[int, int] = defaultdict(int)
        self.connection: Any = None
        self.welcomed = asyncio.Event()
        self.replies: dict[int, asyncio.Future[float]] = {}
        self.next_id = 0

    async def run(self, url: str, origin: str, heartbeat: float) -> None:

        try:
            await self._run(url, origin, heartbeat)
        except Exception as error:
            print(f"client {self.user_id}: {error!r}", file=sys.stderr)
            raise

    async def _run(self, url: str, origin: str, heartbeat: float) -> None:
        import websockets

        self.connection = await websockets.connect(
            url,
            additional_headers={"Origin": origin, "Cookie": f"sessionid={self.session_key}"},
            max_size=None,
            open_timeout=60,
        )
        beat = asyncio.get_running_loop().create_task(self._beat(heartbeat))
        try:
            async for raw in self.connection:
                self._receive(raw)
        except websockets.ConnectionClosed:
            pass
        finally:
            beat.cancel()

    async def _beat(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.command("heartbeat")

    async def command(self, kind: str, payload: dict[str, Any] | None = None) -> float:
        """Send a command; the round trip in seconds once answered."""
        self.next_id += 1
        ident = self.next_id
        answered: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.replies[ident] = answered
        sent = time.perf_counter()
        await self.connection.send(json.dumps({"type": kind, "id": ident, "payload": payload or {}}))
        return await answered - sent

    def _receive(self, raw: str | bytes) -> None:
        now = time.perf_counter()
        envelope = json.loads(raw)
        kind, payload = envelope["type"], envelope["payload"]
        if kind in ("presence", "presence.delta"):
            self.presence_messages += 1
            self.presence_bytes += len(raw)
            self.per_second[int(now)] += 1
            if kind == "presence":
                arrived = [p["id"] for p in payload["players"]]
                self.online = set(arrived)
            else:
                arrived = [p["id"] for p in payload["added"]]
                self.online.difference_update(payload["removed"])
                self.online.update(arrived)
                self.online.update(p["id"] for p in payload["changed"])
            for user_id in arrived:  # only what this message brought: the client must stay cheap
                self.seen_at.setdefault(user_id, now)
        elif kind == "welcome":
            self.welcomed.set()
        elif kind in ("ack", "error"):
            answered = self.replies.pop(payload.get("reply_to"), None)
            if answered is not None and not answered.done():
                answered.set_result(now)


def start_server(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [*AMIGOS, "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


async def join_all(
    players: list[tuple[int, str]], port: int, server_pid: int, rate: float, heartbeat: float
) -> dict[str, Any]:
    url, origin = f"ws://127.0.0.1:{port}/ws/", f"http://127.0.0.1:{port}"
    clients = [Client(user_id, key) for user_id, key in players]
    started_at: dict[int, float] = {}
    tasks = []
    cpu_before = cpu_seconds(server_pid)
    begin = time.perf_counter()
    for n, client in enumerate(clients):
        delay = begin + n / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        started_at[client.user_id] = time.perf_counter()
        tasks.append(asyncio.get_running_loop().create_task(client.run(url, origin, heartbeat)))
    everyone = {c.user_id for c in clients}

    async def settled() -> None:
        waiting = list(clients)
        while waiting:
            waiting = [c for c in waiting if len(c.online) != len(everyone) or c.online != everyone]
            await asyncio.sleep(0.5)

    timed_out = False
    try:
        await asyncio.wait_for(settled(), timeout=60)
    except TimeoutError:
        timed_out = True
    joined = time.perf_counter()
    cpu = cpu_seconds(server_pid) - cpu_before
    latencies = []
    for client in clients:
        mine = started_at[client.user_id]
        for other, at in client.seen_at.items():
            if started_at.get(other, 0) > mine:  # a change that happened while this socket was there
                latencies.append(at - started_at[other])
    messages = [c.presence_messages for c in clients]
    sizes = [c.presence_bytes for c in clients]
    for client in clients:
        if client.connection is not None:
            await client.connection.close()
    for task in tasks:
        task.cancel()
    return {
        "players": len(clients),
        "joins_per_second": rate,
        "join_seconds": round(joined - begin, 2),
        "list_correct": not timed_out,
        "presence_messages_per_socket": round(statistics.mean(messages), 1),
        "presence_messages_per_socket_max": max(messages),
        "presence_bytes_per_socket": round(statistics.mean(sizes)),
        "presence_bytes_per_socket_max": max(sizes),
        "presence_bytes_total": sum(sizes),
        "max_presence_messages_in_one_second": max(max(c.per_second.values(), default=0) for c in clients),
        "server_cpu_seconds": round(cpu, 2),
        "change_latency_p50_s": round(percentile(latencies, 0.5), 3),
        "change_latency_p99_s": round(percentile(latencies, 0.99), 3),
        "change_latency_max_s": round(max(latencies, default=0.0), 3),
        "latency_samples": len(latencies),
    }


async def flood(players: list[tuple[int, str]], port: int, seconds: float, sockets: int) -> dict[str, Any]:
    """One account floods from `sockets` sockets; another player's heartbeat round trip is timed."""
    url, origin = f"ws://127.0.0.1:{port}/ws/", f"http://127.0.0.1:{port}"
    (victim_id, victim_key), (flooder_id, flooder_key) = players[0], players[1]
    victim = Client(victim_id, victim_key)
    flooders = [Client(flooder_id, flooder_key) for _ in range(sockets)]
    runs = [asyncio.get_running_loop().create_task(c.run(url, origin, 3600)) for c in [victim, *flooders]]
    await asyncio.wait_for(victim.welcomed.wait(), 30)
    stop = time.perf_counter() + seconds
    sent = 0

    async def pour(client: Client) -> None:
        nonlocal sent
        try:
            await asyncio.wait_for(client.welcomed.wait(), 10)
        except TimeoutError:
            return  # refused: over the per-player socket limit
        while time.perf_counter() < stop:
            frames = [
                json.dumps({"type": "chat.send", "id": f"f{sent + i}", "payload": {"text": "spam"}})
                for i in range(50)
            ]
            sent += len(frames)
            try:
                for frame in frames:
                    await client.connection.send(frame)
            except Exception:
                return
            await asyncio.sleep(0)

    pourers = [asyncio.get_running_loop().create_task(pour(c)) for c in flooders]
    round_trips = []
    while time.perf_counter() < stop:
        round_trips.append(await asyncio.wait_for(victim.command("heartbeat"), 30))
        await asyncio.sleep(0.05)
    await asyncio.gather(*pourers)
    for client in [victim, *flooders]:
        if client.connection is not None:
            await client.connection.close()
    for task in runs:
        task.cancel()
    return {
        "flood_sockets_welcomed": sum(c.welcomed.is_set() for c in flooders),
        "flood_frames_sent": sent,
        "heartbeats_answered": len(round_trips),
        "heartbeat_rtt_p50_ms": round(percentile(round_trips, 0.5) * 1000, 1),
        "heartbeat_rtt_p99_ms": round(percentile(round_trips, 0.99) * 1000, 1),
        "heartbeat_rtt_max_ms": round(max(round_trips, default=0) * 1000, 1),
    }


#: Issue 36's probe: 33 brackets, so the nesting is counted, then an unterminated string of
#: escaped quotes. Each took 0.58 s to parse; ten over 5 s held 82% of a process.
COSTLY_FRAME = "[" * 33 + '"\\' * 4079


async def costly(players: list[tuple[int, str]], port: int, seconds: float) -> dict[str, Any]:
    """One socket sends `COSTLY_FRAME` twice a second; another player's heartbeat round trip is timed."""
    url, origin = f"ws://127.0.0.1:{port}/ws/", f"http://127.0.0.1:{port}"
    (victim_id, victim_key), (prober_id, prober_key) = players[0], players[1]
    victim, prober = Client(victim_id, victim_key), Client(prober_id, prober_key)
    runs = [asyncio.get_running_loop().create_task(c.run(url, origin, 3600)) for c in (victim, prober)]
    await asyncio.wait_for(asyncio.gather(victim.welcomed.wait(), prober.welcomed.wait()), 30)
    stop = time.perf_counter() + seconds
    sent = 0

    async def probe() -> None:
        nonlocal sent
        while time.perf_counter() < stop:
            try:
                await prober.connection.send(COSTLY_FRAME)
            except Exception:
                return  # closed by the server
            sent += 1
            await asyncio.sleep(0.5)

    prober_task = asyncio.get_running_loop().create_task(probe())
    round_trips = []
    while time.perf_counter() < stop:
        round_trips.append(await asyncio.wait_for(victim.command("heartbeat"), 30))
        await asyncio.sleep(0.05)
    await prober_task
    for client in (victim, prober):
        if client.connection is not None:
            await client.connection.close()
    for task in runs:
        task.cancel()
    return {
        "frames_sent": sent,
        "heartbeats_answered": len(round_trips),
        "heartbeat_rtt_p50_ms": round(percentile(round_trips, 0.5) * 1000, 1),
        "heartbeat_rtt_p99_ms": round(percentile(round_trips, 0.99) * 1000, 1),
        "heartbeat_rtt_max_ms": round(max(round_trips, default=0) * 1000, 1),
    }


def archive_cuban_matches(askers: list[tuple[int, str]]) -> list[int]:
    """One finished Cuban 2v2 match for each asker (seat 0; computers at the others), each from its
    own simulated deal, so no two of them ask for the same position."""
    import random
    from datetime import UTC, datetime, timedelta

    from amigos.engine import find_variant
    from amigos.engine.simulate import simulate_match
    from amigos.web.archive.models import ArchivedMatch
    from amigos.web.archive.services.handover import archive_match

    started = datetime(2026, 1, 1, tzinfo=UTC)
    ids = []
    for number, (user_id, _key) in enumerate(askers):
        record = simulate_match(find_variant("cuban-2v2", 4), random.Random(number))
        source = f"bench:analysis:{number}"
        archive_match(
            source=source,
            record=record.to_obj(),
            seat_user_ids=[user_id, None, None, None],
            table_name=f"Análisis {number}",
            started_at=started,
            ended_at=started + timedelta(minutes=10),
        )
        ids.append(int(ArchivedMatch.objects.get(source=source).pk))
    return ids


def _http(port: int, method: str, path: str, session_key: str) -> tuple[int, dict[str, Any]]:
    """One request as a signed-in browser would make it (the CSRF cookie and header of a page)."""
    import http.client

    token = "b" * 32
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(
            method,
            path,
            headers={
                "Cookie": f"sessionid={session_key}; csrftoken={token}",
                "X-CSRFToken": token,
                "Accept": "application/json",
            },
        )
        response = connection.getresponse()
        body = response.read()
        return response.status, json.loads(body) if body.startswith(b"{") else {}
    finally:
        connection.close()


async def analysis(players: list[tuple[int, str]], matches: list[int], port: int) -> dict[str, Any]:
    """Issue 36's second goal: ``askers`` players ask for the value of every play at a Cuban first
    lead at the same moment (the Academy's heaviest position), each in a match of their own
    (``matches``, made by `archive_cuban_matches` for ``players[1:]``), while
    another player's heartbeat round trip is timed over their socket. Every job runs in the site's
    search workers (a bounded queue, one job per player), none in the server's event loop."""
    url, origin = f"ws://127.0.0.1:{port}/ws/", f"http://127.0.0.1:{port}"
    prober_id, prober_key = players[0]
    asking = players[1 : len(matches) + 1]
    prober = Client(prober_id, prober_key)
    run = asyncio.get_running_loop().create_task(prober.run(url, origin, 3600))
    await asyncio.wait_for(prober.welcomed.wait(), 30)
    started = time.perf_counter()
    submitted = await asyncio.gather(
        *(
            asyncio.to_thread(_http, port, "POST", f"/stats/replay/{match}/1/0/values/", key)
            for match, (_user, key) in zip(matches, asking, strict=True)
        )
    )
    places = [body.get("ahead") for _status, body in submitted]
    pending = {
        body["url"]: key
        for (status, body), (_user, key) in zip(submitted, asking, strict=True)
        if status == 202
    }
    refused = len(asking) - len(pending)
    answered: dict[str, dict[str, Any]] = {}
    round_trips: list[float] = []
    next_poll = time.perf_counter()
    while pending and time.perf_counter() - started < 600:
        round_trips.append(await asyncio.wait_for(prober.command("heartbeat"), 30))
        if time.perf_counter() >= next_poll:  # each page polls its job about once a second
            next_poll = time.perf_counter() + 1.0
            polls = await asyncio.gather(
                *(asyncio.to_thread(_http, port, "GET", job, key) for job, key in pending.items())
            )
            for (job, _key), (status, body) in zip(list(pending.items()), polls, strict=True):
                if status != 200 or body.get("status") in ("done", "failed"):
                    answered[job] = body
                    del pending[job]
        await asyncio.sleep(0.2)  # five heartbeats a second: within a socket's command rate
    seconds = time.perf_counter() - started
    await prober.connection.close()
    run.cancel()
    return {
        "askers": len(asking),
        "refused": refused,
        "refusals": sorted(
            {f"{status} {body.get('error', '')}".strip() for status, body in submitted if status != 202}
        ),
        "places": places,
        "answered": sum(1 for body in answered.values() if body.get("status") == "done"),
        "unanswered": len(pending),
        "all_answered_seconds": round(seconds, 1),
        "heartbeats_answered": len(round_trips),
        "heartbeat_rtt_p50_ms": round(percentile(round_trips, 0.5) * 1000, 1),
        "heartbeat_rtt_p99_ms": round(percentile(round_trips, 0.99) * 1000, 1),
        "heartbeat_rtt_max_ms": round(max(round_trips, default=0) * 1000, 1),
        "goal_rtt_p99_ms": 100.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=20.0, help="joins per second")
    parser.add_argument("--heartbeat", type=float, default=20.0, help="seconds between a client's heartbeats")
    parser.add_argument("--quick", action="store_true", help="60 players at 30/s, and a short flood (CI)")
    parser.add_argument("--flood", action="store_true", help="measure the flood instead of the join")
    parser.add_argument("--flood-seconds", type=float, default=10.0)
    parser.add_argument(
        "--analysis",
        type=int,
        metavar="N",
        help="measure N players asking for a Cuban first lead's values at once instead of the join",
    )
    parser.add_argument("--database-url", help="a database instead of a scratch SQLite file")
    parser.add_argument(
        "--postgres",
        metavar="SERVER_URL",
        help="a PostgreSQL server (postgresql://user@host:port) to make a scratch database on",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rate, args.flood_seconds = 60, 30.0, 3.0
    scratch = None
    if args.postgres:
        scratch = f"amigos_bench_lobby_{os.getpid()}"
        postgres(args.postgres, f"CREATE DATABASE {scratch}")
        args.database_url = f"{args.postgres.rstrip('/')}/{scratch}"
    try:
        return run(args)
    finally:
        if scratch:
            postgres(args.postgres, f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")


def postgres(server_url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(f"{server_url.rstrip('/')}/postgres", autocommit=True) as connection:
        connection.execute(statement)  # type: ignore[arg-type]  (a name we made, not user input)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="amigos-bench-lobby-") as data_dir:
        env = server_env(data_dir, args.database_url)
        os.environ.update(env)
        from amigos.bench.machine import machine_loop_ns

        players = make_players(2 if args.flood else (args.analysis + 1) if args.analysis else args.players)
        port = free_port()
        server = start_server(port, env)
        try:
            result: dict[str, Any] = {"bench": "lobby", "quick": args.quick}
            if args.analysis:
                matches = archive_cuban_matches(players[1 : args.analysis + 1])
                result["analysis"] = asyncio.run(analysis(players, matches, port))
                result["machine_loop_ns"] = machine_loop_ns()
            elif args.flood or args.quick:
                result["flood"] = asyncio.run(flood(players, port, args.flood_seconds, 12))
                result["costly"] = asyncio.run(costly(players, port, args.flood_seconds))
            if not args.flood and not args.analysis:
                result.update(asyncio.run(join_all(players, port, server.pid, args.rate, args.heartbeat)))
            print(json.dumps(result, indent=2), flush=True)
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
