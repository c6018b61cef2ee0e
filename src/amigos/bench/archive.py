"""The archive's benchmark: importing records, and a statistics page with a long history.

Runs in a throw-away database (Django's test database: `test_amigos_<pid>` on PostgreSQL when
AMIGOS_DATABASE_URL names one, else a temporary SQLite file), so it never touches real data.

- `import_records_per_second`, `import_seconds`: `import_records` on N distinct records (complete
  matches of every game; each replayed under the rules, summarised, and the Amigos ones of four
  accounts rated). The records are variations of a smaller pool played once beforehand, which is
  not timed.
- `stats_page_ms_median`, `stats_page_ms_max`: the full statistics page (`GET /stats/<id>/` through
  Django's test client: the 50 latest matches with all their hands, the totals over every match,
  the graph) of a player who has N/2 archived matches, after one warm-up request.

`import_cpu_seconds` and `stats_page_cpu_ms_median` are the processor time this process and its
workers spent (not the database server's): on a loaded machine they say more than the wall clock.
`--quick` uses 1,000 records. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

POOL = 120
PLAYERS = 40
ME = "Yo Mismo"
PAGE_RUNS = 15
GOALS = {"import_seconds_per_10000": 60.0, "stats_page_ms": 200.0}


def _pool(size: int) -> list[dict[str, Any]]:
    from amigos.engine import find_variant
    from amigos.engine.simulate import simulate_match

    variants = ["amigos-100", "amigos-200", "amigos-hands"] * 3 + ["cuban-2v2", "all-fives-100"]
    return [
        simulate_match(find_variant(variants[i % len(variants)], 4), seed=i).to_obj() for i in range(size)
    ]


def _records(count: int, pool: list[dict[str, Any]], names: list[str]) -> list[tuple[str, Any]]:
    """``count`` distinct records; ME sits in every other one, so ME has count/2 matches."""
    chooser = random.Random(2026)  # fixed: the same workload on every run
    start = datetime(2025, 1, 1, tzinfo=UTC)
    out = []
    for number in range(count):
        others = chooser.sample(names[1:], 4)
        seats = [names[0], *others[:3]] if number % 2 == 0 else others
        chooser.shuffle(seats)
        record = dict(pool[number % len(pool)])
        ended = start + timedelta(minutes=30 * number)
        record.update(
            players=seats,
            table=f"Mesa {number % 17 + 1}",
            started_at=(ended - timedelta(minutes=25)).isoformat(),
            ended_at=ended.isoformat(),
        )
        out.append((f"bench#{number}", record))
    return out


def _cpu_seconds() -> float:
    """Processor time of this process and of its finished children (the import's workers): on a
    shared, loaded machine the wall-clock figures say more about the neighbours than about us."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(count: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from amigos.web.archive.models import MatchSeat
    from amigos.web.archive.services.imports import import_records

    user_model = get_user_model()
    names = [ME] + [f"Jugador {index}" for index in range(1, PLAYERS)]
    for index, name in enumerate(names):
        user_model.objects.create_user(email=f"bench{index}@example.org", display_name=name, password=None)
    pool = _pool(POOL)
    records = _records(count, pool, names)

    cpu_began = _cpu_seconds()
    began = time.perf_counter()
    report = import_records(records=records)
    import_seconds = time.perf_counter() - began
    import_cpu = _cpu_seconds() - cpu_began
    if report.refused or report.imported != count:
        raise RuntimeError(f"import went wrong: {report.to_dict()} {report.refused[:1]}")

    me = user_model.objects.get(display_name=ME)
    mine = MatchSeat.objects.filter(user=me).count()
    client = Client()
    client.force_login(me)
    url = f"/stats/{me.pk}/"
    if client.get(url).status_code != 200:
        raise RuntimeError("the statistics page failed")
    timings = []
    cpu_timings = []
    for _ in range(PAGE_RUNS):
        began, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - began) * 1000)
        cpu_timings.append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200
    return {
        "database": connection.vendor,
        "records": count,
        "import_seconds": round(import_seconds, 2),
        "import_records_per_second": round(count / import_seconds, 1),
        "import_cpu_seconds": round(import_cpu, 2),
        "player_matches": mine,
        "stats_page_ms_median": round(statistics.median(timings), 1),
        "stats_page_ms_max": round(max(timings), 1),
        "stats_page_cpu_ms_median": round(statistics.median(cpu_timings), 1),
        "load_average": [round(value, 1) for value in os.getloadavg()],
        "goals": GOALS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/archive.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 records instead of 10,000")
    parser.add_argument("--records", type=int, help="how many records to import")
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = parser.parse_args(argv)
    count = args.records or (1_000 if args.quick else 10_000)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.test")
    import django

    django.setup()
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    databases = setup_databases(verbosity=0, interactive=False)
    try:
        result = run(count)
    finally:
        teardown_databases(databases, verbosity=0)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
