"""A short chaos run across two hosts (bench/chaos.py, issue 40): while four tables play with
their seats spread over both hosts, one host is killed with SIGKILL and started again, and every
connection to Redis is dropped and opened again (the seeded schedule of `--quick`). Then every
log and record is read back: no acknowledged play lost or doubled, no table stuck, no seat shown
another's tiles, every match record replays.

The hosts are real `amigos serve` processes, each in its own network namespace where this machine
allows it (root), sharing PostgreSQL and Redis through HAProxy; the machine's own services are never
restarted (their faults are the proxies'). Nothing here depends on how fast the machine is: the
run lasts its fixed time and the checks count, never time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.web.conftest import in_ci
from tests.web.tables.test_shared_tables import PG_URL, require_postgres
from tests.web.test_processes import REDIS_URL, require_redis

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.alone]

ROOT = Path(__file__).resolve().parents[2]

#: The chaos run's own database on the suite's server (the script drops and creates it).
CHAOS_URL = urlunsplit(urlsplit(PG_URL)._replace(path="/amigos_chaos_test"))


def test_a_short_chaos_run_across_two_hosts_loses_nothing() -> None:
    require_postgres()
    require_redis()
    if shutil.which("haproxy") is None:
        message = "the hosts' proxies need HAProxy (apt-get install haproxy)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--quick", "--seed", "3", "--json",
         "--database", CHAOS_URL, "--redis", REDIS_URL],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert [fault["kind"] for fault in result["faults"]] == ["kill", "redis"] or [
        fault["kind"] for fault in result["faults"]
    ] == ["redis", "kill"]
    assert result["acked"] > 0  # plays went on
    assert result["lost"] == 0
    assert result["duplicated"] == 0
    assert result["stuck"] == 0, result["stuck_tables"]
    assert result["leaked"] == 0, result["leaks"]
    assert result["records_replayed"] > 0 and result["replay_failed"] == 0
    assert all(fault["recovery_s"] is not None for fault in result["faults"])  # every table played again
    assert done.returncode == 0, done.stderr[-3000:]
