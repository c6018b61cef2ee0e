"""The event board's socket command: ``events.watch`` follows an event's changes live.

A phone showing an event (its board, a table's sheet) joins the topic ``event:<id>`` and gets an
``event.changed`` message after each committed change; it then fetches the page again, with the
player's own permissions. This replaces polling ``/events/N/state/``, whose requests counted as the
player's actions and kept an idle player signed in for ever: watching is not an action.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from amigos.web.accounts.models import User
from amigos.web.events.models import Event
from amigos.web.events.selectors import may_see
from amigos.web.events.services.live import topic
from amigos.web.realtime.commands import CommandError, Connection, command, int_field


def _version_if_visible(user_id: int, event_id: int) -> int | None:
    event = Event.objects.filter(pk=event_id).first()
    user = User.objects.filter(pk=user_id).first()
    if event is None or user is None or not may_see(user, event):
        return None
    return event.version


db_version_if_visible = database_sync_to_async(_version_if_visible)


@command("events.watch", activity=False)
async def watch(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    event_id = int_field(payload, "event_id", lowest=1)
    version = await db_version_if_visible(connection.user_id, event_id)
    if version is None:
        # The same answer for an event that does not exist and one the player may not see.
        raise CommandError("not_found", "no such event")
    await connection.join(topic(event_id))
    return {"event_id": event_id, "version": version}
