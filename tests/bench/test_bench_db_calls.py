"""The database calls' benchmark: its figures' shape, and that its two ways are what they say (a
new connection for every call, one connection kept for all). Times are never asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.test_commit_probe import _database_or_skip

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.postgres
def test_the_bench_opens_a_connection_a_call_one_way_and_keeps_one_the_other() -> None:
    _database_or_skip()  # the same database the bench takes by default
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "db_calls.py"), "--calls", "25", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["bench"] == "db_calls" and figures["calls"] == 25
    assert figures["opened_connections"] == 25 and figures["kept_connections"] == 1
    for way in ("opened", "kept"):
        assert figures[f"{way}_ms_per_call"] > 0 and figures[f"{way}_cpu_ms_per_call"] >= 0
    assert figures["machine_loop_ns"] > 0


def test_the_bench_refuses_a_database_that_is_not_postgresql() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "db_calls.py"), "--database", "sqlite:////tmp/x.sqlite3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "PostgreSQL" in done.stderr
