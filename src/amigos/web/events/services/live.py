"""Telling the phones that follow an event that it changed: a small message on the bus.

Every service that changes an event calls :func:`changed` inside its transaction. The event's
version goes up at once (so two phones can tell which page is newer), and once the transaction has
committed a "changed" message goes to the event's topic; the board re-fetches what it shows. Nothing
is sent for a change that rolled back, and nothing in the message says more than the version: the
page itself is fetched with the player's own permissions.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import Future
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import transaction
from django.db.models import F

from amigos.web.events.models import Event

log = logging.getLogger(__name__)

#: The message kind a board listens for.
CHANGED = "event.changed"


def topic(event_id: int) -> str:
    return f"event:{event_id}"


def changed(event: Event) -> None:
    """Record that ``event`` changed and announce it once the surrounding transaction commits."""
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
    event.refresh_from_db(fields=["version"])
    event_id, version = event.pk, event.version
    transaction.on_commit(lambda: announce(event_id, version))


def _outer_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop when this sync code runs in a worker thread of the ASGI server;
    None in a plain synchronous call (tests' client, management commands), where no socket of
    this process can be listening."""
    loop: asyncio.AbstractEventLoop | None = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    pid = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None)
    if loop is None or pid != os.getpid() or loop.is_closed():
        return None
    return loop


async def _publish(event_id: int, version: int) -> None:
    from amigos.web.realtime.hub import get_hub

    await get_hub().publish(topic(event_id), CHANGED, {"event": event_id, "version": version})


def _report(future: Future[Any]) -> None:
    error = future.exception()
    if error is not None:
        # The change is stored; a board that missed this message still shows it on its next fetch.
        log.error("could not announce an event change", exc_info=error)


def announce(event_id: int, version: int) -> None:
    """Publish the change without making the request wait for the bus."""
    loop = _outer_loop()
    if loop is None:
        return
    future = asyncio.run_coroutine_threadsafe(_publish(event_id, version), loop)
    future.add_done_callback(_report)
