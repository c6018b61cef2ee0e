"""The socket's Origin check (scheme, host and port) and the production CSP (wss: only)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async

from amigos.web.security import policy_for, same_origin
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import Peer, of_type


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "ws", False),  # another port of the same host
        ("http://127.0.0.1", "127.0.0.1:8000", "ws", False),
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # the scheme differs
        ("http://localhost:8000", "127.0.0.1:8000", "ws", False),  # another host name
        ("https://localhost", "localhost", "wss", True),
        ("https://localhost:443", "localhost", "wss", True),  # the default port, written or not
        ("http://localhost", "localhost", "wss", False),  # an http page of an https site
        ("https://evil.example", "evil.example", "wss", False),  # not an allowed host
        ("null", "localhost", "ws", False),
        (None, "localhost", "ws", False),
        ("http://localhost:99999", "localhost:99999", "ws", False),
        ("http://localhost/path", "localhost", "ws", False),
    ],
)
def test_same_origin(origin: str | None, host: str, scheme: str, allowed: bool, settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    assert same_origin(origin, host, scheme) is allowed


@pytest.mark.django_db(transaction=True)
async def test_a_page_on_another_port_cannot_open_a_socket(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    player = await sync_to_async(sign_in)()
    other_port = f"http://127.0.0.1:{site_server.port + 1}"
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(
            site_server.ws_url, additional_headers={"Origin": other_port, "Cookie": player.cookie_header()}
        )
    connection = await websockets.connect(
        site_server.ws_url, additional_headers={"Origin": site_server.url, "Cookie": player.cookie_header()}
    )
    await Peer(connection).expect(of_type("welcome"))
    await connection.close()


def test_the_policy_allows_plain_sockets_only_outside_production() -> None:
    assert "connect-src 'self' ws://h:1 wss://h:1;" in policy_for("h:1", secure_sockets_only=False)
    secure = policy_for("h:1", secure_sockets_only=True)
    assert "connect-src 'self' wss://h:1;" in secure and "ws://" not in secure


def test_production_settings_allow_secure_sockets_only() -> None:
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os; os.environ['DJANGO_SETTINGS_MODULE']='amigos.web.settings.production'; "
            "from django.conf import settings; print(settings.AMIGOS_SECURE_SOCKETS_ONLY)",
        ],
        env={"AMIGOS_SECRET_KEY": "s" * 50, "AMIGOS_ALLOWED_HOSTS": "domino.example", "PATH": "/usr/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.stdout.strip() == "True", check.stderr
