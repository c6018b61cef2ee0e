"""Pages that the server's bus failed catch up as soon as the server says so (`resync`), without
waiting for a further message: a table's page joins again with the last version it has, and the
lobby's page asks again for its tables and invitations."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.lobby.models import Presence
from amigos.web.realtime import hub as hub_module
from amigos.web.tables import rendering, services
from tests.web.conftest import ServerThread
from tests.web.tables.screen_support import my_turn, play_against_computer, play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_server(server: ServerThread, work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run_coroutine_threadsafe(work(), server.loop).result(10)


def test_a_watching_page_that_missed_plays_catches_up_on_resync_without_a_further_event(
    open_page: Callable[..., Any], site_server: ServerThread
) -> None:
    player("Ana")
    player("Eva")
    ana, eva = open_page(), open_page()
    sign_in_as(ana, "Ana")
    sign_in_as(eva, "Eva")
    table_id = play_against_computer(ana, "all-fives-100")
    eva.goto(f"/mesas/{table_id}/")
    eva.wait_for_selector("#table-page[data-join-as=spectator]")
    ana.locator("#my-hand .my-tile--playable").first.wait_for()
    for _attempt in range(5):
        # Both pages at the same version (a slow machine's turn clock may have moved the table on).
        before = ana.get_attribute("#table-page", "data-version")
        try:
            expect(eva.locator("#table-page")).to_have_attribute("data-version", str(before), timeout=5000)
            break
        except AssertionError:
            continue

    hub = hub_module._hubs[site_server.loop]
    topic = rendering.watch_topic(table_id)

    async def deafen() -> set[Any]:
        # Eva's socket stops hearing the table, as a process's sockets do while its bus is away.
        sockets = hub.local(topic)
        hub._local[topic].clear()
        return sockets

    deaf = in_server(site_server, deafen)
    assert len(deaf) == 1
    play_one(ana, "click")
    ana.wait_for_function(
        "v => document.querySelector('#table-page').dataset.version !== v && "
        "document.querySelector('#my-hand .my-tile--playable') !== null",
        arg=before,
    )
    assert my_turn(ana)  # the table waits for Ana: no further event comes for Eva
    after = ana.get_attribute("#table-page", "data-version")
    assert eva.get_attribute("#table-page", "data-version") == before

    async def listen_again() -> None:
        hub._local[topic].update(deaf)
        await hub.resync()

    in_server(site_server, listen_again)
    expect(eva.locator("#table-page")).to_have_attribute("data-version", str(after))


def test_the_lobby_shows_an_invitation_whose_notice_was_lost_once_told_to_resync(
    open_page: Callable[..., Any], site_server: ServerThread
) -> None:
    ana, eva_player = player("Ana"), player("Eva")
    eva = open_page()
    sign_in_as(eva, "Eva")
    hub = hub_module._hubs[site_server.loop]
    topic = rendering.user_topic(eva_player.pk)

    async def listening() -> bool:
        return hub.has_local(topic)

    eva.wait_for_function("() => document.querySelector('#live-tables') !== null")
    for _attempt in range(200):
        if in_server(site_server, listening):
            break
        eva.wait_for_timeout(50)

    async def deafen() -> set[Any]:
        sockets = hub.local(topic)
        hub._local[topic].clear()
        return sockets

    deaf = in_server(site_server, deafen)
    assert len(deaf) == 1
    services.create_table(
        organizer=ana,
        name="Los del parque",
        variant="amigos-100",
        seats={
            1: services.SeatChoice(level="easy"),
            2: services.SeatChoice(user_id=eva_player.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    # The table has sent Eva's invitation (she shows as invited), which her page never heard.
    for _attempt in range(200):
        if Presence.objects.filter(user=eva_player, status="invited").exists():
            break
        eva.wait_for_timeout(50)
    eva.wait_for_timeout(300)
    assert eva.locator("#invite-dialog[open]").count() == 0

    async def listen_again() -> None:
        hub._local[topic].update(deaf)
        await hub.resync()

    in_server(site_server, listen_again)
    expect(eva.locator("#invite-dialog[open]")).to_contain_text("Ana te invita a «Los del parque»")
