"""The live board over the site socket: ``events.watch`` joins an event's topic, every committed
change reaches the watchers as ``event.changed``, and nobody watches an event they may not see.
Regression for the 3-second polling of /events/N/state/, whose requests counted as actions."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from amigos.web.accounts.services import LAST_ACTIVITY_KEY
from amigos.web.events.models import Event
from amigos.web.events.services.rounds import start_event
from amigos.web.events.services.setup import EventSetup, accept_invitation, create_event, set_players
from amigos.web.realtime.commands import find
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import connect, of_type

CSRF = "a" * 32


def running_event(organizer: Any, keeper: Any) -> Event:
    import datetime as dt
    from decimal import Decimal

    setup = EventSetup("Recreo", "Club", dt.date(2026, 11, 21), 4, "100", None, Decimal(0), False)
    event = create_event(organizer, setup)
    set_players(event, [("Beto", keeper.email), ("Carla", ""), ("Dani", "")])
    accept_invitation(event, keeper)
    start_event(event, organizer)
    return event


def post_through_server(server: ServerThread, who: SignedIn, path: str, data: dict[str, str]) -> int:
    """A form post to the running server (so the change happens in the server's own process)."""
    body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": CSRF}).encode()
    request = urllib.request.Request(server.url + path, data=body, method="POST")  # noqa: S310
    request.add_header("Cookie", f"{who.cookie_header()}; csrftoken={CSRF}")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(request) as response:  # noqa: S310  (our own test server)
        return int(response.status)


def test_watching_is_registered_and_not_an_action() -> None:
    found = find("events.watch")
    assert found is not None and found.activity is False


@pytest.mark.django_db(transaction=True)
async def test_a_committed_change_reaches_every_watcher(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto, zoe = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto", "Zoe")]
    event = await sync_to_async(running_event)(ana.user, beto.user)
    watcher, stranger = await connect(site_server, beto), await connect(site_server, zoe)
    for peer in (watcher, stranger):
        await peer.expect(of_type("welcome"))

    ack = await watcher.reply(await watcher.send("events.watch", {"event_id": event.pk}))
    assert ack["type"] == "ack" and ack["payload"]["event_id"] == event.pk
    seen = ack["payload"]["version"]

    # Someone who is not in the event learns nothing, not even that it exists.
    refused = await stranger.reply(await stranger.send("events.watch", {"event_id": event.pk}))
    assert refused["type"] == "error" and refused["payload"]["code"] == "not_found"
    for bad in ("1", True, 0, -3, 2**63, None, [event.pk]):
        reply = await stranger.reply(await stranger.send("events.watch", {"event_id": bad}))
        assert reply["type"] == "error" and reply["payload"]["code"] == "bad_payload"

    path = reverse("events:table_action", args=[event.pk, 1, 1])
    status = await sync_to_async(post_through_server)(
        site_server, ana, path, {"action": "keeper", "player": "2"}
    )
    assert status == 200
    changed = await watcher.expect(of_type("event.changed"))
    assert changed["payload"]["event"] == event.pk and changed["payload"]["version"] > seen
    await watcher.reply(await watcher.send("heartbeat"))
    assert not [e for e in stranger.received if e["type"] == "event.changed"]
    for peer in (watcher, stranger):
        await peer.connection.close()
    await asyncio.sleep(0)


@pytest.mark.django_db
def test_a_background_refresh_does_not_count_as_an_action(sign_in: Callable[..., SignedIn]) -> None:
    """The board re-fetches itself after a change with this header; an idle player must still be
    signed out after ten minutes, so such a fetch leaves the idle clock alone."""
    ana = sign_in("Ana")
    client: Client = ana.client
    page = reverse("events:home")
    client.get(page)
    session = client.session
    session[LAST_ACTIVITY_KEY] = time.time() - 60  # a minute ago: not idle yet
    session.save()
    before = client.session[LAST_ACTIVITY_KEY]
    client.get(page, headers={"X-Amigos-Background": "1"})
    assert client.session[LAST_ACTIVITY_KEY] == before
    client.get(page)
    assert client.session[LAST_ACTIVITY_KEY] != before  # a page the player opened is an action
