"""Computer players' searches on a worker service of their own, through Redis (issue 40): a
server queues the search, a worker takes it and answers, and a search nobody answers fails in
time so the table's easy bot plays instead (amigos.web.bot_queue)."""

from __future__ import annotations

import asyncio
import operator
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from amigos.web.bot_queue import QueueExecutor, serve_jobs
from amigos.web.tables import thinking
from tests.web.tables.test_thinking import a_view
from tests.web.test_processes import REDIS_URL, require_redis

pytestmark = pytest.mark.redis


@pytest.fixture
def worker(bus_namespace: str) -> Iterator[None]:
    """One worker of the service, on a thread of the test (the same loop as `python -m
    amigos.web.bot_queue` runs in each of its processes)."""
    require_redis()
    stop = threading.Event()
    thread = threading.Thread(target=serve_jobs, args=(REDIS_URL, bus_namespace, stop), daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(timeout=10)


def test_a_queued_call_is_answered_by_a_worker_and_its_failure_comes_back(
    worker: None, bus_namespace: str
) -> None:
    executor = QueueExecutor(REDIS_URL, bus_namespace, timeout=60)
    try:
        assert executor.submit(operator.add, 2, 3).result(timeout=60) == 5
        with pytest.raises(ValueError):
            executor.submit(int, "no es un número").result(timeout=60)
    finally:
        executor.shutdown()


def test_a_call_no_worker_takes_fails_instead_of_waiting_for_ever(bus_namespace: str) -> None:
    require_redis()
    executor = QueueExecutor(REDIS_URL, bus_namespace, timeout=1)
    try:
        with pytest.raises(TimeoutError):
            executor.submit(operator.add, 1, 1).result(timeout=60)
    finally:
        executor.shutdown()


@pytest.fixture
def on_the_service(settings: Any, bus_namespace: str) -> Iterator[None]:
    settings.REDIS_URL = REDIS_URL
    settings.AMIGOS_BOT_SERVICE = 1
    thinking.shutdown()
    yield
    thinking.shutdown()


def test_the_computer_player_thinks_on_the_service(
    worker: None, on_the_service: None, caplog: pytest.LogCaptureFixture
) -> None:
    assert isinstance(thinking.executor(), QueueExecutor)
    view = a_view()
    assert asyncio.run(thinking.think(view, "hard")) in view.legal_actions()
    assert "could not think" not in caplog.text  # the worker's answer, not the easy bot's


def test_without_workers_the_easy_bot_answers(
    on_the_service: None, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    require_redis()
    settings.AMIGOS_BOT_SERVICE_TIMEOUT_SECONDS = 1
    view = a_view()
    assert asyncio.run(thinking.think(view, "hard")) in view.legal_actions()
    assert "could not think" in caplog.text
