"""Limits of the socket tier: the command rate of one socket, and the server's frame size.

A token bucket per socket refuses a flood before any database work: each command takes a token,
tokens come back at a steady rate up to a burst. The clock is an argument so the rule is tested
without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from amigos.web.realtime.envelope import MAX_FRAME_BYTES

# uvicorn's `ws` option: an import string, which needs no import of uvicorn here.
PROTOCOL_PATH = "amigos.web.realtime.protocol:SiteSocketProtocol"
#: uvicorn's `http` option, likewise.
HTTP_PROTOCOL_PATH = "amigos.web.realtime.http_protocol:SiteHttpProtocol"


class TokenBucket:
    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a token bucket needs a positive rate and room for at least one token")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.updated = clock()

    def take(self) -> bool:
        """Spend one token if there is one; False (nothing spent) when the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def uvicorn_websocket_options() -> dict[str, Any]:
    """What every uvicorn serving the site must be given (`amigos serve` and the test server): the
    site's socket protocol (uvicorn's, holding less per socket: `amigos.web.realtime.protocol`),
    its frame limit, so a larger frame is refused (close 1009) before it is buffered, and no
    per-message compression. Compressing every outgoing envelope was the largest single cost of a
    live table's play in bench/load.py (a third of the event loop's time), for envelopes of a few
    hundred bytes; without it a small compressed frame can neither inflate past the size limit.
    And the site's HTTP protocol, which frees an upgraded connection's HTTP half at once
    (`amigos.web.realtime.http_protocol`)."""
    return {
        "http": HTTP_PROTOCOL_PATH,
        "ws": PROTOCOL_PATH,
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_per_message_deflate": False,
    }
