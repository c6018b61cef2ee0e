"""Socket commands: report a player (from a table, its chat or the lobby chat), mute and unmute.

Reports, and mutes with unmutes, are limited by the lobby chat's rule (`moderation.flood`), each
kind counted apart.

A mute takes effect in the socket layer (`amigos.web.realtime.muting`): each process keeps the muted
ids of the players whose sockets it holds, loaded when a socket opens, and every process hears a
change on one topic (`MUTES_TOPIC`), so the player's other pages stop getting the lines too.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.moderation import flood, selectors, services
from amigos.web.realtime.commands import (
    CommandError,
    Connection,
    before_welcome,
    command,
    int_field,
    on_close,
    on_open,
    optional_int_field,
)
from amigos.web.realtime.hub import Hub, get_hub

# One topic for the whole site: a mute is rare, and a topic per player would cost a subscription
# per online player in every process.
MUTES_TOPIC = "moderation.mutes"
MUTES_CHANGED = "_moderation.mutes"


def _checked_report(payload: dict[str, Any]) -> dict[str, Any]:
    """The report's fields, or ``bad_payload`` (no database involved)."""
    comment = payload.get("comment")
    if not isinstance(comment, str):
        raise CommandError("bad_payload", '"comment" must be a string')
    return {
        "reported_id": int_field(payload, "player_id"),
        "comment": comment,
        "table_id": optional_int_field(payload, "table_id"),
        "table_line_id": optional_int_field(payload, "table_line_id"),
        "lobby_line_id": optional_int_field(payload, "lobby_line_id"),
    }


@database_sync_to_async
def _report(user_id: int, fields: dict[str, Any]) -> int:
    try:
        row = services.report(reporter=User.objects.get(pk=user_id), now=timezone.now(), **fields)
    except services.ModerationError as error:
        raise CommandError(error.code) from None
    return int(row.pk)


@command("moderation.report")
async def report(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Limited like the lobby chat (`moderation.flood`): here per player in this process, and in
    `services.report` on the reports stored by every process."""
    fields = _checked_report(payload)
    flood.spend(flood.Budget.REPORT, connection.user_id)
    return {"report_id": await _report(connection.user_id, fields)}


@database_sync_to_async
def _mute(user_id: int, muted: int, on: bool) -> list[dict[str, object]]:
    owner = User.objects.get(pk=user_id)
    try:
        if on:
            services.mute(owner=owner, muted_id=muted, now=timezone.now())
        else:
            services.unmute(owner=owner, muted_id=muted)
    except services.ModerationError as error:
        raise CommandError(error.code) from None
    return selectors.muted_players(user_id)


async def _changed(connection: Connection, players: list[dict[str, object]]) -> dict[str, Any]:
    """Apply the new mutes in this process at once (the next line is already filtered), tell the
    other processes, and answer with the list the page shows."""
    ids = sorted(int(str(player["id"])) for player in players)
    hub = get_hub()
    hub.mutes.put(connection.user_id, frozenset(ids))
    await hub.publish(MUTES_TOPIC, MUTES_CHANGED, {"owner": connection.user_id, "muted": ids})
    # The player's other pages (any process) show the new list too, not only after a reload.
    await hub.publish(own_mutes_topic(connection.user_id), "moderation.muted", {"muted": players})
    return {"muted": players}


def own_mutes_topic(user_id: int) -> str:
    """Every socket of a player listens here for changes to the list of players they muted."""
    return f"moderation.mutes.{user_id}"


async def _set_mute(connection: Connection, payload: dict[str, Any], on: bool) -> dict[str, Any]:
    """A mute or an unmute is told to every process: it is limited by the chat's rule too
    (`moderation.flood`; counted in this process only, as it leaves no row to count)."""
    muted = int_field(payload, "player_id")
    flood.spend(flood.Budget.MUTE, connection.user_id)
    return await _changed(connection, await _mute(connection.user_id, muted, on))


@command("moderation.mute")
async def mute(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    return await _set_mute(connection, payload, True)


@command("moderation.unmute")
async def unmute(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    return await _set_mute(connection, payload, False)


def _heard(hub: Hub) -> None:
    """Follow the mutes topic once per process (hub)."""

    def changed(kind: str, payload: dict[str, Any]) -> None:
        owner, muted = payload.get("owner"), payload.get("muted")
        if kind == MUTES_CHANGED and isinstance(owner, int) and isinstance(muted, list):
            hub.mutes.update(owner, frozenset(m for m in muted if isinstance(m, int)))

    hub.features["moderation.mutes"] = changed


@before_welcome
async def load_mutes(connection: Connection) -> None:
    """Before any chat reaches the socket: whom this player muted."""
    hub = get_hub()
    if "moderation.mutes" not in hub.features:
        _heard(hub)
        hub.on_resync("moderation.mutes", lambda: reload_mutes(hub))
        await hub.observe(MUTES_TOPIC, hub.features["moderation.mutes"])
    muted = await database_sync_to_async(selectors.muted_by)(connection.user_id)
    hub.mutes.put(connection.user_id, frozenset(muted))


async def reload_mutes(hub: Hub) -> None:
    """After the bus lost messages: a mute made on another process in the gap never reached this
    one, whose sockets would still show the muted player's lines. Read again the mutes of every
    player this process follows, in one query."""
    followed = hub.mutes.followed()
    if not followed:
        return
    for owner_id, muted in (await database_sync_to_async(selectors.muted_by_each)(followed)).items():
        hub.mutes.update(owner_id, frozenset(muted))


@on_open
async def list_mutes(connection: Connection) -> None:
    """The page lists whom its player muted, to unmute them (sent only when there is someone),
    and follows the changes made on the player's other pages."""
    await connection.join(own_mutes_topic(connection.user_id))
    if get_hub().mutes.of(connection.user_id):
        players = await database_sync_to_async(selectors.muted_players)(connection.user_id)
        connection.push("moderation.muted", {"muted": players})


@on_close
async def forget_mutes(connection: Connection) -> None:
    """The player's last socket here closed: this process need not follow their mutes any more."""
    hub = get_hub()
    if hub.sockets_of(connection.user_id) <= 1:
        hub.mutes.forget(connection.user_id)


@database_sync_to_async
def _is_staff(user_id: int) -> bool:
    return User.objects.filter(pk=user_id, is_staff=True, is_active=True).exists()


@command("moderation.watch", activity=False)
async def watch(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    """Staff watch any table live, chat included, as an unseen spectator.

    The spectators' topic shows only public information (never a hand), joining it announces nobody,
    and this also opens correspondence tables, which refuse ordinary spectators. Anyone not staff
    gets the same answer as for a table that does not exist, so the command reveals nothing.
    """
    from amigos.web.tables import forwarding

    table_id = int_field(payload, "table_id")
    if not await _is_staff(connection.user_id):
        raise CommandError("table_not_found", "no such table")
    # run by the process that holds the table (forwarding.py), the topics joined here
    return await forwarding.run("moderation.watch", table_id, connection, {})


def _watch_operation() -> None:
    from amigos.web.tables import forwarding, rendering
    from amigos.web.tables.actor import TableActor

    @forwarding.operation("moderation.watch")
    async def join(actor: TableActor, connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
        await connection.join(rendering.watch_topic(actor.id))
        await connection.join(rendering.chat_topic(actor.id))
        connection.push("table.snapshot", actor.snapshot(None))
        return {"table_id": actor.id, "seat": None, "version": actor.version, "mode": "snapshot"}


_watch_operation()
