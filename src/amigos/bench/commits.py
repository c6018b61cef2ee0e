"""How long the database takes to make one commit durable, measured beside a benchmark's load.

Why: every play is stored before anyone hears of it, and a commit waits for PostgreSQL to flush its
log to disk. On the development machine that flush sometimes takes 0.4 to 0.9 s (a virtual disk
shared with others), and while it lasts no play of any table can be answered: a run's p99 then
reads hundreds of milliseconds whatever the server does. A probe on its own connection commits a
tiny transaction every 50 ms and times it, so a benchmark can print, beside its latencies, how slow
the database's own commits were in the same seconds, and a slow run can be told from a slow server.

The probe's transaction writes no table: it writes one record to the database's log (a
transactional `pg_logical_emit_message`, which any role may call), so its commit waits for the
flush as a play's does (with `synchronous_commit` on, as the site runs). A transaction that only
took an id (`pg_current_xact_id()`) would not: with nothing written to the log, its commit does not
wait for the disk, and timed like `SELECT 1` (0.10 against 0.27 ms a commit here). The probe's 20
small commits a second are little beside the thousand plays a second a 1,000-table run stores.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from amigos.bench.quantiles import percentile

#: The probe's transaction: one record written to the log, so that its commit waits for the flush.
STATEMENT = "SELECT pg_logical_emit_message(true, 'amigos-bench-probe', '')"

#: A commit slower than this is listed on its own (the latency goals are 50 ms at p99).
STALL_MS = 50.0


@dataclass(frozen=True, slots=True)
class Commit:
    """One probe commit: when it was answered (`time.perf_counter`, one clock for every process of
    the machine, as the bench's latencies use) and how long it took, in seconds."""

    ended: float
    seconds: float


def summary(commits: list[Commit], start: float, elapsed: float) -> dict[str, Any]:
    """The commits answered within ``elapsed`` seconds of ``start``: how many, their p50, p99 and
    longest, and each one over `STALL_MS` with the second it ended in (``at_s``, from ``start``)."""
    inside = [each for each in commits if start <= each.ended <= start + elapsed]
    if not inside:
        return {"samples": 0, "p50_ms": None, "p99_ms": None, "max_ms": None, "stalls": []}
    took = [each.seconds * 1000 for each in inside]
    return {
        "samples": len(inside),
        "p50_ms": round(percentile(took, 0.50), 1),
        "p99_ms": round(percentile(took, 0.99), 1),
        "max_ms": round(max(took), 1),
        "stalls": [
            {"at_s": round(each.ended - start, 2), "ms": round(each.seconds * 1000, 1)}
            for each in inside
            if each.seconds * 1000 > STALL_MS
        ],
    }


def slowest_by_second(commits: list[Commit], start: float) -> dict[int, float]:
    """The slowest commit that ended in each second after ``start`` (milliseconds), for a timeline."""
    slowest: dict[int, float] = {}
    for each in commits:
        if each.ended < start:
            continue
        second = int(each.ended - start)
        slowest[second] = max(slowest.get(second, 0.0), round(each.seconds * 1000, 1))
    return slowest


@dataclass
class CommitProbe:
    """Commits on its own connection to ``url`` every ``interval`` seconds, on a thread, from
    `start` to `stop`. A failed commit (the database restarting, say) is not timed: the probe
    reconnects and goes on."""

    url: str
    interval: float = 0.05
    commits: list[Commit] = field(default_factory=list, init=False)
    _stopping: threading.Event = field(default_factory=threading.Event, init=False, repr=False)
    _thread: threading.Thread | None = field(default=None, init=False, repr=False)

    def start(self) -> CommitProbe:
        self._thread = threading.Thread(target=self._run, name="commit-probe", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> list[Commit]:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        return list(self.commits)

    def _run(self) -> None:
        import psycopg  # only a PostgreSQL run needs it

        connection: psycopg.Connection[Any] | None = None
        while not self._stopping.is_set():
            try:
                if connection is None or connection.closed:
                    connection = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
                began = time.perf_counter()
                connection.execute(STATEMENT)
                ended = time.perf_counter()
                self.commits.append(Commit(ended, ended - began))
            except psycopg.Error:
                if connection is not None:
                    connection.close()
                connection = None
            self._stopping.wait(self.interval)
        if connection is not None:
            connection.close()
