"""Handing a finished match to the archive: the one call, kept in one place.

The archive (branch archive, `amigos.web.archive.services.archive_match`) stores finished matches
for statistics and replays. Its `source` key makes a second hand-over of the same match count
once, so this may safely run again after a restart, and does: a process that stopped (killed,
say) between storing a match's end and finishing its hand-over left it unarchived, and nothing
ever handed it over again, so a starting process hands over every such match (`hand_over_left`).

The hand-over runs on a thread of its own, and the table does not wait for it: its record is
already stored (`MatchRecord`), and archiving a match (replaying it for the statistics, the rating
under the ledger's lock, some fifteen statements) takes about 15 ms of CPU. On the thread that every
`database_sync_to_async` call shares, a wave of matches ending together queued those calls, and
every table waited: in bench/load.py's closed loop, 300 tables ending their matches within seconds
of each other took their first rematch vote 8 s after the match's end. One thread, because the
rating ledger's lock lets one archive go at a time anyway. The record's replay and statistics
(`summary.analyse`, 6 ms of a 15 ms archive) run in one of the computer players' worker processes,
so that the archive thread does not take the interpreter's lock from the event loop for them.

On PostgreSQL the whole hand-over runs in a worker process of its own instead (the setting
`AMIGOS_ARCHIVE_PROCESS`; tests and SQLite keep the thread). In bench/load.py's closed loop, once
every table was ending matches, the server's one interpreter was what limited the plays a second,
and the archive thread held its lock 47 µs a play: with the hand-over switched off, the steady
plays a second rose by about a tenth. The worker reads the match from the database, as the thread
does, so only its table, number, seats and name cross to it. If the worker cannot be used (it
died, it could not start), the hand-over goes to the thread, and the next one to a new worker.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection, connections

from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.services import archive_match
from amigos.web.archive.summary import Analysis, analyse, analyse_or_error
from amigos.web.tables import archive_worker, store, thinking
from amigos.web.tables.models import MatchRecord, Seat
from amigos.web.tables.rendering import match_name

if TYPE_CHECKING:
    from amigos.web.tables.actor import TableActor

log = logging.getLogger("amigos.tables")


def _archive(
    table_id: int, match: int, seat_user_ids: list[int | None], table_name: str, *, analyse_here: bool = False
) -> None:
    row = MatchRecord.objects.get(table_id=table_id, number=match)
    ended: datetime = row.ended_at or row.started_at
    archive_match(
        analysis=analyse(row.record) if analyse_here else _analysis(row.record),
        source=match_name(table_id, match),
        record=row.record,
        seat_user_ids=seat_user_ids,
        table_name=table_name,
        started_at=row.started_at,
        ended_at=ended,
    )
    store.mark_archived(table_id, match)


@functools.cache
def _archive_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(1, thread_name_prefix="amigos-archive")


#: The worker process, while hand-overs go to one (`_archiver`).
_worker: ProcessPoolExecutor | None = None


def _use_worker() -> bool:
    """Whether hand-overs go to a worker process: asked for, and on PostgreSQL (a SQLite file takes
    one writer at a time, and the tests' in-memory databases are not seen by another process)."""
    return bool(settings.AMIGOS_ARCHIVE_PROCESS) and connection.vendor == "postgresql"


def _archiver() -> Executor:
    """Where the next hand-over goes: the worker process, or the archive thread."""
    global _worker
    if not _use_worker():
        return _archive_thread()
    if _worker is None:
        # spawn, as the computer players' pool: the server has threads, which fork does not copy.
        # The worker connects to the database this process uses now (a test run renames it).
        _worker = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=archive_worker.start,
            initargs=(os.getpid(), dict(connection.settings_dict), settings.AMIGOS_ARCHIVE_NICENESS),
        )
    return _worker


def _discard_worker(pool: Executor) -> None:
    """Forget a broken worker (if it is still the current one): the next hand-over starts another."""
    global _worker
    if _worker is pool:
        _worker = None
        pool.shutdown(wait=False, cancel_futures=True)


#: The hand-overs queued (on the archive thread or worker) and not yet done.
_queued: set[Future[None]] = set()


async def hand_over(actor: TableActor) -> None:
    """Queue the actor's finished match for the archive and return at once (the module's
    docstring says why). A refusal is logged as an error with the archive's code (the table
    itself goes on: the record stays in MatchRecord, unarchived, and the next process to start
    offers it again), because a silent refusal once left every match of a branch unarchived
    unnoticed."""
    queue(actor.id, actor.game.match_number, [seat.user_id for seat in actor.seats], actor.name)


