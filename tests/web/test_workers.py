"""The workers of the site's heavy work (the Academy, the hand reviews, the computer players): they
end with the server that started them and may not take more than their memory limit."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from amigos.web.archive.services import academy_jobs
from amigos.web.tables import thinking

ORPHANED_SERVER = """
import os
import django
from django.conf import settings

django.setup()
settings.AMIGOS_ACADEMY_PROCESSES = 1  # the test settings compute in the asking thread
from amigos.web.archive.services import academy_jobs

pool = academy_jobs._processes()
print(pool.submit(os.getpid).result(timeout=60), flush=True)
os._exit(0)  # killed: no shutdown, no cleanup of the pool
"""


def test_an_academy_worker_ends_when_its_server_is_killed() -> None:
    """Regression: after its server was killed, the Academy's worker lived on for ten minutes
    (parent PID 1), holding the 5.4 GB of its last search. The worker keeps the output pipe open,
    so the run below returns only once it has ended or been left behind."""
    done = subprocess.run(
        [sys.executable, "-c", ORPHANED_SERVER],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "amigos.web.settings.test"},
    )
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError(f"the Academy's worker {worker} outlived its server")


@pytest.mark.parametrize("pool_of", ["academy", "bots"])
def test_search_workers_have_a_memory_limit(
    pool_of: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AMIGOS_ACADEMY_PROCESSES = 1
    settings.AMIGOS_BOT_PROCESSES = 1
    settings.AMIGOS_SEARCH_MEMORY_MB = 700
    if pool_of == "academy":
        pool = academy_jobs._processes()
    else:
        monkeypatch.setattr(thinking, "_executor", None)
        pool = thinking.executor()
    try:
        limit = 700 * 1024 * 1024
        assert pool.submit(resource.getrlimit, resource.RLIMIT_AS).result(timeout=120) == (limit, limit)
    finally:
        pool.shutdown(wait=True)
        if pool_of == "bots":
            thinking._executor = None
