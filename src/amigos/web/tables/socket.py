"""The tables' socket commands (docs/protocol.md, "Tables"): parse, find the actor, let it decide.

Every handler is thin: it checks the payload's shape, finds the table's actor and hands it the
signed-in player's id, here or in the process that runs the table (`forwarding`: the operation
below each command runs inside the table's actor, wherever it lives). The seat is never taken from
the payload, so a socket can only ever speak for
its own player's seat; the actor checks the rest (seat, turn, version) against the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from channels.db import database_sync_to_async
from django.utils import timezone

from amigos.web.lobby import chat as lobby_chat
from amigos.web.realtime import flood_rule as flood
from amigos.web.realtime import muting
from amigos.web.realtime.commands import CommandError, Connection, command, int_field, optional_int_field
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import attendance, forwarding, lobby, registry, rendering, selectors, socket_keys
from amigos.web.tables.actor import TableActor, parse_action
from amigos.web.tables.models import TableChatLine

# The most seats a table has (leaving a table leaves each seat's topic).
MAX_SEATS = 4

# The most tables one socket follows at once. A page follows one table (and, at a rematch, the
# next); a client that joins table after table on one socket without `table.leave` would keep every
# table's topics, and their bus subscriptions, until it closed. Past this many, joining one more
# leaves the one it joined longest ago (as `table.leave` would).
MAX_TABLES_PER_SOCKET = 16

#: The tables each socket joined in this process, oldest first (weak keys: a socket that is gone
#: takes its entry with it).
_joined: WeakKeyDictionary[Connection, dict[int, None]] = WeakKeyDictionary()

# A reader who muted a player gets neither their new lines at the table nor those in a snapshot.
muting.authored("table.chat")
muting.authored("table.snapshot", lines="chat")


async def _run(name: str, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Run the table operation here or in the process that runs the table (`forwarding`)."""
    return await forwarding.run(name, int_field(payload, "table_id"), connection, payload)


