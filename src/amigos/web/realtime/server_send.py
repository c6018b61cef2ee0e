"""The server's own `send`, handed to the socket for its frames.

Channels wraps `send` in its session middleware, which on every outgoing message reads the session
(through Django's lazy object) to decide whether to save it: it only ever saves on an HTTP response,
never on a WebSocket frame. At a thousand tables that check was a tenth of the time spent sending a
move. This middleware sits outside channels' stack and puts the server's `send` in the scope;
`SiteSocket` sends its frames through it, and everything else (accept, close) still goes through
channels. A socket run without this middleware (a test's communicator) uses channels' `send`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SCOPE_KEY = "amigos.server_send"


class ServerSend:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") == "websocket":
            scope = {**scope, SCOPE_KEY: send}
        await self.app(scope, receive, send)
