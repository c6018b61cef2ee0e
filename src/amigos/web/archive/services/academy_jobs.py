"""The site's queue of heavy jobs: the Academy's searches and its "what if" replays.

A search for the values of a position, or the computer players playing a changed hand (or the
rest of a match) on, costs from a fraction of a second to a few seconds of one core. None of it
runs in the web process: the view registers a job and a worker process
(``amigos.web.workers``: lower priority, a memory limit, ends with the server) computes it. The
queue is bounded, and fair:

* a player has at most one job waiting or running at a time. A second, different request while
  one runs is refused with the code ``job-running`` (the page says to wait for the first); the
  same request again finds the job it already has. Refusing, rather than replacing the first job,
  keeps a job that a worker already started from being thrown away half done;
* the site has at most ``AMIGOS_ACADEMY_QUEUE`` jobs waiting or running in all; one more is
  refused with ``queue-full`` (the page says to try again in a moment);
* a job knows how many jobs are ahead of it (``ahead``), which the page shows while it waits.

Each search has a node budget (``amigos.academy.budgeted``), so a job takes seconds, never
minutes. Identical requests of a player share one job. Jobs live in this process's memory: a
finished one is kept for a while so the polls find it, then forgotten (asking again recomputes).
Each job remembers who asked; only that account may read it.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from amigos.web.workers import pool

KEEP_JOBS = 200


class JobRefused(Exception):
    """A job the queue does not take; ``code`` says why (``job-running``, ``queue-full``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Job:
    id: str
    user_id: int
    key: tuple[Hashable, ...]
    number: int  # its place in the order of submission (the queue is first come, first served)
    future: Future[Any] = field(repr=False)
    ahead: int = 0  # jobs before it still waiting or running, when last asked (see JobRegistry.ahead)

    @property
    def finished(self) -> bool:
        return self.future.done()

    @property
    def status(self) -> str:
        if not self.future.done():
            return "waiting" if self.ahead > 0 else "running"
        return "failed" if self.future.exception() is not None else "done"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status}
        if out["status"] == "done":
            out["result"] = self.future.result()
        elif out["status"] in ("waiting", "running"):
            out["ahead"] = self.ahead
        return out


class JobRegistry:
    """Jobs by id, and by who asked for what (so a repeated request finds the running job)."""

    def __init__(
        self,
        executor_factory: Callable[[], Executor],
        *,
        limit: int | None = None,
        workers: int | None = None,
    ) -> None:
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._limit = limit
        self._workers = workers
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._by_key: dict[tuple[int, tuple[Hashable, ...]], str] = {}
        self._numbers = itertools.count()

    @property
    def workers(self) -> int:
        """How many jobs run at once (the worker processes; at least one)."""
        return max(1, self._workers if self._workers is not None else settings.AMIGOS_ACADEMY_PROCESSES)

    @property
    def limit(self) -> int:
        """Jobs waiting or running at most, in all."""
        return self._limit if self._limit is not None else settings.AMIGOS_ACADEMY_QUEUE

    def executor(self) -> Executor:
        """The worker pool (started at its first use)."""
        with self._lock:
            return self._pool()

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = self._factory()
        return self._executor

    def submit(
        self, *, user_id: int, key: tuple[Hashable, ...], run: Callable[..., Any], args: tuple[Any, ...]
    ) -> Job:
        """The job computing ``run(*args)`` for ``user_id`` (``key`` names what it computes): the one
        the player already has for ``key``, else a new one. ``JobRefused`` when the player has
        another job unfinished (``job-running``) or the queue is full (``queue-full``)."""
        with self._lock:
            existing = self._by_key.get((user_id, key))
            if existing is not None and existing in self._jobs:
                job = self._jobs[existing]
                if job.status != "failed":
                    job.ahead = self._ahead(job)
                    return job
            unfinished = [job for job in self._jobs.values() if not job.finished]
            if any(job.user_id == user_id for job in unfinished):
                raise JobRefused("job-running")
            if len(unfinished) >= self.limit:
                raise JobRefused("queue-full")
            future = self._pool().submit(run, *args)
            job = Job(uuid.uuid4().hex, user_id, key, next(self._numbers), future)
            self._jobs[job.id] = job
            self._by_key[(user_id, key)] = job.id
            job.ahead = self._ahead(job)
            while len(self._jobs) > KEEP_JOBS:
                old_id, old = next(iter(self._jobs.items()))
                if not old.finished:
                    break  # never forget a job still queued (the bound above keeps this short)
                self._jobs.pop(old_id)
                self._by_key.pop((old.user_id, old.key), None)
            return job

    def get(self, job_id: str, *, user_id: int) -> Job | None:
        """The job, if it exists and ``user_id`` asked for it (anyone else: None), with its
        place in the queue brought up to date."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.user_id != user_id:
                return None
            job.ahead = self._ahead(job)
            return job

    def _ahead(self, job: Job) -> int:
        """How many jobs must end before ``job`` starts (0: it is being computed): the unfinished
        ones submitted before it, less the other workers' share (first come, first served)."""
        if job.finished:
            return 0
        before = sum(1 for other in self._jobs.values() if other.number < job.number and not other.finished)
        return max(0, before - (self.workers - 1))


def _processes() -> Executor:
    return pool(
        settings.AMIGOS_ACADEMY_PROCESSES,
        niceness=settings.AMIGOS_BOT_NICENESS,
        memory_mb=settings.AMIGOS_SEARCH_MEMORY_MB,
    )


registry = JobRegistry(_processes)
