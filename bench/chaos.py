"""Faults on purpose while tables play across hosts (issue 40, item 4).

    python bench/chaos.py --seed S --minutes M [--hosts N] [--tables T] [--database URL]
                          [--redis URL] [--json] [--quick]

Starts N server hosts on this machine (``amigos.bench.hosts``: each in its own network namespace
where allowed, sharing one PostgreSQL and one Redis through proxies this script owns), seats T
four-person tables with each seat's client on another host than the next seat's (so plays cross
the bus), and has every client play its first legal tile a moment after its turn comes, vote for
a rematch at a match's end and follow it. Meanwhile it carries out the seeded schedule of faults
of ``amigos.bench.chaos_plan`` (SIGKILL or SIGTERM a host, freeze one past its lease, restart
Redis, restart PostgreSQL, hang PostgreSQL, cut a host's network), one after another.

The PostgreSQL and Redis it restarts are its own (``amigos.bench.services``: a cluster made with
`initdb` and a `redis-server`, on free loopback ports, removed at the end), never the machine's
shared ones. Where they cannot run (no server programs installed), or with ``--shared-services``,
it uses the database and Redis given by --database and --redis instead, and a "restart" is every
connection dropped by killing the proxy in front (the JSON's ``services`` says which). The
database is dropped and created again either way: give it one of its own.

At the end it reads every table's log and every match record back from the database and checks:

* ``lost`` — plays the server acknowledged (``ack`` with a version) that are not in the table's
  log at that version with that tile (0 expected);
* ``duplicated`` — a tile laid twice in one hand of a log, or one version acknowledged for two
  different plays (0 expected);
* ``stuck`` — tables (followed through their rematches) with no play in the run's last
  ``--settle`` seconds (0 expected);
* ``leaked`` — a seat shown another seat's tiles: a turn's legal tiles in a copy for a seat not in
  turn, or two seats of one hand dealt the same tile (0 expected);
* ``records_replayed`` / ``records_failed`` — every match record replayed by ``amigos replay``'s
  own function (``replay_failed`` 0 expected).

For each fault: ``recovery_s``, from the moment the fault was undone until every table had played
again, and ``busy``, the commands answered ``busy`` from the fault's start until then.
``--json`` prints one object; the exit status is 1 when an invariant is broken. ``--quick``: 2
hosts, 4 tables, 75 s with two faults (a SIGKILL and a Redis restart). Every figure is printed
with ``machine_loop_ns``; the run never fails on wall-clock time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from amigos.bench import services  # noqa: E402
from amigos.bench.chaos_plan import Fault, schedule  # noqa: E402
from amigos.bench.hosts import Cluster, Host, reset_database, stop_on_signals  # noqa: E402

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/amigos_hosts"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"

#: The lease the hosts are given (seconds): short, so a frozen host's tables move within the run.
LEASE_SECONDS = 6


@dataclass
class Watch:
    """What the clients saw, shared by all of them (one event loop)."""

    acked: list[tuple[int, int, str]] = field(default_factory=list)  # (table, version, tile)
    last_play: dict[int, float] = field(default_factory=dict)  # chain -> monotonic time
    busy: list[float] = field(default_factory=list)  # when each `busy` came
    errors: dict[str, int] = field(default_factory=dict)
    dealt: dict[tuple[int, int], dict[int, frozenset[str]]] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    reconnects: int = 0
    where: dict[int, int] = field(default_factory=dict)  # chain -> the table it plays at now


class SeatClient:
    """One seat's browser, as the table page behaves: joins, plays, heartbeats, rejoins after a
    `resync` or a `busy`, reconnects (to its own host) after a lost socket, votes for a rematch."""

    def __init__(self, chain: int, table: int, seat: int, host: Host, session: str, watch: Watch) -> None:
        self.chain, self.table, self.seat, self.host = chain, table, seat, host
        self.session, self.watch = session, watch
        self.version: int | None = None
        self.ident = 0
        self.sent: dict[int, tuple[str, int, str]] = {}  # id -> (kind, table, tile)
        self.heartbeat = 20.0
        # the turn in progress (its `clock`), until a play, a new hand or the match's end closes
        # it: after a rejoin (the turn's `clock` may have come before the socket broke) or after
        # a play refused because the table was paused, the seat in turn plays it again, as a
        # person at the table does once the page shows the table going on
        self.turn: dict[str, Any] | None = None
        self.refused_paused = False

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self._session(stop)
            except (OSError, TimeoutError, websockets.WebSocketException):
                self.watch.reconnects += 1
            except Exception as error:  # a bug of this client: counted, and the seat goes on
                name = f"client {type(error).__name__}: {error}"
                self.watch.errors[name] = self.watch.errors.get(name, 0) + 1
            if not stop.is_set():
                await asyncio.sleep(random.uniform(0.3, 1.0))

    async def _session(self, stop: asyncio.Event) -> None:
        url = f"ws://{self.host.address}:{self.host.port}/ws/?lobby=0"
        headers = {"Origin": self.host.url, "Cookie": f"sessionid={self.session}"}
        async with websockets.connect(url, additional_headers=headers, open_timeout=10, max_size=None) as ws:
            self.ws = ws
            await self.send("table.join", {"table_id": self.table, "since": self.version})
            beating = asyncio.create_task(self._beat(stop))
            stopping = asyncio.create_task(stop.wait())
            try:
                while True:
                    reading = asyncio.create_task(ws.recv())
                    await asyncio.wait((reading, stopping), return_when=asyncio.FIRST_COMPLETED)
                    if stop.is_set():
                        reading.cancel()
                        return
                    await self.on_message(json.loads(reading.result()))
            finally:
                beating.cancel()
                stopping.cancel()

    async def send(self, kind: str, payload: dict[str, Any], tile: str = "") -> None:
        self.ident += 1
        self.sent[self.ident] = (kind, payload.get("table_id", 0), tile)
        await self.ws.send(json.dumps({"type": kind, "id": self.ident, "payload": payload}))

    async def _beat(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.sleep(self.heartbeat * random.uniform(0.3, 0.6))
            await self.send("heartbeat", {})

    async def _rejoin(self, pause: float) -> None:
        await asyncio.sleep(pause)
        await self.send("table.join", {"table_id": self.table, "since": self.version})

    async def _play(self, turn: dict[str, Any], version: int) -> None:
        await asyncio.sleep(random.uniform(0.05, 0.3))
        if self.turn is not turn:
            return  # the turn closed (a play, a new hand) or a newer clock came meanwhile
        # Rows that do not end the turn (a seat leaving or coming back) may have come meanwhile:
        # the page plays on the version it shows now, as a person's would. (Dropping the play
        # there left the turn to its clock: cards, then the system's move, a table slow enough to
        # look stuck at the run's end.)
        version = self.version if self.version is not None else version
        entry = turn["legal"][0]
        payload = {
            "table_id": self.table,
            "version": version,
            "tile": entry["tile"],
            "arm": entry["arms"][0] if entry["arms"] else None,
            "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
        }
        await self.send("table.play", payload, entry["tile"])

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def on_message(self, envelope: dict[str, Any]) -> None:
        kind, payload, watch = envelope["type"], envelope["payload"], self.watch
        turn = None
        if kind == "welcome":
            self.heartbeat = float(payload["heartbeat_seconds"])
        elif kind == "resync":
            self.spawn(self._rejoin(0.0))
        elif kind == "table.snapshot" and payload.get("table_id", self.table) == self.table:
            self.version = payload["version"]
            self.seat = payload["seat"]  # a rematch may seat the player elsewhere
            turn = payload["turn"]
        elif kind == "table.events" and payload["table_id"] == self.table:
            for event in payload["events"]:
                if self.version is not None and event["version"] <= self.version:
                    continue
                self.version = event["version"]
                data = event["data"]
                if event["kind"] in ("played", "hand_started", "match_ended"):
                    self.turn = None
                if event["kind"] == "played":
                    watch.last_play[self.chain] = time.monotonic()
                    watch.where[self.chain] = self.table
                elif event["kind"] == "hand_started":
                    dealt = watch.dealt.setdefault((self.table, data["number"]), {})
                    dealt[self.seat] = frozenset(data["hand"])
                elif event["kind"] == "clock":
                    if data.get("legal") and data["seat"] != self.seat:
                        watch.leaks.append(
                            f"table {self.table}: seat {self.seat} got seat {data['seat']}'s legal"
                        )
                    turn = data
                elif event["kind"] == "match_ended":
                    self.spawn(self.send("table.vote", self._vote(event["version"])))
                elif event["kind"] == "votes_closed" and data.get("next_table_id") is not None:
                    self.table, self.version, turn, self.turn = data["next_table_id"], None, None, None
                    self.spawn(self._rejoin(0.0))
                    break
            if turn is None and self.refused_paused and self.turn is not None:
                self.refused_paused = False  # the table moved on (a seat came back): play again
                turn = self.turn
        elif kind == "ack":
            sent = self.sent.pop(payload.get("reply_to"), None)
            if sent is not None and sent[0] == "table.play":
                watch.acked.append((sent[1], int(payload["version"]), sent[2]))
            elif sent is not None and sent[0] == "table.join" and sent[1] == self.table:
                turn = self.turn
        elif kind == "error":
            # `reply_to` is null or absent for a refusal of the socket itself (its opening refused,
            # its frames rate-limited): the server then closes it, and this seat opens another
            sent = self.sent.pop(payload.get("reply_to"), None)
            code = payload["code"] if "reply_to" in payload else f"{payload['code']} (the socket)"
            watch.errors[code] = watch.errors.get(code, 0) + 1
            if code == "busy":
                watch.busy.append(time.monotonic())
                self.spawn(self._rejoin(1.0))
            elif code == "stale_version" and sent is not None and sent[0] == "table.vote":
                self.spawn(self.send("table.vote", self._vote(self.version or 0)))
            elif code in ("stale_version", "not_your_turn"):
                self.spawn(self._rejoin(0.2))
            elif code == "table_paused":
                self.refused_paused = True
        if turn is not None:
            self.turn = turn
        if turn is not None and turn.get("seat") == self.seat and turn.get("legal"):
            self.spawn(self._play(turn, self.version or 0))

    def _vote(self, version: int) -> dict[str, Any]:
        return {"table_id": self.table, "version": version, "choice": "rematch"}


async def inject(cluster: Cluster, fault: Fault, own: services.OwnServices | None) -> None:
    """Carry out one fault and undo it after its hold (blocking work on threads: the clients play
    on). With ``own`` services, Redis and PostgreSQL are stopped for the hold and started again."""
    host = cluster.hosts[fault.host] if fault.host is not None else None
    if fault.kind == "kill" and host is not None:
        await asyncio.to_thread(cluster.kill, host)
        await asyncio.sleep(fault.hold_s)
        await asyncio.to_thread(cluster.restart, host)
    elif fault.kind == "term" and host is not None:
        await asyncio.to_thread(cluster.terminate, host)
        await asyncio.sleep(fault.hold_s)
        await asyncio.to_thread(cluster.restart, host)
    elif fault.kind == "freeze" and host is not None:
        cluster.freeze(host)
        await asyncio.sleep(fault.hold_s)
        cluster.thaw(host)
    elif fault.kind == "cut" and host is not None:
        await asyncio.to_thread(cluster.cut, host)
        await asyncio.sleep(fault.hold_s)
        await asyncio.to_thread(cluster.mend, host)
    elif fault.kind in ("redis", "postgres") and own is not None:
        down, up = (
            (own.stop_redis, own.start_redis)
            if fault.kind == "redis"
            else (own.stop_postgres, own.start_postgres)
        )
        await asyncio.to_thread(down)
        await asyncio.sleep(fault.hold_s)
        await asyncio.to_thread(up)
    elif fault.kind in ("redis", "postgres"):
        proxy = cluster.proxies[fault.kind]
        await asyncio.to_thread(proxy.kill)
        await asyncio.sleep(fault.hold_s)
        await asyncio.to_thread(proxy.start)
    elif fault.kind == "block":
        proxy = cluster.proxies["postgres"]
        proxy.freeze()
        await asyncio.sleep(fault.hold_s)
        proxy.thaw()


async def play(
    cluster: Cluster,
    tables: list[tuple[int, list[int]]],
    sessions: dict[int, str],
    faults: list[Fault],
    seconds: float,
    settle: float,
    own: services.OwnServices | None = None,
) -> tuple[Watch, list[dict[str, Any]]]:
    watch = Watch()
    stop = asyncio.Event()
    clients = [
        SeatClient(
            chain, table, seat, cluster.hosts[(chain + seat) % len(cluster.hosts)], sessions[user], watch
        )
        for chain, (table, users) in enumerate(tables)
        for seat, user in enumerate(users)
    ]
    tasks = [asyncio.create_task(client.run(stop)) for client in clients]
    start = time.monotonic()
    outcomes = []
    for number, fault in enumerate(faults):
        await asyncio.sleep(max(0.0, start + fault.at_s - time.monotonic()))
        began = time.monotonic()
        await inject(cluster, fault, own)
        undone = time.monotonic()
        # until the next fault is due (or the run ends): a fault the tables did not recover from
        # in that time shows as `recovery_s` null, and the schedule goes on as seeded
        until = start + (faults[number + 1].at_s if number + 1 < len(faults) else seconds)
        recovered = await _all_played_after(watch, len(tables), undone, until)
        outcomes.append(
            {
                "kind": fault.kind,
                "host": fault.host,
                "at_s": round(began - start, 1),
                "hold_s": fault.hold_s,
                "recovery_s": None if recovered is None else round(recovered - undone, 2),
                "busy": sum(1 for moment in watch.busy if began <= moment <= (recovered or time.monotonic())),
            }
        )
    await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))
    # the last `settle` seconds must see every table play (none stuck)
    watch.last_play = {
        chain: moment for chain, moment in watch.last_play.items() if moment >= time.monotonic() - settle
    }
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return watch, outcomes


async def _all_played_after(watch: Watch, chains: int, moment: float, until: float) -> float | None:
    """When every table (chain) had played after ``moment`` (None: not before ``until``)."""
    while time.monotonic() < until:
        played = [watch.last_play.get(chain, 0.0) for chain in range(chains)]
        if all(value > moment for value in played):
            return max(played)
        await asyncio.sleep(0.1)
    return None


def check(watch: Watch, tables: int) -> dict[str, Any]:
    """Read every log and record back and count what the module docstring lists."""
    from amigos.cli.replay import replay_main
    from amigos.web.tables.models import LogRow, MatchRecord

    played: dict[int, list[tuple[int, str]]] = defaultdict(list)  # table -> (version, tile)
    hands: dict[int, list[int]] = defaultdict(list)  # table -> versions of its hand_started
    duplicated = 0
    hand_tiles: dict[int, set[str]] = defaultdict(set)
    for table_id, version, kind, data in LogRow.objects.order_by("table_id", "version").values_list(
        "table_id", "version", "kind", "data"
    ):
        if kind == "hand_started":
            hand_tiles[table_id] = set()
            hands[table_id].append(version)
        elif kind == "played":
            played[table_id].append((version, data["tile"]))
            if data["tile"] in hand_tiles[table_id]:
                duplicated += 1
            hand_tiles[table_id].add(data["tile"])
    by_version: dict[tuple[int, int], set[str]] = defaultdict(set)
    for table_id, version, tile in watch.acked:
        by_version[(table_id, version)].add(tile)
    duplicated += sum(1 for tiles in by_version.values() if len(tiles) > 1)

    def logged(table_id: int, version: int, tile: str) -> bool:
        # the ack names the table's version after the play (and what the play set off with it):
        # the tile must be in the log at or before it, after the start of that hand
        began = max((start for start in hands[table_id] if start <= version), default=0)
        return any(began < at <= version and laid == tile for at, laid in played[table_id])

    lost = sum(1 for table_id, version, tile in watch.acked if not logged(table_id, version, tile))
    leaks = list(watch.leaks)
    for (table_id, number), seats in watch.dealt.items():
        seen: set[str] = set()
        for tiles in seats.values():
            if seen & tiles:
                leaks.append(f"table {table_id} hand {number}: two seats dealt the same tile")
            seen |= tiles
    replayed = failed = 0
    for record in MatchRecord.objects.values_list("record", flat=True):
        out, err = io.StringIO(), io.StringIO()
        status = replay_main("-", io.StringIO(json.dumps(record)), out, err)
        replayed += 1
        failed += status != 0
    quiet = [
        {"chain": chain, "table": watch.where.get(chain), **_last_event(watch.where.get(chain))}
        for chain in range(tables)
        if chain not in watch.last_play
    ]
    # a table whose match ended without a rematch (a seat away when the votes closed) is done,
    # not stuck; one still in play that nobody has played at for `settle` seconds is stuck
    stuck = [entry for entry in quiet if entry.get("status") not in ("finished", "cancelled")]
    return {
        "stuck_tables": stuck,
        "ended_without_rematch": len(quiet) - len(stuck),
        "acked": len(watch.acked),
        "lost": lost,
        "duplicated": duplicated,
        "stuck": len(stuck),
        "leaked": len(leaks),
        "leaks": leaks[:5],
        "records_replayed": replayed,
        "replay_failed": failed,
        "errors": dict(sorted(watch.errors.items())),
        "reconnects": watch.reconnects,
    }


def _last_event(table_id: int | None) -> dict[str, Any]:
    """A stuck table's state, for the report: its status and its log's last event."""
    from amigos.web.tables.models import LogRow, Table

    if table_id is None:
        return {}
    table = Table.objects.filter(pk=table_id).values("status", "owner", "next_table_id").first() or {}
    last = LogRow.objects.filter(table_id=table_id).order_by("-version").values("version", "kind").first()
    return {**table, "last_event": last}


def host_env(data_dir: str) -> dict[str, str]:
    import lobby as lobby_bench

    env = lobby_bench.server_env(data_dir, None)
    env.update(
        {
            "AMIGOS_TABLE_LEASE_SECONDS": str(LEASE_SECONDS),
            "AMIGOS_TABLE_LEASE_RENEW_SECONDS": "2",
            "AMIGOS_TABLE_HAND_PAUSE_SECONDS": "1",
            "AMIGOS_TABLE_BOT_DELAY_MS": "0",
            "AMIGOS_DRAIN_SECONDS": "1",
            "AMIGOS_BOT_PROCESSES": "0",
            "AMIGOS_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT / "src"),
        }
    )
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--kinds", default="", help="comma-separated fault kinds (default: all)")
    parser.add_argument(
        "--settle", type=float, default=20.0, help="seconds at the end every table must play in"
    )
    parser.add_argument(
        "--shared-services",
        action="store_true",
        help="use --database and --redis instead of a PostgreSQL and a Redis of the run's own",
    )
    parser.add_argument(
        "--database", default=DEFAULT_DATABASE, help="with shared services: a database of its own, reset"
    )
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="with shared services")
    parser.add_argument("--loopback", action="store_true", help="no network namespaces (no `cut` faults)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--keep-logs", action="store_true", help="keep the hosts' logs (their path is printed)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="2 hosts, 4 tables, 75 s, a kill and a Redis restart"
    )
    args = parser.parse_args(argv)
    kinds = tuple(kind for kind in args.kinds.split(",") if kind)
    if args.quick:
        args.hosts, args.tables, args.minutes = 2, 4, 1.25
        kinds = kinds or ("kill", "redis")
    import tempfile

    from amigos.bench.chaos_plan import KINDS
    from amigos.bench.hosts import namespaces_allowed
    from amigos.bench.machine import machine_loop_ns

    loop_ns = machine_loop_ns()
    namespaces = False if args.loopback else namespaces_allowed()
    kinds = kinds or tuple(kind for kind in KINDS if namespaces or kind != "cut")
    seconds = args.minutes * 60
    faults = schedule(args.seed, seconds - args.settle, args.hosts, kinds=kinds, lease_s=LEASE_SECONDS)
    why_shared = "asked (--shared-services)" if args.shared_services else services.available()
    stop_on_signals()
    try:
        with contextlib.ExitStack() as stack:
            own = None if why_shared else stack.enter_context(services.OwnServices())
            database = own.database_url("amigos_chaos") if own else args.database
            redis_url = own.redis_url(14) if own else args.redis
            reset_database(database)
            data_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="amigos-chaos-"))
            env = host_env(data_dir)
            os.environ.update({**env, "AMIGOS_DATABASE_URL": database})
            import load as load_bench

            players = load_bench.make_players(args.tables * 4)
            tables = load_bench.make_tables(players, args.tables, 0)
            from django.db import connections

            connections.close_all()
            cluster = Cluster(
                args.hosts, database, redis_url, env, namespaces=namespaces, keep_logs=args.keep_logs
            )
            with cluster:
                run = play(cluster, tables, dict(players), faults, seconds, args.settle, own)
                watch, outcomes = asyncio.run(run)
            result = {
                "bench": "chaos",
                "seed": args.seed,
                "minutes": args.minutes,
                "hosts": args.hosts,
                "namespaces": namespaces,
                "services": "own" if own else f"shared: {why_shared}",
                "tables": args.tables,
                "faults": outcomes,
                **check(watch, args.tables),
                "machine_loop_ns": loop_ns,
            }
            connections.close_all()  # before its own cluster stops
    except KeyboardInterrupt:
        print(
            "interrupted: every host, proxy, service and namespace this run started is stopped",
            file=sys.stderr,
        )
        return 130
    print(json.dumps(result, indent=2 if not args.json else None))
    broken = result["lost"] or result["duplicated"] or result["stuck"] or result["leaked"]
    return 1 if broken or result["replay_failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
