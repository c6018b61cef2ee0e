"""The tables' socket commands (docs/protocol.md, "Tables"): parse, find the actor, let it decide.

Every handler is thin: it checks the payload's shape, finds the table's actor and hands it the
signed-in player's id. The seat is never taken from the payload, so a socket can only ever speak for
its own player's seat; the actor checks the rest (seat, turn, version) against the engine.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from amigos.web.realtime.commands import CommandError, Connection, command
from amigos.web.tables import registry, rendering, selectors
from amigos.web.tables.actor import TableActor, parse_action


def _int(payload: dict[str, Any], name: str, *, optional: bool = False) -> int | None:
    value = payload.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CommandError("bad_payload", f'"{name}" must be a non-negative integer')
    return value


def _required(payload: dict[str, Any], name: str) -> int:
    value = _int(payload, name)
    assert value is not None
    return value


async def _actor(payload: dict[str, Any]) -> TableActor:
    table_id = _required(payload, "table_id")
    actor = await registry.get_actor(table_id)
    if actor is None:
        raise CommandError("table_not_found", "no such table")
    return actor


@command("tables.subscribe", activity=False)
async def subscribe(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    registry.remember_loop()
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
    since = _int(payload, "since", optional=True)
    actor = await _actor(payload)
    return await actor.call(lambda: actor.join(connection, as_ == "seat", since))


@command("table.leave", activity=False)
async def leave(connection: Connection, payload: dict[str, Any]) -> None:
    table_id = _required(payload, "table_id")
    await connection.leave(rendering.watch_topic(table_id))
    await connection.leave(rendering.chat_topic(table_id))
    actor = registry.local_actor(table_id)
    if actor is not None:
        for seat in range(actor.variant.players):
            await connection.leave(rendering.seat_topic(table_id, seat))


@command("table.play")
async def play(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    version = _required(payload, "version")
    action = parse_action(payload.get("tile"), payload.get("arm"), payload.get("lead_left"))
    actor = await _actor(payload)
    user_id = connection.user_id
    return await actor.call(lambda: actor.play(user_id, version, action))


@command("table.invite.accept")
async def accept(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    actor = await _actor(payload)
    user_id = connection.user_id
    return await actor.call(lambda: actor.accept(user_id))


@command("table.invite.refuse")
async def refuse(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    actor = await _actor(payload)
    user_id = connection.user_id
    return await actor.call(lambda: actor.refuse(user_id))


@command("table.vote")
async def vote(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    version = _required(payload, "version")
    choice = payload.get("choice")
    if not isinstance(choice, str):
        raise CommandError("bad_payload", '"choice" must be text')
    actor = await _actor(payload)
    user_id = connection.user_id
    return await actor.call(lambda: actor.vote(user_id, version, choice))


@command("table.chat")
async def chat(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    text = payload.get("text")
    if not isinstance(text, str):
        raise CommandError("bad_payload", '"text" must be a string')
    actor = await _actor(payload)
    user_id = connection.user_id
    if actor.kind == "correspondence" and not actor.is_member(user_id):
        raise CommandError("table_not_found", "no such table")
    return await actor.call(lambda: actor.post_chat(user_id, text))
