"""On PostgreSQL a finished match goes to the archive from a worker process of its own
(`handover`): it archives on the database the server uses (a test run's renamed one), and when the
worker dies its matches are archived by the thread all the same. SQLite keeps the thread."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection

from amigos.web.accounts.models import User
from amigos.web.archive.models import ArchivedMatch
from amigos.web.tables import handover
from amigos.web.tables.models import MatchRecord, Table
from tests.web.archive.records import record_obj
from tests.web.tables.support import stored_table

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 11, 27, 23, 0, tzinfo=UTC)


def postgresql() -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture
def worker_wanted(settings: Any) -> Iterator[None]:
    settings.AMIGOS_ARCHIVE_PROCESS = 1
    yield
    handover.close()  # the worker ends with its connection before the test database is dropped


def finished_table(make_player: Callable[..., User], matches: int) -> tuple[Table, list[int | None]]:
    """A table of four accounts with ``matches`` finished matches stored, none archived yet."""
    seated = [make_player(f"Jugador {seat}") for seat in range(4)]
    table = stored_table(list(seated), START)
    for number in range(1, matches + 1):
        MatchRecord.objects.create(
            table=table,
            number=number,
            record=record_obj("amigos-100", seed=number),
            started_at=START + timedelta(minutes=20 * number),
            ended_at=START + timedelta(minutes=20 * number + 15),
        )
    return table, [user.pk for user in seated]


def archived(table: Table) -> list[tuple[str, int | None]]:
    return list(
        ArchivedMatch.objects.filter(source__startswith=f"table:{table.pk}:")
        .order_by("source")
        .values_list("source", "rating_sequence")
    )


@pytest.mark.skipif("not postgresql()", reason="only PostgreSQL archives from a worker process")
def test_a_worker_process_archives_on_the_servers_database(
    make_player: Callable[..., User], worker_wanted: None
) -> None:
    table, seats = finished_table(make_player, 2)
    for number in (1, 2):
        handover.queue(table.pk, number, seats, table.name)
    assert isinstance(handover._archiver(), ProcessPoolExecutor)
    assert handover.settle(timeout=120)
    assert archived(table) == [(f"table:{table.pk}:match:1", 1), (f"table:{table.pk}:match:2", 2)]
    assert set(MatchRecord.objects.filter(table=table).values_list("archived", flat=True)) == {True}


@pytest.mark.skipif("not postgresql()", reason="only PostgreSQL archives from a worker process")
def test_the_worker_runs_at_a_lower_priority_than_the_server(settings: Any, worker_wanted: None) -> None:
    settings.AMIGOS_ARCHIVE_NICENESS = 3
    pool = handover._archiver()
    assert isinstance(pool, ProcessPoolExecutor)
    # os.nice(0) changes nothing and answers the process's niceness
    assert pool.submit(os.nice, 0).result(timeout=120) == os.nice(0) + 3


@pytest.mark.skipif("not postgresql()", reason="only PostgreSQL archives from a worker process")
def test_when_the_worker_dies_the_thread_archives_its_matches(
    make_player: Callable[..., User], worker_wanted: None
) -> None:
    table, seats = finished_table(make_player, 2)
    handover.queue(table.pk, 1, seats, table.name)
    assert handover.settle(timeout=120)
    pool = handover._archiver()
    assert isinstance(pool, ProcessPoolExecutor)
    for pid in list(pool._processes):  # the worker is killed, as the system's OOM killer would
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while not pool._broken and time.monotonic() < deadline:
        time.sleep(0.05)
    handover.queue(table.pk, 2, seats, table.name)
    assert handover.settle(timeout=120)
    assert archived(table) == [(f"table:{table.pk}:match:1", 1), (f"table:{table.pk}:match:2", 2)]
    # and the next match goes to a new worker
    assert handover._archiver() is not pool


@pytest.mark.skipif("postgresql()", reason="SQLite's path")
def test_sqlite_keeps_the_thread_even_when_a_worker_is_asked_for(
    make_player: Callable[..., User], worker_wanted: None
) -> None:
    table, seats = finished_table(make_player, 1)
    assert isinstance(handover._archiver(), ThreadPoolExecutor)
    handover.queue(table.pk, 1, seats, table.name)
    assert handover.settle(timeout=60)
    assert archived(table) == [(f"table:{table.pk}:match:1", 1)]
