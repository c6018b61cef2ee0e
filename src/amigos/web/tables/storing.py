"""Storing a table's events off the event loop: the one place the actor's writes go through.

With SQLite, Django's single database thread (SQLite takes one writer at a time). With PostgreSQL,
a small pool of threads, each keeping its own connection, so one table's write never waits behind
another's (each table still awaits its own writes in order).
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import DatabaseError, connection

from amigos.web.tables import store


@functools.cache
def _storing_threads() -> bool:
    """Whether tables store their plays on several threads (connections) at once: with
    PostgreSQL, yes, so one table's write never waits behind another's (each table still awaits
    its own writes in order); SQLite takes one writer at a time, so it keeps the one thread."""
    return connection.vendor == "postgresql"


#: The threads (each with its own database connection) that store plays when PostgreSQL is used.
STORE_THREADS = 4
_store_pool: ThreadPoolExecutor | None = None


async def append(table_id: int, expected: int, write: store.Write) -> int:
    """`store.append` off the event loop, on the shared database thread or (PostgreSQL) a pool."""
    global _store_pool
    if not _storing_threads():
        return int(await database_sync_to_async(store.append)(table_id, expected, write))
    if _store_pool is None:
        _store_pool = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="amigos-store")
    on_pool = sync_to_async(_append_on_store_thread, thread_sensitive=False, executor=_store_pool)
    return int(await on_pool(table_id, expected, write))


def _append_on_store_thread(table_id: int, expected: int, write: store.Write) -> int:
    """On a store thread, whose connection stays open from one play to the next. Channels' wrapper
    (`database_sync_to_async`) would treat every play as a new request and make Django check the
    connection first (``SELECT 1``): one more round trip to the database on every move. Instead a
    database error closes the connection: the actor is rebuilt and the next write connects afresh
    (after a database restart, say)."""
    try:
        return store.append(table_id, expected, write)
    except DatabaseError:
        connection.close()
        raise
