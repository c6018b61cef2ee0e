"""Which upgrades reach the socket, and what the socket is given (amigos.web.realtime.entry), the
openings of one client address, and the session check of a socket's opening
(accounts.sessions.signed_in)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session

from amigos.web.realtime import consumer
from amigos.web.realtime.entry import SESSION_KEY, SocketEntry, handshake_of
from amigos.web.realtime.limits import AddressLimit
from tests.web.conftest import ServerThread, SignedIn
from tests.web.realtime.test_hardening import closed_code
from tests.web.test_socket import WAIT, Peer, connect, of_type


def scope(path: str = "/ws/", client: tuple[str, int] | None = None, **headers: str) -> dict[str, Any]:
    return {
        "type": "websocket",
        "path": path,
        "scheme": "ws",
        "client": client,
        "extensions": {"websocket.http.response": {}},
        "query_string": b"lobby=0",
        "headers": [
            (name.replace("_", "-").encode(), value.encode("latin-1")) for name, value in headers.items()
        ],
    }


def test_the_socket_is_given_the_session_key_and_the_query_and_nothing_of_the_headers(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    handshake = scope(
        origin="http://127.0.0.1:8000",
        host="127.0.0.1:8000",
        cookie="csrftoken=abc; sessionid=k3y; theme=dark",
        user_agent="Mozilla/5.0",
    )
    assert handshake_of(handshake) == {
        "type": "websocket",
        "path": "/ws/",
        "query_string": b"lobby=0",
        SESSION_KEY: "k3y",
    }


def test_no_cookie_or_no_session_cookie_gives_no_session_key(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    page = {"origin": "http://127.0.0.1:8000", "host": "127.0.0.1:8000"}
    without = handshake_of(scope(**page))
    other = handshake_of(scope(**page, cookie="csrftoken=abc"))
    empty = handshake_of(scope(**page, cookie="sessionid="))
    assert without is not None and other is not None and empty is not None
    assert without[SESSION_KEY] is None and other[SESSION_KEY] is None and empty[SESSION_KEY] is None


@pytest.mark.parametrize(
    "handshake",
    [
        scope("/ws/other/", origin="http://127.0.0.1:8000", host="127.0.0.1:8000"),
        scope("/", origin="http://127.0.0.1:8000", host="127.0.0.1:8000"),
        scope(origin="http://evil.example", host="127.0.0.1:8000"),
        scope(host="127.0.0.1:8000"),
        scope(origin="http://127.0.0.1:8000"),
    ],
)
def test_another_path_or_origin_is_refused(handshake: dict[str, Any], settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    assert handshake_of(handshake) is None


def test_the_first_of_repeated_headers_counts(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    handshake = scope(origin="http://127.0.0.1:8000", host="127.0.0.1:8000")
    handshake["headers"] += [(b"origin", b"http://evil.example"), (b"cookie", b"sessionid=second")]
    handshake["headers"].insert(0, (b"cookie", b"sessionid=first"))
    inner = handshake_of(handshake)
    assert inner is not None and inner[SESSION_KEY] == "first"


@pytest.mark.django_db(transaction=True)
async def test_an_upgrade_to_another_path_is_refused(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)()
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(
            site_server.ws_url + "elsewhere/",
            additional_headers={"Origin": site_server.url, "Cookie": player.cookie_header()},
        )
    assert refused.value.response.status_code == 403


@pytest.mark.django_db(transaction=True)
async def test_a_session_from_before_a_password_change_signs_in_no_socket(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    """Django's own check of the session runs for a socket as for a page: a session signed in with
    an old password is ended, and the socket is told to sign in."""
    player = await sync_to_async(sign_in)()

    def change_password() -> None:
        player.user.set_password("una-clave-nueva-y-larga")
        player.user.save()

    await sync_to_async(change_password)()
    peer = await connect(site_server, player)
    error = await peer.expect(of_type("error"))
    assert error["payload"]["code"] == "unauthenticated"
    assert await closed_code(peer) == 4401
    assert not await Session.objects.filter(session_key=player.session_key).aexists()


@pytest.mark.django_db(transaction=True)
async def test_a_cookie_naming_no_session_signs_in_no_socket(site_server: ServerThread) -> None:
    connection = await websockets.connect(
        site_server.ws_url, additional_headers={"Origin": site_server.url, "Cookie": "sessionid=nothing-here"}
    )
    peer = Peer(connection)
    error = await peer.expect(of_type("error"))
    assert error["payload"]["code"] == "unauthenticated"
    assert await closed_code(peer) == 4401


class Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def open_through(entry: SocketEntry, handshake: dict[str, Any]) -> list[dict[str, Any]]:
    """What the entry sends the server for one upgrade (the socket application sends nothing)."""
    sent: list[dict[str, Any]] = []
    events = [{"type": "websocket.connect"}]

    async def receive() -> dict[str, Any]:
        return events.pop(0) if events else {"type": "websocket.disconnect", "code": 1006}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await entry(handshake, receive, send)
    return sent


@pytest.mark.django_db(transaction=True)  # channels' denier (the fallback) closes old connections
async def test_openings_beyond_an_addresss_burst_are_refused_before_the_socket_runs(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.AMIGOS_SOCKET_OPENINGS_PER_SECOND = 1
    settings.AMIGOS_SOCKET_OPENING_BURST = 3
    reached: list[Any] = []

    async def socket_app(inner: dict[str, Any], receive: Any, send: Any) -> None:
        reached.append(inner[SESSION_KEY])

    clock = Clock()
    entry = SocketEntry(socket_app, AddressLimit(clock))
    page = {"origin": "http://127.0.0.1:8000", "host": "127.0.0.1:8000", "cookie": "sessionid=made-up"}
    answers = [await open_through(entry, scope(client=("203.0.113.5", 4000 + n), **page)) for n in range(6)]
    assert reached == ["made-up"] * 3  # the socket (and its trip to the database) ran three times
    assert answers[:3] == [[], [], []]
    for refused in answers[3:]:
        assert refused[0]["type"] == "websocket.http.response.start" and refused[0]["status"] == 429
        assert (b"retry-after", b"5") in refused[0]["headers"]
        assert refused[1]["type"] == "websocket.http.response.body"
    # Another address, and the same one once a token came back, are let in.
    assert await open_through(entry, scope(client=("198.51.100.8", 4000), **page)) == []
    assert await open_through(entry, scope(client=("2001:db8::1", 4000), **page)) == []
    clock.now += 1
    assert await open_through(entry, scope(client=("203.0.113.5", 4100), **page)) == []
    assert len(reached) == 6
    # A server without the response extension: refused with its 403 instead.
    bare = scope(client=("203.0.113.5", 4200), **page)
    del bare["extensions"]
    assert [m["type"] for m in await open_through(entry, bare)] == ["websocket.close"]
    assert len(reached) == 6


@pytest.mark.django_db(transaction=True)
async def test_a_burst_of_openings_from_one_address_is_refused_before_any_database_trip(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 36: 300 openings with made-up cookies in 5 s from one address each made the opening's
    trip to the database thread, which every opening waits for. The address is the proxy's
    `X-Forwarded-For` (the test server, like `amigos serve`, trusts a proxy on 127.0.0.1)."""
    settings.AMIGOS_SOCKET_OPENINGS_PER_SECOND = 0.001
    settings.AMIGOS_SOCKET_OPENING_BURST = 3
    trips: list[str | None] = []
    db_open = consumer.db_open

    async def counted(session_key: str | None, now: float) -> consumer.Opening:
        trips.append(session_key)
        return await db_open(session_key, now)

    monkeypatch.setattr(consumer, "db_open", counted)
    errors, server_log = Recorder(), logging.getLogger("uvicorn.error")
    monkeypatch.setattr(server_log, "handlers", [*server_log.handlers, errors])
    flooder = {"Origin": site_server.url, "Cookie": "sessionid=made-up", "X-Forwarded-For": "203.0.113.77"}
    statuses = []
    for _ in range(10):
        try:
            connection = await asyncio.wait_for(
                websockets.connect(site_server.ws_url, additional_headers=flooder), WAIT
            )
        except websockets.InvalidStatus as refused:
            statuses.append(refused.response.status_code)
        else:
            peer = Peer(connection)
            assert (await peer.expect(of_type("error")))["payload"]["code"] == "unauthenticated"
            assert await closed_code(peer) == 4401
            statuses.append(101)
    assert statuses == [101] * 3 + [429] * 7
    assert trips == ["made-up"] * 3  # the refused ones never reached the database
    assert errors.records == []  # a refusal is no error of the server's (uvicorn logged one each)
    player = await sync_to_async(sign_in)()
    other = await connect(site_server, player)  # from another address: not affected
    await other.expect(of_type("welcome"))
    await other.connection.close()
