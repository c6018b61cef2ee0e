"""The load bench's probe of the database's commits (amigos.bench.commits): its summary counts only
the measured seconds and lists every slow commit, and its statement makes each commit wait for the
log's flush, as a play's does. A probe whose commit skipped the flush would time nothing but the
round trip, and every run would read "the disk was fine"."""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.bench.commits import STALL_MS, STATEMENT, Commit, CommitProbe, slowest_by_second, summary

URL = os.environ.get("AMIGOS_DATABASE_URL", "") or "postgresql://postgres@127.0.0.1:5432/postgres"

commits = st.lists(
    st.builds(
        Commit,
        ended=st.floats(min_value=95.0, max_value=125.0),
        seconds=st.floats(min_value=0.0001, max_value=1.5),
    ),
    max_size=60,
)


@given(commits)
def test_the_summary_counts_the_measured_seconds_and_lists_every_slow_commit(drawn: list[Commit]) -> None:
    start, elapsed = 100.0, 20.0
    found = summary(drawn, start, elapsed)
    inside = [each for each in drawn if start <= each.ended <= start + elapsed]
    assert found["samples"] == len(inside)
    if not inside:
        assert found["max_ms"] is None and found["stalls"] == []
        return
    assert found["max_ms"] == round(max(each.seconds for each in inside) * 1000, 1)
    assert found["p50_ms"] <= found["p99_ms"] <= found["max_ms"]
    slow = [each for each in inside if each.seconds * 1000 > STALL_MS]
    assert [stall["ms"] for stall in found["stalls"]] == [round(each.seconds * 1000, 1) for each in slow]
    assert all(0 <= stall["at_s"] <= elapsed for stall in found["stalls"])


@given(commits)
def test_each_second_has_its_slowest_commit(drawn: list[Commit]) -> None:
    start = 100.0
    slowest = slowest_by_second(drawn, start)
    for each in drawn:
        if each.ended >= start:
            assert slowest[int(each.ended - start)] >= round(each.seconds * 1000, 1)
    assert set(slowest) == {int(each.ended - start) for each in drawn if each.ended >= start}


def _database_or_skip() -> None:
    try:
        psycopg.connect(URL, connect_timeout=3).close()
    except psycopg.OperationalError as missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL is not reachable at {URL}: {missing}")
        pytest.skip(f"PostgreSQL is not reachable at {URL}")


@pytest.mark.postgres
def test_the_probe_writes_to_the_log_before_it_commits_so_its_commit_waits_for_the_flush() -> None:
    """PostgreSQL flushes at commit only a transaction that wrote to its log (with a transaction
    id alone, `pg_current_xact_id()`, the commit record is left to the background writer)."""
    _database_or_skip()
    with psycopg.connect(URL) as connection:  # one transaction, committed on leaving
        before = connection.execute("SELECT pg_current_wal_insert_lsn()").fetchone()
        connection.execute(STATEMENT)
        after = connection.execute("SELECT pg_current_wal_insert_lsn()").fetchone()
        assert connection.execute("SELECT pg_current_xact_id_if_assigned()").fetchone() != (None,)
        assert before is not None and after is not None
        wrote = connection.execute("SELECT %s::pg_lsn - %s::pg_lsn", (after[0], before[0])).fetchone()
        assert wrote is not None and wrote[0] > 0


@pytest.mark.postgres
def test_the_probe_times_commits_until_stopped() -> None:
    _database_or_skip()
    probe = CommitProbe(URL, interval=0.01).start()
    deadline = time.monotonic() + 30
    while len(probe.commits) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    taken = probe.stop()
    assert len(taken) >= 5
    assert all(each.seconds > 0 for each in taken)
    assert [each.ended for each in taken] == sorted(each.ended for each in taken)
    count = len(probe.commits)
    time.sleep(0.1)
    assert len(probe.commits) == count  # stopped means stopped
