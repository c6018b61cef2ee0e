"""The socket's frames go to the server's own `send`, past channels' session wrapper."""

from __future__ import annotations

from typing import Any

from amigos.web.realtime.server_send import SCOPE_KEY, ServerSend


async def test_a_websocket_scope_carries_the_servers_send_and_http_does_not() -> None:
    seen: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(dict(scope))

    async def receive() -> dict[str, Any]:
        return {}

    async def send(message: dict[str, Any]) -> None:
        return None

    socket_scope = {"type": "websocket", "path": "/ws/"}
    await ServerSend(app)(socket_scope, receive, send)
    await ServerSend(app)({"type": "http", "path": "/"}, receive, send)
    assert seen[0][SCOPE_KEY] is send
    assert SCOPE_KEY not in seen[1]
    assert SCOPE_KEY not in socket_scope  # the caller's scope is left as it was
