"""A short soak across two hosts (bench/soak.py --quick, issue 40): every part of its mixed load
goes on for the whole run — tables of people, a table against computer players, lobby players
who chat and come back, a spectator drifting between tables, and a correspondence table whose
players come and go, playing when the turn is theirs — and every series is sampled.

Whether a series grows is the full run's verdict (30 minutes, by hand: docs/deploy.md); forty
seconds prove only that every kind of load runs and is measured. Nothing here depends on how
fast the machine is: the run lasts its fixed time and the checks count, never time.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.web.bench_hosts import REDIS_URL, bench_command, bench_env, own_database, require_hosts

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.alone]

SOAK_URL = own_database("amigos_soak_test")


def test_a_short_soak_keeps_every_kind_of_load_going() -> None:
    require_hosts()
    done = subprocess.run(
        bench_command("soak.py", "--quick", "--json", "--database", SOAK_URL, "--redis", REDIS_URL),
        capture_output=True, text=True, env=bench_env(), timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["plays"] > 0
    assert result["correspondence_tables"] == 1
    assert result["correspondence_moves"] > 0  # played on visits, the socket closed in between
    assert result["correspondence_visits"] >= result["correspondence_moves"]  # a move a visit at most
    assert result["chat_lines"] > 0 and result["lobby_joins"] > 0
    assert result["spectator_joins"] > 0
    series = {"rss_mb", "fds", "db_connections", "redis_memory_mb", "loop_lag_ms"}
    assert set(result["growth"]) == series
    assert result["samples"] and all(series <= set(sample) for sample in result["samples"])
