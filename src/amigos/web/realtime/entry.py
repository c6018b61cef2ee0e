"""The WebSocket half of the site's ASGI application: which upgrades reach the socket, and with what.

One layer does what four did (an origin check, then channels' cookie, session and authentication
middleware around its URL router). Each of those stayed on the stack for the socket's whole life
with its own copy of the scope, and channels' authentication made a trip of its own to the
database thread, on which every opening waits. A live table keeps four sockets open for a whole
match, so what a socket keeps counts (bench/load.py), and so do its openings' trips.

* A client address may open only so many sockets (`limits.AddressLimit`, the settings
  `AMIGOS_SOCKET_OPENINGS_PER_SECOND` and `AMIGOS_SOCKET_OPENING_BURST`): one more is refused with
  HTTP 429 before anything else, the session above all, is read. The address is the one uvicorn
  gives the scope, which is the proxy's `X-Forwarded-For` when the proxy is trusted
  (docs/deploy.md).
* Only `/ws/` is served, and only to a page of this site (`security.same_origin`): any other
  upgrade is refused before it is accepted (HTTP 403). Browsers send the player's cookie with a
  socket from any page, which is why the origin is checked at all.
* From the handshake's headers the socket takes only the session cookie's key. The socket loads
  the session and its player itself, with Django's own check of the session, in the one trip to the
  database thread its opening makes (`SiteSocket.connect`).
* The socket gets the server's own `send`: nothing wraps its frames.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import parse_cookie

from amigos.web.realtime.limits import AddressLimit, address_key
from amigos.web.security import same_origin

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SOCKET_PATH = "/ws/"
# The scope key of the session cookie's key (None without one).
SESSION_KEY = "amigos.session_key"


def handshake_of(scope: Scope) -> dict[str, Any] | None:
    """The scope the socket is given for an upgrade it may accept, None for one to refuse."""
    if scope.get("path") != SOCKET_PATH:
        return None
    origin = host = cookie = None
    for name, value in scope.get("headers", ()):
        if name == b"origin" and origin is None:
            origin = bytes(value).decode("latin-1")
        elif name == b"host" and host is None:
            host = bytes(value).decode("latin-1")
        elif name == b"cookie" and cookie is None:
            cookie = bytes(value).decode("latin-1")
    if not same_origin(origin, host, str(scope.get("scheme", "ws"))):
        return None
    session_key = parse_cookie(cookie).get(settings.SESSION_COOKIE_NAME) if cookie else None
    return {
        "type": "websocket",
        "path": SOCKET_PATH,
        "query_string": bytes(scope.get("query_string", b"")),
        SESSION_KEY: session_key or None,
    }


#: How long a client refused for opening too many sockets is told to wait (HTTP Retry-After).
RETRY_AFTER_SECONDS = 5


async def refuse_busy(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse an upgrade with HTTP 429 (too many requests), or 403 under a server that cannot
    answer an upgrade with a status of its choice. Either costs the server one small response."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await WebsocketDenier()({"type": "websocket"}, receive, send)
        return
    await send(
        {
            "type": "websocket.http.response.start",
            "status": 429,
            "headers": [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())],
        }
    )
    await send({"type": "websocket.http.response.body", "body": b"too many sockets opened; retry later\n"})


class SocketEntry:
    """ASGI application for the `websocket` scope type: refuses an address that opens too many
    sockets and what `handshake_of` refuses, and runs the socket application on its small scope
    otherwise. The openings are counted per process: each process of the site keeps its own."""

    def __init__(self, socket_app: ASGIApp, openings: AddressLimit | None = None) -> None:
        self.socket_app = socket_app
        self.openings = openings if openings is not None else AddressLimit()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = address_key(scope.get("client"))
        if not self.openings.take(
            key, settings.AMIGOS_SOCKET_OPENINGS_PER_SECOND, settings.AMIGOS_SOCKET_OPENING_BURST
        ):
            await refuse_busy(scope, receive, send)
            return
        inner = handshake_of(scope)
        del scope  # the socket lives long; this frame keeps nothing of the handshake
        if inner is None:
            await WebsocketDenier()({"type": "websocket"}, receive, send)  # HTTP 403
            return
        await self.socket_app(inner, receive, send)
