"""Pages that the server's bus failed catch up as soon as the server says so (`resync`), without
waiting for a further message: a table's page joins again with the last version it has, and the
lobby's page asks again for its tables and invitations.

What a deafened page must *not* get is checked with a marker, never after a fixed wait: once the
server's hub has handled the message the page must miss, the test pushes a `test.marker` envelope
straight onto the page's own socket. A socket's envelopes arrive in order, so when the page has the
marker it has everything that socket was ever going to send before it: a message that leaked
through is among them (the test fails on that bug), and a slow machine only makes the marker late
(a wait, never a failure). A fixed 300 ms wait once failed beside a CPU hog."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from playwright.sync_api import expect

from amigos.web.realtime import hub as hub_module
from amigos.web.tables import rendering, services
from tests.web.conftest import ServerThread
from tests.web.tables.screen_support import my_turn, play_against_computer, play_one, player, sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Keeps every envelope the page receives, in order, in `window.__envelopes` (the page's own
#: scripts see them through the same document event).
RECORD_ENVELOPES = """
window.__envelopes = [];
document.addEventListener("amigos:envelope", (event) => {
  const { type, payload } = event.detail;
  window.__envelopes.push({ type, payload });
});
"""

MARKER = "test.marker"


def in_server(server: ServerThread, work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run_coroutine_threadsafe(work(), server.loop).result(30)


def received_before_marker(page: Any, marker_id: int) -> list[dict[str, Any]]:
    """Waits until ``page`` has the marker ``marker_id``; the envelopes it received before it."""
    page.wait_for_function(
        "(id) => window.__envelopes.some((e) => e.type === 'test.marker' && e.payload.id === id)",
        arg=marker_id,
    )
    return list(
        page.evaluate(
            """(id) => {
              const at = window.__envelopes.findIndex((e) => e.type === 'test.marker' && e.payload.id === id);
              return window.__envelopes.slice(0, at);
            }""",
            marker_id,
        )
    )


def push_marker(server: ServerThread, receivers: set[Any], marker_id: int) -> None:
    """Queues the marker on each receiver (a socket), behind whatever the hub gave it already."""

    async def push() -> None:
        for receiver in receivers:
            receiver.push(MARKER, {"id": marker_id})

    in_server(server, push)


def test_a_watching_page_that_missed_plays_catches_up_on_resync_without_a_further_event(
    open_page: Callable[..., Any], site_server: ServerThread
) -> None:
    player("Ana")
    player("Eva")
    ana, eva = open_page(), open_page()
    eva.add_init_script(RECORD_ENVELOPES)
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
    # The newest version the hub has handed out on the spectators' topic (to nobody, while deaf).
    published = {"version": 0}
    changed = asyncio.Event()

    def observer(kind: str, payload: dict[str, Any]) -> None:
        if kind == "table.events":
            versions = [event["version"] for event in payload.get("events", [])]
            published["version"] = max([published["version"], *versions])
            changed.set()  # on the server's loop, as the hub calls its observers

    async def deafen() -> set[Any]:
        # Eva's socket stops hearing the table, as a process's sockets do while its bus is away.
        await hub.observe(topic, observer)
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
    after = int(ana.get_attribute("#table-page", "data-version") or 0)

    async def spectators_told_of(version: int) -> None:
        # The hub has handled the spectators' copy of every event up to Ana's version.
        while published["version"] < version:
            changed.clear()
            await changed.wait()
        hub._observers[topic].remove(observer)

    in_server(site_server, lambda: spectators_told_of(after))
    push_marker(site_server, deaf, 1)
    missed = received_before_marker(eva, 1)
    # Whatever Eva's socket sent before the marker holds nothing after the deafening...
    leaked = [
        event["version"]
        for envelope in missed
        if envelope["type"] == "table.events"
        for event in envelope["payload"]["events"]
        if event["version"] > int(before or 0)
    ]
    assert leaked == []
    # ...and her page is still where it was.
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
    eva.add_init_script(RECORD_ENVELOPES)
    sign_in_as(eva, "Eva")
    hub = hub_module._hubs[site_server.loop]
    topic = rendering.user_topic(eva_player.pk)
    # The page has its answer to `tables.subscribe`: the server joined it to her topic and then read
    # her invitations (none). Deafened before that answer, the page once got the invitation in it,
    # when the table below was created between the join and the read (a loaded machine).
    eva.wait_for_function(
        "() => window.__envelopes.some((e) => e.type === 'ack' && e.payload && 'invitations' in e.payload)"
    )
    invited = asyncio.Event()

    def observer(kind: str, payload: dict[str, Any]) -> None:
        if kind == "table.invited":
            invited.set()  # on the server's loop, as the hub calls its observers

    async def deafen() -> set[Any]:
        await hub.observe(topic, observer)
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

    async def invitation_sent() -> None:
        # The table has sent Eva's invitation and the hub has handled it (for nobody: she is deaf).
        await invited.wait()
        hub._observers[topic].remove(observer)

    in_server(site_server, invitation_sent)
    push_marker(site_server, deaf, 1)
    missed = received_before_marker(eva, 1)
    assert [e for e in missed if e["type"] == "table.invited"] == []
    assert not any("invitations" in (e["payload"] or {}) and e["payload"]["invitations"] for e in missed)
    assert eva.locator("#invite-dialog[open]").count() == 0

    async def listen_again() -> None:
        hub._local[topic].update(deaf)
        await hub.resync()

    in_server(site_server, listen_again)
    expect(eva.locator("#invite-dialog[open]")).to_contain_text("Ana te invita a «Los del parque»")
