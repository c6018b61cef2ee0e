"""Computer players' searches on a worker service of their own, reached through Redis (issue 40).

By default a server thinks for its computer players in its own pool of worker processes
(``amigos.web.workers``), on its own cores. With ``AMIGOS_BOT_SERVICE=1`` (and a Redis bus) it
hands each search to a Redis list instead, and separate worker processes, on other cores or other
machines, take the searches from it::

    python -m amigos.web.bot_queue --processes 2      # same settings and AMIGOS_REDIS_URL as the site

so a table server's cores serve only tables. The queue is a plain Redis list (RPUSH by the
servers, BLPOP by the workers); each server process reads its answers from a list of its own. A
job carries a deadline: a worker skips a job whose server has stopped waiting for it.

A search that is not answered within ``AMIGOS_BOT_SERVICE_TIMEOUT_SECONDS`` (no worker running,
Redis unreachable) fails, and the table's computer player then plays as the easy bot does, at
once, as with a broken local pool (`amigos.web.tables.thinking.think`): a table never waits on a
missing worker.

The jobs are pickled: the queue is the site's own Redis, which only the site's processes reach
(docs/deploy.md); never point it at a Redis that others can write to.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import pickle
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar, cast

import redis

from amigos.web.workers import start_worker

log = logging.getLogger("amigos.bots")

P = ParamSpec("P")
T = TypeVar("T")

#: How long a worker's or listener's blocking read waits before looking around (stop asked?).
POLL_SECONDS = 1

#: How long an answer waits in its list for a server that may have stopped.
ANSWER_TTL_SECONDS = 120


def jobs_key(namespace: str) -> str:
    return f"{namespace}:bot-jobs"


class QueueExecutor(Executor):
    """An executor whose calls run on the worker service: ``submit`` queues the call in Redis and
    a listener thread resolves each future with the answer from this executor's own list."""

    def __init__(self, url: str, namespace: str, timeout: float) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=POLL_SECONDS + 5, socket_connect_timeout=5)
        self._jobs = jobs_key(namespace)
        self._answers = f"{namespace}:bot-answers:{secrets.token_hex(8)}"
        self._timeout = timeout
        self._waiting: dict[str, tuple[Future[Any], float]] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._listener = threading.Thread(target=self._listen, name="amigos-bot-answers", daemon=True)
        self._listener.start()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        if self._stopping.is_set():
            raise RuntimeError("the bot queue's executor was shut down")
        future: Future[T] = Future()
        future.set_running_or_notify_cancel()
        job = secrets.token_hex(8)
        deadline = time.time() + self._timeout
        with self._lock:
            self._waiting[job] = (future, time.monotonic() + self._timeout)
        try:
            self._redis.rpush(self._jobs, pickle.dumps((job, self._answers, deadline, fn, args, kwargs)))
        except Exception:
            with self._lock:
                self._waiting.pop(job, None)
            raise
        return future

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                found = self._redis.blpop([self._answers], timeout=POLL_SECONDS)
            except Exception:  # Redis gone for a moment: the waiting futures time out meanwhile
                found = None
                time.sleep(0.5)
            if found is not None:
                job, ok, value = pickle.loads(cast(bytes, found[1]))  # noqa: S301 - the site's own Redis (module doc)
                with self._lock:
                    entry = self._waiting.pop(job, None)
                if entry is not None and not entry[0].done():
                    if ok:
                        entry[0].set_result(value)
                    else:
                        entry[0].set_exception(value)
            self._expire()

    def _expire(self) -> None:
        now = time.monotonic()
        with self._lock:
            late = [job for job, (_, until) in self._waiting.items() if until <= now]
            futures = [self._waiting.pop(job)[0] for job in late]
        for future in futures:
            if not future.done():
                future.set_exception(TimeoutError("no bot worker answered in time"))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._stopping.set()
        with self._lock:
            futures = [future for future, _ in self._waiting.values()]
            self._waiting.clear()
        for future in futures:  # already running (never cancellable): each fails instead
            if not future.done():
                future.set_exception(RuntimeError("the bot queue's executor was shut down"))
        if wait:
            self._listener.join(timeout=POLL_SECONDS + 6)
        self._redis.close()


def serve_jobs(url: str, namespace: str, stop: threading.Event | None = None) -> None:
    """One worker: take jobs from the queue, run them, put each answer in its server's list."""
    client = redis.Redis.from_url(url, socket_timeout=POLL_SECONDS + 5, socket_connect_timeout=5)
    key = jobs_key(namespace)
    while stop is None or not stop.is_set():
        try:
            found = client.blpop([key], timeout=POLL_SECONDS)
        except redis.RedisError:
            time.sleep(0.5)  # Redis restarting: try again
            continue
        if found is None:
            continue
        job, answers, deadline, fn, args, kwargs = pickle.loads(cast(bytes, found[1]))  # noqa: S301 - module doc
        if time.time() > deadline:
            continue  # its server has stopped waiting and played the easy bot's move
        try:
            answer: tuple[str, bool, Any] = (job, True, fn(*args, **kwargs))
        except Exception as error:
            answer = (job, False, error)
        try:
            client.rpush(answers, pickle.dumps(answer))
            client.expire(answers, ANSWER_TTL_SECONDS)
        except redis.RedisError:
            log.warning("could not return a bot search's answer (Redis unreachable)")


def _worker(url: str, namespace: str, niceness: int, parent: int, memory_mb: int) -> None:
    start_worker(niceness, parent, memory_mb)
    import django

    django.setup()
    serve_jobs(url, namespace)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run computer players' searches from the Redis queue")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.production")
    import django

    django.setup()
    from django.conf import settings

    if not settings.REDIS_URL:
        parser.error("AMIGOS_REDIS_URL must name the site's Redis")
    context = multiprocessing.get_context("spawn")
    worker_args = (
        settings.REDIS_URL,
        settings.AMIGOS_BUS_NAMESPACE,
        settings.AMIGOS_BOT_NICENESS,
        os.getpid(),
        settings.AMIGOS_SEARCH_MEMORY_MB,
    )
    workers = [context.Process(target=_worker, args=worker_args) for _ in range(max(1, args.processes))]
    for worker in workers:
        worker.start()
    stopping = threading.Event()
    import signal

    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    try:
        while not stopping.is_set():
            for number, worker in enumerate(workers):
                if not worker.is_alive():  # a worker killed (out of memory): start another
                    workers[number] = context.Process(target=_worker, args=worker_args)
                    workers[number].start()
            stopping.wait(1.0)
    except KeyboardInterrupt:
        pass
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
