"""What one database call of a socket command costs, with the thread's connection kept between
calls and with a new connection for each: `python bench/db_calls.py [--quick] [--json]`.

Why: every socket command that reads or writes goes through Channels' `database_sync_to_async`,
which asks Django to close a connection past its age before and after each call. With an age of 0
(what `AMIGOS_DB_CONN_MAX_AGE` used to default to) each call opened a new PostgreSQL connection:
a server process started, a TCP handshake, the session set up. The settings now keep PostgreSQL
connections 60 s (`amigos.web.settings.base`); this bench gives the figure behind that choice.

Both ways run in one process on two database aliases that differ only in their age, each with
Django's health check on (as the site runs): the call asks only for its server process's id (as
little as a command can ask), so the difference is what the connection itself costs, and the
distinct ids counted show how many connections each way opened. Needs PostgreSQL: `--database`, else
`AMIGOS_DATABASE_URL`, else the machine's own at 127.0.0.1:5432 (trust auth).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any

from amigos.bench.machine import machine_loop_ns

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/postgres"
#: The database aliases: a connection per call, and one kept for a minute.
WAYS = {"opened": 0, "kept": 60}


def _configure(url: str) -> None:
    import dj_database_url
    import django
    from django.conf import settings

    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench/db_calls.py measures PostgreSQL: give --database postgresql://…")
    databases = {
        alias: dj_database_url.parse(url, conn_max_age=age, conn_health_checks=True)
        for alias, age in WAYS.items()
    }
    databases["default"] = databases["kept"]
    settings.configure(DATABASES=databases, USE_TZ=True, INSTALLED_APPS=[])
    django.setup()


def _server_process(alias: str) -> int:
    """The id of the PostgreSQL server process that answers on ``alias``'s connection."""
    from django.db import connections

    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    return int(row[0])


async def _measure(alias: str, calls: int) -> dict[str, float]:
    """``calls`` calls on ``alias`` after a few to warm up: wall and CPU time a call, in ms, and
    how many connections (server processes) answered them."""
    from channels.db import database_sync_to_async

    call = database_sync_to_async(_server_process)
    for _ in range(10):
        await call(alias)
    answered: set[int] = set()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        answered.add(await call(alias))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "ms_per_call": round(wall / calls * 1000, 3),
        "cpu_ms_per_call": round(cpu / calls * 1000, 3),
        "connections": len(answered),
    }


def run(url: str, calls: int) -> dict[str, Any]:
    _configure(url)

    async def both() -> dict[str, dict[str, float]]:
        return {alias: await _measure(alias, calls) for alias in WAYS}

    ways = asyncio.run(both())
    return {
        "bench": "db_calls",
        "calls": calls,
        **{f"{alias}_{key}": value for alias, figures in ways.items() for key, value in figures.items()},
        "machine_loop_ns": machine_loop_ns(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="100 calls each way (CI)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--database", default=os.environ.get("AMIGOS_DATABASE_URL") or DEFAULT_DATABASE)
    args = parser.parse_args(argv)
    result = run(args.database, 100 if args.quick else args.calls)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"database calls ({result['calls']} each way), machine_loop_ns {result['machine_loop_ns']}")
    for alias, age in WAYS.items():
        print(
            f"  {alias:>6} (age {age:>2} s): {result[f'{alias}_ms_per_call']:.3f} ms a call, "
            f"{result[f'{alias}_cpu_ms_per_call']:.3f} ms of this process's CPU, "
            f"{result[f'{alias}_connections']} connections"
        )
    return 0
