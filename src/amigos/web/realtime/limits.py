"""Limits of the socket tier: what one socket's frames may cost, the openings of one client
address, and the server's frame size.

A token bucket per socket refuses a flood before any database work: each command takes a token,
tokens come back at a steady rate up to a burst. A second budget per socket (`FrameBudget`) is
spent before a frame is parsed, in characters and in parsing time, so a socket whose frames are
expensive to read is refused as surely as one that sends too many. And the openings of sockets
are counted per client address (`AddressLimit`) before a socket reads its session. Every clock is
an argument so the rules are tested without waiting.
"""

from __future__ import annotations

import ipaddress
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


class FrameBudget:
    """What one socket's frames may cost the server to read: characters, and seconds of parsing,
    each refilled at a steady rate up to a burst.

    Why before parsing: the command bucket is consulted once a frame is parsed, so a frame that
    took longer to parse than the bucket takes to refill was never refused, and one socket sending
    such frames held the event loop (issue 36: half a second a frame, 82% of a process). Here a
    frame is admitted only while the socket has characters for it and owes no parsing time; the
    time its parse took is charged after, and may leave the socket owing, which refuses its next
    frames, unread, until the debt is repaid. `clock` is read twice a frame, before and after the
    parse, and serves for the refill as well, unless `work_clock` is given: then the parse is
    timed by `work_clock` (the server gives the thread's CPU time) and `clock` only refills.

    Why the CPU time: on a machine with more work than cores, a parse of a few microseconds may
    take a whole time slice of wall time when the process is preempted in it, so a socket that
    sent nothing costly could run out of parsing time, be refused, then closed as a flood (a
    suspect when hundreds of sockets were refused at 300 tables across three hosts on two shared
    cores). The thread's CPU time counts only what the parse cost."""

    __slots__ = (
        "char_burst",
        "char_rate",
        "chars",
        "clock",
        "seconds",
        "time_burst",
        "time_rate",
        "updated",
        "work_clock",
    )

    def __init__(
        self,
        char_rate: float,
        char_burst: float,
        time_rate: float,
        time_burst: float,
        clock: Callable[[], float] = time.perf_counter,
        work_clock: Callable[[], float] | None = None,
    ) -> None:
        if char_rate <= 0 or char_burst < 1 or time_rate <= 0 or time_burst <= 0:
            raise ValueError("a frame budget needs positive rates and room for a frame")
        self.char_rate, self.char_burst = char_rate, char_burst
        self.time_rate, self.time_burst = time_rate, time_burst
        self.clock = clock
        self.work_clock = work_clock
        self.chars = char_burst
        self.seconds = time_burst
        self.updated = clock()

    def admit(self, size: int) -> float | None:
        """Before reading a frame of `size` characters: spend them and return the clock's reading
        (to give `charge`), or None, with nothing spent, if the socket may not read it now."""
        # Every frame of every socket passes here: plain comparisons rather than `min` calls.
        now = self.clock()
        elapsed = now - self.updated
        self.updated = now
        chars = self.chars + elapsed * self.char_rate
        if chars > self.char_burst:
            chars = self.char_burst
        seconds = self.seconds + elapsed * self.time_rate
        if seconds > self.time_burst:
            seconds = self.time_burst
        self.seconds = seconds
        if seconds <= 0 or chars < size:
            self.chars = chars
            return None
        self.chars = chars - size
        return now if self.work_clock is None else self.work_clock()

    def charge(self, started: float) -> None:
        """After reading the frame `admit` let in at `started`: its time is spent, owed if need be."""
        self.seconds -= (self.clock if self.work_clock is None else self.work_clock)() - started


#: How many client addresses `AddressLimit` remembers at most; the least recently seen go first.
MAX_ADDRESSES = 65536


def address_key(client: object) -> str | None:
    """Whose openings an ASGI scope's ``client`` counts as: its IP address, or for IPv6 its /64
    network (one home or machine is given a whole /64, and could open from any of its addresses);
    None when the server knows no IP address (a Unix socket), which no limit can be keyed on."""
    if not isinstance(client, list | tuple) or not client or not isinstance(client[0], str):
        return None
    try:
        address = ipaddress.ip_address(client[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class AddressLimit:
    """A token bucket per client address: the openings of sockets one address may make, refused
    before the socket reads its session (issue 36: 300 openings with made-up cookies in 5 s, each
    a trip to the database thread that every opening waits for, slowed everyone else's).

    The rate and burst are given with each opening (the settings, read then), and a bucket that
    has filled up again is the same as none, so it is forgotten; the addresses are kept in the
    order last seen, and at most `limit` of them (a flood of made-up addresses forgets the oldest
    first, never grows without bound)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, limit: int = MAX_ADDRESSES) -> None:
        if limit < 1:
            raise ValueError("an address limit remembers at least one address")
        self.clock = clock
        self.limit = limit
        self.buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when counted)

    def take(self, key: str | None, rate: float, burst: float) -> bool:
        """Count an opening from `key`: False (nothing counted) when it has none left."""
        if key is None:
            return True
        now = self.clock()
        buckets = self.buckets
        tokens, updated = buckets.pop(key, (burst, now))
        tokens = min(burst, tokens + (now - updated) * rate)
        allowed = tokens >= 1
        buckets[key] = (tokens - 1 if allowed else tokens, now)  # now the most recently seen
        self._forget(now, rate, burst)
        return allowed

    def _forget(self, now: float, rate: float, burst: float) -> None:
        """Drop the least recently seen addresses whose buckets are full again (a couple at each
        opening, so the work stays constant), and any beyond the limit."""
        buckets = self.buckets
        for _ in range(2):
            oldest = next(iter(buckets), None)
            if oldest is None:
                return
            tokens, updated = buckets[oldest]
            if len(buckets) <= self.limit and tokens + (now - updated) * rate < burst:
                return
            del buckets[oldest]


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