def queue(table_id: int, match: int, seat_user_ids: list[int | None], table_name: str) -> None:
    """Queue one stored match's hand-over: on the worker process when there is one, else on the
    archive thread, and on the thread again when the worker fails to take it or dies with it."""
    pool = _archiver()
    work = (table_id, match, seat_user_ids, table_name)
    if isinstance(pool, ThreadPoolExecutor):
        _track(pool.submit(archive_or_log, *work))
        return
    try:
        # the worker analyses the record itself: it is out of the server's process already
        queued = pool.submit(archive_or_log, *work, analyse_here=True)
    except (BrokenExecutor, RuntimeError, OSError):
        log.exception("the archive's worker process cannot take a match; its thread does")
        _discard_worker(pool)
        _track(_archive_thread().submit(archive_or_log, *work))
        return
    # What `settle` waits for: done when the worker is, or when the thread that took over is.
    outcome: Future[None] = Future()
    _track(outcome)

    def done(future: Future[None]) -> None:
        error = None if future.cancelled() else future.exception()
        if future.cancelled() or isinstance(error, BrokenExecutor):
            log.error("the archive's worker process ended; its thread takes table %s's match %s", *work[:2])
            _discard_worker(pool)
            fallback = _archive_thread().submit(archive_or_log, *work)
            fallback.add_done_callback(lambda _: outcome.set_result(None))
            return
        if error is not None:
            log.error("the archive's worker process failed table %s's match %s", *work[:2], exc_info=error)
        outcome.set_result(None)

    queued.add_done_callback(done)


def _track(queued: Future[None]) -> None:
    _queued.add(queued)
    queued.add_done_callback(_queued.discard)


def _analysis(record: dict[str, object]) -> Analysis:
    """The record's analysis, from a worker process (the module's docstring says why), or from
    this thread when the pool fails; a record that breaks the rules raises ArchiveError."""
    try:
        found = thinking.executor().submit(analyse_or_error, record).result()
    except Exception:
        log.warning("the worker processes could not analyse a match; analysing it here", exc_info=True)
        return analyse(record)
    if isinstance(found, ArchiveError):
        raise found
    return found


def archive_or_log(
    table_id: int, match: int, seat_user_ids: list[int | None], table_name: str, *, analyse_here: bool = False
) -> None:
    """On the archive thread or worker, as a request would: an unusable or aged connection is
    replaced before and after (Django's `close_old_connections`)."""
    close_old_connections()
    try:
        _archive(table_id, match, seat_user_ids, table_name, analyse_here=analyse_here)
    except Exception as error:
        _log_refusal(table_id, match, error)
    finally:
        close_old_connections()


def settle(timeout: float | None = None) -> bool:
    """Wait until every hand-over queued so far is done (a process stopping, a test reading the
    archive); whether they all were within ``timeout`` seconds."""
    _, left = concurrent.futures.wait(list(_queued), timeout)
    return not left


async def settled(timeout: float | None = None) -> bool:
    """`settle` without blocking the event loop."""
    return await asyncio.to_thread(settle, timeout)


def close() -> None:
    """Finish the queued hand-overs and end the archive thread and worker with their connections (a
    test session does this before it drops its database; a server, when it stops)."""
    global _worker
    pool, _worker = _worker, None
    if pool is not None:
        pool.shutdown(wait=True)
    if _archive_thread.cache_info().currsize:
        _archive_thread().submit(connections.close_all).result()
        _archive_thread().shutdown(wait=True)
        _archive_thread.cache_clear()


async def stop() -> None:
    """The server is stopping: its hand-overs finish and the worker ends, waited for on a thread."""
    await asyncio.to_thread(close)


def _log_refusal(table_id: int, match: int, error: Exception) -> None:
    if isinstance(error, ArchiveError):
        log.error(
            "table %s: the archive refused match %s: %s (%s)", table_id, match, error.code, error.detail
        )
    else:
        log.error("table %s: the archive refused match %s", table_id, match, exc_info=error)


def _hand_over_left() -> int:
    """Hand over every ended match still unarchived (`hand_over_left`); how many the archive took."""
    left = list(
        MatchRecord.objects.filter(archived=False, ended_at__isnull=False)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "table__name")
    )
    seats: dict[int, dict[int, int | None]] = {}
    for table_id, number, user_id in Seat.objects.filter(
        table_id__in={table_id for table_id, _, _ in left}
    ).values_list("table_id", "number", "user_id"):
        seats.setdefault(table_id, {})[number] = user_id
    taken = 0
    for table_id, match, name in left:
        seated = seats.get(table_id, {})
        seat_user_ids = [seated.get(number) for number in range(len(seated))]
        try:
            _archive(table_id, match, seat_user_ids, name)
        except Exception as error:
            _log_refusal(table_id, match, error)
        else:
            taken += 1
    return taken


async def hand_over_left() -> None:
    """At a process's start: the matches whose hand-over a stopped process left unfinished (they
    ended, and are stored, but were never archived) go to the archive now. A match the archive
    refused before is offered again, and its refusal logged again."""
    try:
        taken = await database_sync_to_async(_hand_over_left)()
    except Exception:
        log.exception("the matches left unarchived could not be handed over")
        return
    if taken:
        log.info("%s matches left unarchived by a stopped process were handed over", taken)
