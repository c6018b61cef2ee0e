"""Which upgrades reach the socket, and what the socket is given (amigos.web.realtime.entry), and the
session check of a socket's opening (accounts.sessions.signed_in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session

from amigos.web.realtime.entry import SESSION_KEY, handshake_of
from tests.web.conftest import ServerThread, SignedIn
from tests.web.realtime.test_hardening import closed_code
from tests.web.test_socket import Peer, connect, of_type


def scope(path: str = "/ws/", **headers: str) -> dict[str, Any]:
    return {
        "type": "websocket",
        "path": path,
        "scheme": "ws",
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
