"""A small registry of the Academy's searches, run outside the web process's event loop.

A search for the values of a position can take seconds (the draw and fives games, or an early
position of a long hand), so the view only registers a job and answers at once; the job runs in
a worker process (spawned, one at a time, so a search never holds the web process's interpreter),
and the page polls the job's URL: "calculating…" until the values are there. Identical requests
(same match, hand, moves) share one job. Jobs live in this process's memory: a finished one is
kept for a while so the polls find it, then forgotten (asking again recomputes).

Each job remembers who asked; only that account may read it.
"""

from __future__ import annotations

import multiprocessing
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from amigos.web.archive.academy import values_job

KEEP_JOBS = 200

Runner = Callable[[dict[str, Any], int, tuple[str, ...], str | None], dict[str, Any]]


@dataclass
class Job:
    id: str
    user_id: int
    key: tuple[int, int, tuple[str, ...]]
    future: Future[dict[str, Any]] = field(repr=False)

    @property
    def status(self) -> str:
        if not self.future.done():
            return "running"
        return "failed" if self.future.exception() is not None else "done"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status}
        if out["status"] == "done":
            out["result"] = self.future.result()
        return out


class JobRegistry:
    """Jobs by id, and by what they compute (so a repeated request finds the running job)."""

    def __init__(self, executor_factory: Callable[[], Executor]) -> None:
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._by_key: dict[tuple[int, int, int, tuple[str, ...]], str] = {}

    def submit(
        self,
        *,
        user_id: int,
        match_id: int,
        record: dict[str, Any],
        hand: int,
        moves: Sequence[str],
        played: str | None,
        run: Runner = values_job,
    ) -> Job:
        key = (user_id, match_id, hand, tuple(moves))
        with self._lock:
            existing = self._by_key.get(key)
            if existing is not None and existing in self._jobs:
                job = self._jobs[existing]
                if job.status != "failed":
                    return job
            if self._executor is None:
                self._executor = self._factory()
            future = self._executor.submit(run, record, hand, tuple(moves), played)
            job = Job(uuid.uuid4().hex, user_id, (match_id, hand, tuple(moves)), future)
            self._jobs[job.id] = job
            self._by_key[key] = job.id
            while len(self._jobs) > KEEP_JOBS:
                _old_id, old = self._jobs.popitem(last=False)
                self._by_key.pop((old.user_id, *old.key), None)
            return job

    def get(self, job_id: str, *, user_id: int) -> Job | None:
        """The job, if it exists and ``user_id`` asked for it (anyone else: None)."""
        with self._lock:
            job = self._jobs.get(job_id)
        return job if job is not None and job.user_id == user_id else None


def _processes() -> Executor:
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


registry = JobRegistry(_processes)
