"""A group's write on the event loop's own PostgreSQL connections (psycopg's asynchronous ones).

Why: on a store thread, each of a statement's waits for the database ends with the thread asking
for the interpreter's lock, which the busy event loop holds for up to the switch interval (5 ms)
before it gives it up. At a thousand tables that wait, not PostgreSQL, was most of a write's time
(a group's statement took 4–9 ms of wall time for under a millisecond of work). On the loop the
statement's answer is read at the loop's next turn, with no lock to wait for. The statement and its
parameters are the store's (`store.GroupWrite`, `store.group_sql`): this module only carries them.

Only groups that are one statement go this way (`store.one_statement`); a group that fails here,
whatever the reason, is tried again write by write on a store thread, as a failed group always is.
"""

from __future__ import annotations

import contextlib
from typing import Any

import psycopg
from django.db import connection

from amigos.web.tables import store


def connection_parameters() -> dict[str, Any]:
    """Django's connection parameters for this database, less what only its own (synchronous)
    connections use: its cursor class and its adapters. The statement's parameters are texts and
    its answer is ids, so Django's adapters have nothing to do here."""
    parameters = dict(connection.get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        parameters.pop(django_only, None)
    return parameters


class LoopConnections:
    """One event loop's connections for group writes: at most one per group being written, kept
    open from one group to the next. A connection that fails is closed and the next group opens a
    new one (after a database restart, say)."""

    def __init__(self) -> None:
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.opened = 0

    async def _take(self) -> psycopg.AsyncConnection[Any]:
        if self.idle:
            return self.idle.pop()
        # Autocommit: the group's one statement is its own transaction (no BEGIN, no COMMIT).
        # Psycopg prepares the statement after a few runs, so PostgreSQL stops planning it anew.
        opened = await psycopg.AsyncConnection.connect(autocommit=True, **connection_parameters())
        self.opened += 1
        return opened

    async def write(self, writes: list[tuple[int, int, store.Write]]) -> list[store.Outcome]:
        """`store.append_many` for a group of `store.one_statement`, or whatever the database
        raised. The statement is all or nothing, but an answer lost on the way may hide a group
        that was stored: trying its writes again then finds their tables moved (`LostWrite`), and
        their actors rebuild from the log, which has them."""
        group = store.GroupWrite(writes)
        held = await self._take()
        try:
            async with held.cursor() as cursor:
                await cursor.execute(store.group_sql(), group.parameters)
                matches = {int(table_id) for (table_id,) in await cursor.fetchall()}
                found: dict[int, int] = {}
                if lost := group.lost(matches):
                    await cursor.execute(store.versions_sql(), [lost])
                    found = {int(table_id): int(version) for table_id, version in await cursor.fetchall()}
        except BaseException:
            _finish(held)
            raise
        self.idle.append(held)
        return group.outcomes(matches, found)

    def close(self) -> None:
        """Close the idle connections now, without the loop (whose end this may follow)."""
        idle, self.idle = self.idle, []
        for held in idle:
            _finish(held)


def _finish(held: psycopg.AsyncConnection[Any]) -> None:
    """Close a connection at once, from any thread, loop or none: libpq's own close, which sends
    PostgreSQL its goodbye and frees the socket (psycopg's `close` is a coroutine)."""
    with contextlib.suppress(Exception):
        held.pgconn.finish()
