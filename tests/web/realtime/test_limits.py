"""The token bucket that rate limits a socket, on a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime.envelope import MAX_FRAME_BYTES
from amigos.web.realtime.limits import (
    HTTP_PROTOCOL_PATH,
    PROTOCOL_PATH,
    TokenBucket,
    uvicorn_websocket_options,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_steady_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=2, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.4  # 0.8 of a token
    assert not bucket.take()
    clock.now += 0.1  # one token
    assert bucket.take() and not bucket.take()
    clock.now += 60  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


@given(st.data())
def test_never_more_than_burst_plus_rate_times_elapsed(data: st.DataObject) -> None:
    clock = Clock()
    rate = data.draw(st.integers(1, 20))
    burst = data.draw(st.integers(1, 40))
    bucket = TokenBucket(rate=rate, burst=burst, clock=clock)
    start, taken = clock.now, 0
    for step in data.draw(st.lists(st.floats(0, 2), max_size=60)):
        clock.now += step
        taken += bucket.take()
    assert taken <= burst + rate * (clock.now - start) + 1e-9


def test_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        TokenBucket(rate=0, burst=5)
    with pytest.raises(ValueError):
        TokenBucket(rate=1, burst=0)


def test_the_server_refuses_frames_over_the_protocol_limit() -> None:
    assert uvicorn_websocket_options() == {
        "http": HTTP_PROTOCOL_PATH,
        "ws": PROTOCOL_PATH,
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_per_message_deflate": False,
    }
