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
from amigos.web.realtime.commands import CommandError, Connection, command

#: Event ids are database keys: anything outside a 64-bit key is refused before any query.
LARGEST_ID = 2**63 - 1


def _version_if_visible(user_id: int, event_id: int) -> int | None:
    event = Event.objects.filter(pk=event_id).first()
    user = User.objects.filter(pk=user_id).first()
    if event is None or user is None or not may_see(user, event):
        return None
    return event.version


db_version_if_visible = database_sync_to_async(_version_if_visible)


@command("events.watch", activity=False)
async def watch(connection: Connection, payload: dict[str, Any]) -> dict[str, Any]:
    event_id = payload.get("event_id")
    if isinstance(event_id, bool) or not isinstance(event_id, int) or not 1 <= event_id <= LARGEST_ID:
        raise CommandError("bad_payload", '"event_id" must be a positive integer')
    version = await db_version_if_visible(connection.user_id, event_id)
    if version is None:
        # The same answer for an event that does not exist and one the player may not see.
        raise CommandError("not_found", "no such event")
    await connection.join(topic(event_id))
    return {"event_id": event_id, "version": version}
