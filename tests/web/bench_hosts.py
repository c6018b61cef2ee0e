"""What the tests that start a bench's hosts share (bench/chaos.py, bench/hosts.py, bench/soak.py):
the services and tools the hosts need, a database of the bench's own, and the environment a bench
script runs in (the project's sources, and no settings module of the test run's: the script picks
its own)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.web.conftest import in_ci
from tests.web.tables.test_shared_tables import PG_URL, require_postgres
from tests.web.test_processes import REDIS_URL, require_redis

__all__ = ["REDIS_URL", "bench_command", "bench_env", "own_database", "require_hosts"]

ROOT = Path(__file__).resolve().parents[2]


def require_hosts() -> None:
    """PostgreSQL, Redis and HAProxy are there (under CI their absence fails the test)."""
    require_postgres()
    require_redis()
    if shutil.which("haproxy") is None:
        message = "the hosts' proxies need HAProxy (apt-get install haproxy)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def own_database(name: str) -> str:
    """A database of the bench's own on the suite's server (the script drops and creates it)."""
    return urlunsplit(urlsplit(PG_URL)._replace(path=f"/{name}"))


def bench_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def bench_command(script: str, *args: str) -> list[str]:
    """``python bench/<script> <args>`` with this interpreter."""
    return [sys.executable, str(ROOT / "bench" / script), *args]