@command("tables.subscribe", activity=False)
async def subscribe(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    registry.remember_loop()
    await lobby.list_feed(get_hub()).listen()
    await connection.join(rendering.LOBBY_TOPIC)
    await connection.join(rendering.user_topic(connection.user_id))
    tables = await database_sync_to_async(selectors.live_tables)()
    invitations = await database_sync_to_async(selectors.open_invitations)(connection.user_id)
    return {"tables": tables, "invitations": invitations}


@command("tables.unsubscribe", activity=False)
async def unsubscribe(connection: Connection, payload: dict[str, Any]) -> None:
    await connection.leave(rendering.LOBBY_TOPIC)
    await connection.leave(rendering.user_topic(connection.user_id))


@command("table.join", activity=False)
async def join(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    as_ = payload.get("as", "seat")
    if as_ not in ("seat", "spectator"):
        raise CommandError("bad_payload", '"as" must be "seat" or "spectator"')
    optional_int_field(payload, "since")
    # The socket's own key (never the client's): the table tells this socket's seat present or
    # away by it, wherever the table runs.
    payload = {**payload, "socket_key": socket_keys.key_of(connection)}
    table_id = int_field(payload, "table_id")
    answer = await _run("table.join", connection, payload)
    seat = answer.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        attendance.seated(connection, table_id, seat)
    await _followed(connection, table_id)
    return answer


async def _followed(connection: Connection, table_id: int) -> None:
    """The socket joined ``table_id``: it is now the table it joined last, and the one it joined
    longest ago is left when it follows more than `MAX_TABLES_PER_SOCKET`."""
    joined = _joined.setdefault(connection, {})
    joined.pop(table_id, None)
    joined[table_id] = None
    while len(joined) > MAX_TABLES_PER_SOCKET:
        await _leave_table(connection, next(iter(joined)))


@forwarding.operation("table.join")
async def _join(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    since = optional_int_field(payload, "since")
    key = payload.get("socket_key")
    return await actor.join(
        connection, payload.get("as", "seat") == "seat", since, key if isinstance(key, str) else None
    )


@forwarding.operation("table.presence", only_in_play=True)
async def _presence(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """A seated socket's heartbeat or departure, from whichever process holds the socket."""
    seat, key = payload.get("seat"), payload.get("socket_key")
    if not isinstance(seat, int) or isinstance(seat, bool) or actor.seat_of(connection.user_id) != seat:
        raise CommandError("not_seated", "you hold no seat at this table")
    if not isinstance(key, str):
        raise CommandError("bad_payload", '"socket_key" must be text')
    if payload.get("closed") is True:
        await actor.detach(key, seat)
    else:
        await actor.heard(seat)
    return {}


@command("table.leave", activity=False)
async def leave(connection: Connection, payload: dict[str, Any]) -> None:
    await _leave_table(connection, int_field(payload, "table_id"))


async def _leave_table(connection: Connection, table_id: int) -> None:
    """The socket stops following the table: its topics here, and its seat there (`attendance`)."""
    joined = _joined.get(connection)
    if joined is not None:
        joined.pop(table_id, None)
    await connection.leave(rendering.watch_topic(table_id))
    await connection.leave(rendering.chat_topic(table_id))
    await attendance.left(connection, table_id)
    # the table may run in another process: leave every seat's topic this socket could hold
    for seat in range(MAX_SEATS):
        await connection.leave(rendering.seat_topic(table_id, seat))


#: The local check of a command's payload before it goes to the table, wherever that runs.
Check = Callable[[dict[str, Any]], None]


def table_command(
    name: str, check: Check | None = None
) -> Callable[[forwarding.Operation], forwarding.Operation]:
    """Register ``name`` both as a socket command and as the table operation it runs.

    The socket's side is the same for every such command: refuse a malformed payload here (so a
    bad frame costs no hop to the owning process), then run the operation where the table lives.
    Only the operation differs, so it is the one function written per command.
    """

    def register(operation: forwarding.Operation) -> forwarding.Operation:
        async def entry(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
            if check is not None:
                check(payload)
            return await _run(name, connection, payload)

        entry.__name__ = entry.__qualname__ = f"socket_{operation.__name__.lstrip('_')}"
        entry.__doc__ = operation.__doc__
        command(name)(entry)
        return forwarding.operation(name)(operation)

    return register


def _has_version(payload: dict[str, Any]) -> None:
    int_field(payload, "version")


def _is_play(payload: dict[str, Any]) -> None:
    _has_version(payload)
    parse_action(payload.get("tile"), payload.get("arm"), payload.get("lead_left"))


def _is_vote(payload: dict[str, Any]) -> None:
    _has_version(payload)
    if not isinstance(payload.get("choice"), str):
        raise CommandError("bad_payload", '"choice" must be text')


@table_command("table.play", _is_play)
async def _play(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Lay a tile or pass, at the version the player saw."""
    version = int_field(payload, "version")
    action = parse_action(payload.get("tile"), payload.get("arm"), payload.get("lead_left"))
    return await actor.play(connection.user_id, version, action)


@table_command("table.reshuffle", _has_version)
async def _reshuffle(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Cuban: ask for a new deal (only the seat offered one, before anyone moved)."""
    return await actor.reshuffle(connection.user_id, int_field(payload, "version"))


@table_command("table.invite.accept")
async def _accept(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Take the seat one was invited to."""
    return await actor.accept(connection.user_id)


@table_command("table.invite.refuse")
async def _refuse(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Say no to an invitation (the table is called off, spec §1.2.3.3)."""
    return await actor.refuse(connection.user_id)


@table_command("table.cancel")
async def _cancel(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """The organizer calls off a table whose match has not started."""
    return await actor.cancel(connection.user_id)


@table_command("table.start")
async def _start(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """The organizer starts the match once every seat has accepted."""
    return await actor.start_by_organizer(connection.user_id)


@table_command("table.vote", _is_vote)
async def _vote(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Rematch, rotate or back to the lobby, after a match reached its target."""
    version = int_field(payload, "version")
    return await actor.vote(connection.user_id, version, str(payload["choice"]))


def _stored_within(user_id: int) -> bool:
    """Whether the table lines ``user_id`` stored within the window, at every table and in every
    process, leave room for one more."""
    since = flood.window_start(timezone.now())
    return flood.room_for_one(TableChatLine.objects.filter(author_id=user_id, sent_at__gt=since).count())


@command("table.chat")
async def chat(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """The lobby chat's limits (`realtime.flood_rule`), per player over every table: the refusals
    that need nothing first, then this process's count, then the lines stored by any process,
    and only then the table (which may run in another process)."""
    text = payload.get("text")
    if not isinstance(text, str):
        raise CommandError("bad_payload", '"text" must be a string')
    try:
        lobby_chat.check_text(text)
    except lobby_chat.ChatRefused as refusal:
        raise CommandError(refusal.code, refusal.message) from None
    flood.spend(flood.Budget.TABLE_CHAT, connection.user_id)
    if not await database_sync_to_async(_stored_within)(connection.user_id):
        raise flood.refusal()
    return await _run("table.chat", connection, payload)


@forwarding.operation("table.chat")
async def _chat(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    user_id = connection.user_id
    if actor.kind == "correspondence" and not actor.is_member(user_id):
        raise CommandError("table_not_found", "no such table")
    return await actor.post_chat(user_id, str(payload["text"]))
