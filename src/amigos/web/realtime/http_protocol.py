"""uvicorn's HTTP protocol (httptools), made to leave no reference cycle behind when a connection
becomes a WebSocket.

Why: uvicorn's `HttpToolsProtocol` and its `httptools.HttpRequestParser` refer to each other (the
parser calls six of the protocol's bound methods). When the connection ends as HTTP, uvicorn
breaks that cycle itself (`connection_lost` drops the parser); when it upgrades to a WebSocket,
the transport passes to the socket's protocol and the HTTP protocol is never told again, so the
pair, with its flow control, deques and the handshake's tuples (about 26 objects), waits for the
cycle collector. A thousand tables' sockets left over 100,000 such objects (measured with
bench/load.py), which every pass of the collector then walked. Here the upgrade drops the parser
as `connection_lost` does, and reference counting frees the pair at once.

The version of uvicorn is pinned, and `tests/web/realtime/test_http_protocol.py` checks that an
upgraded connection leaves nothing for the collector.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class SiteHttpProtocol(HttpToolsProtocol):
    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # Nothing reads the parser after the upgrade: `data_received` returns at once (uvicorn
        # 0.54), and this object no longer receives the transport's calls.
        self.parser = None  # type: ignore[assignment]
