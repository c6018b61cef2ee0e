"""Which sockets sit at which seats, so that a table hears its players' heartbeats and learns at
once when a seated player's last page goes away (docs/rules.md, "Connection and absence").

The realtime tier knows nothing of tables: it runs the hooks registered here on every heartbeat
and when a socket closes, for any reason. Each hook only queues work and returns, so a closing
socket never waits on a busy table. A table run by another process (several processes share the
tables) gets the news through `forwarding`, like any table command; sockets are named by a key
that is the same in every process (`socket_keys.key_of`).
"""

from __future__ import annotations

import asyncio
import logging
from weakref import WeakKeyDictionary

from amigos.web.realtime.commands import CommandError, Connection, on_close, on_heartbeat
from amigos.web.tables.socket_keys import key_of

log = logging.getLogger("amigos.tables")


#: Each socket's seats in this process: (table id, seat number). Weak keys: a socket that is gone
#: takes its entry with it even if its close hook never ran.
_seats: WeakKeyDictionary[Connection, set[tuple[int, int]]] = WeakKeyDictionary()
_tasks: set[asyncio.Task[None]] = set()


def seated(connection: Connection, table_id: int, seat: int) -> None:
    """The socket joined the table as ``seat``."""
    _seats.setdefault(connection, set()).add((table_id, seat))


def seats_of(connection: Connection) -> set[tuple[int, int]]:
    return set(_seats.get(connection, ()))


async def left(connection: Connection, table_id: int) -> None:
    """The socket left the table's page (`table.leave`): for the table it is as if it closed."""
    held = _seats.get(connection)
    if not held:
        return
    for entry in [entry for entry in held if entry[0] == table_id]:
        held.discard(entry)
        _tell(entry[0], entry[1], connection, closed=True)


@on_heartbeat
async def beat(connection: Connection) -> None:
    for table_id, seat in seats_of(connection):
        _tell(table_id, seat, connection, closed=False)


@on_close
async def closed(connection: Connection) -> None:
    for table_id, seat in _seats.pop(connection, set()):
        _tell(table_id, seat, connection, closed=True)


def _forget(connection: Connection, table_id: int) -> None:
    """The table ended: the socket's seats there need no more news (a socket kept across rematches,
    as the load benches' clients keep theirs, told every table it had ever sat at, every 20 s)."""
    held = _seats.get(connection)
    if held:
        held.difference_update([entry for entry in held if entry[0] == table_id])


def _tell(table_id: int, seat: int, connection: Connection, *, closed: bool) -> None:
    from amigos.web.tables import registry

    key = key_of(connection)
    actor = registry.local_actor(table_id)
    if actor is not None and not actor.broken:
        if actor.status in registry.ENDED:
            _forget(connection, table_id)
        elif closed:
            actor.post(lambda: actor.detach(key, seat))
        elif not actor.heard_at_once(seat):
            actor.post(lambda: actor.heard(seat))
        return
    # The table runs elsewhere (or is not loaded here): tell it through its owner.
    task = asyncio.get_running_loop().create_task(_forward(table_id, seat, connection, closed))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _forward(table_id: int, seat: int, connection: Connection, closed: bool) -> None:
    from amigos.web.tables import forwarding

    payload = {"table_id": table_id, "seat": seat, "socket_key": key_of(connection), "closed": closed}
    asker = forwarding.Remote(connection.user_id)
    try:
        if closed:  # a departure is told once: it waits for the owner's answer
            await forwarding.run("table.presence", table_id, asker, payload)
        else:  # a heartbeat comes again in 20 s: told without an answer
            await forwarding.tell("table.presence", table_id, asker, payload)
    except CommandError as refusal:
        if refusal.code == "table_not_found":  # it ended (presence is news for tables in play)
            _forget(connection, table_id)
        log.info("table %s: presence of seat %s not told (%s)", table_id, seat, refusal.code)
    except Exception:
        log.exception("table %s: presence of seat %s not told", table_id, seat)
