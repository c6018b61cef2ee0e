"""The limits of the socket tier on a fake clock: the command bucket, the frame budget, the
openings of one address."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime.envelope import MAX_FRAME_BYTES
from amigos.web.realtime.limits import (
    HTTP_PROTOCOL_PATH,
    PROTOCOL_PATH,
    AddressLimit,
    FrameBudget,
    TokenBucket,
    address_key,
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


def test_a_frame_is_admitted_while_the_socket_has_characters_for_it() -> None:
    clock = Clock()
    budget = FrameBudget(char_rate=1000, char_burst=3000, time_rate=0.02, time_burst=0.2, clock=clock)
    assert budget.admit(2000) is not None and budget.admit(1000) is not None
    assert budget.admit(1) is None  # nothing left, nothing spent
    clock.now += 0.5
    assert budget.admit(501) is None and budget.admit(500) is not None
    clock.now += 60  # never more than the burst
    assert budget.admit(3000) is not None and budget.admit(1) is None


def test_parsing_time_is_charged_and_a_socket_in_debt_is_refused_unread() -> None:
    clock = Clock()
    budget = FrameBudget(char_rate=10_000, char_burst=10_000, time_rate=0.02, time_burst=0.2, clock=clock)
    started = budget.admit(100)
    assert started is not None
    clock.now += 0.5  # one parse took half a second: more than the whole burst
    budget.charge(started)
    # Owing 0.3 s at 0.02 s a second: refused for 15 s, whatever the frame.
    for _ in range(14):
        clock.now += 1
        assert budget.admit(1) is None
    clock.now += 1.01
    assert budget.admit(1) is not None


def test_with_a_work_clock_only_the_parse_s_own_work_is_charged() -> None:
    """The server times a parse by the thread's CPU time: a process preempted in the middle of a
    cheap parse (wall time passes, no work is done) is not charged the wait; costly work still is."""
    wall, work = Clock(), Clock()
    budget = FrameBudget(
        char_rate=10_000, char_burst=10_000, time_rate=0.02, time_burst=0.2, clock=wall, work_clock=work
    )
    for _ in range(50):
        started = budget.admit(100)
        assert started is not None
        wall.now += 0.5  # preempted: half a second of wall time in a parse
        work.now += 0.00001  # that cost ten microseconds of work
        budget.charge(started)
    started = budget.admit(100)
    assert started is not None
    work.now += 0.5  # a parse that really worked half a second
    budget.charge(started)
    wall.now += 1
    assert budget.admit(1) is None  # owes 0.3 s: refused, refilled by the wall clock
    wall.now += 15
    assert budget.admit(1) is not None


@given(st.data())
def test_parsing_never_costs_more_than_the_burst_plus_the_rate_and_one_frame(data: st.DataObject) -> None:
    """Whatever each parse costs, the time spent parsing a socket's admitted frames is at most the
    burst, the rate times the elapsed time, and the one frame admitted last (charged after)."""
    clock = Clock()
    rate, burst = data.draw(st.floats(0.001, 0.5)), data.draw(st.floats(0.001, 1))
    budget = FrameBudget(char_rate=1e9, char_burst=1e9, time_rate=rate, time_burst=burst, clock=clock)
    start, spent, largest = clock.now, 0.0, 0.0
    for gap, cost in data.draw(st.lists(st.tuples(st.floats(0, 2), st.floats(0, 1)), max_size=60)):
        clock.now += gap
        started = budget.admit(1)
        if started is not None:
            clock.now += cost
            budget.charge(started)
            spent, largest = spent + cost, max(largest, cost)
    assert spent <= burst + rate * (clock.now - start) + largest + 1e-9


def test_a_frame_budget_refuses_nonsense() -> None:
    for rates in [(0, 10, 1, 1), (10, 0, 1, 1), (10, 10, 0, 1), (10, 10, 1, 0)]:
        with pytest.raises(ValueError):
            FrameBudget(*rates)


@pytest.mark.parametrize(
    ("client", "key"),
    [
        (("203.0.113.7", 5000), "203.0.113.7"),
        (["203.0.113.7", 5000], "203.0.113.7"),
        (("2001:db8:1:2:3:4:5:6", 5000), "2001:db8:1:2::/64"),
        (("2001:db8:1:2:ffff::1", 5000), "2001:db8:1:2::/64"),  # the same /64: the same key
        (("::ffff:203.0.113.7", 5000), "203.0.113.7"),
        (None, None),
        ((), None),
        (("not an address", 1), None),
        (("/run/amigos.sock", None), None),
    ],
)
def test_openings_are_counted_by_address_and_ipv6_by_its_network(client: object, key: str | None) -> None:
    assert address_key(client) == key


def test_each_address_has_its_own_openings() -> None:
    clock = Clock()
    limit = AddressLimit(clock)
    assert [limit.take("a", 1, 3) for _ in range(4)] == [True, True, True, False]
    assert limit.take("b", 1, 3)  # another address is not affected
    assert limit.take(None, 1, 3)  # nothing to key on: not limited
    clock.now += 1
    assert limit.take("a", 1, 3) and not limit.take("a", 1, 3)
    clock.now += 0.01
    assert limit.take("a", 1000, 3)  # the rate and burst are the ones given now
    assert [limit.take("a", 1000, 1) for _ in range(2)] == [True, False]  # a lower burst at once


def test_addresses_are_forgotten_once_full_again_and_never_beyond_the_limit() -> None:
    clock = Clock()
    limit = AddressLimit(clock, limit=100)
    for n in range(50):
        limit.take(f"idle-{n}", 1, 5)
    clock.now += 10  # every bucket above is full again
    for n in range(50):
        limit.take(f"busy-{n}", 1, 5)
    assert all(key.startswith("busy-") for key in limit.buckets)
    for n in range(1000):  # a flood of addresses, none of them full again
        limit.take(f"flood-{n}", 1, 5)
    assert len(limit.buckets) == 100 and "flood-999" in limit.buckets
    with pytest.raises(ValueError):
        AddressLimit(limit=0)


@given(st.data())
def test_an_address_never_opens_more_than_burst_plus_rate_times_elapsed(data: st.DataObject) -> None:
    clock = Clock()
    rate, burst = data.draw(st.integers(1, 20)), data.draw(st.integers(1, 40))
    limit = AddressLimit(clock, limit=data.draw(st.integers(1, 8)))
    addresses = data.draw(st.lists(st.sampled_from("abcdef"), min_size=1, max_size=80))
    start, opened = clock.now, dict.fromkeys(addresses, 0)
    for address in addresses:
        clock.now += data.draw(st.floats(0, 0.5))
        opened[address] += limit.take(address, rate, burst)
    # A forgotten address starts again full, which it would be anyway only if full again: with a
    # limit smaller than the addresses in play it can get more (a bounded memory's price).
    if len(opened) <= limit.limit:
        assert all(count <= burst + rate * (clock.now - start) + 1e-9 for count in opened.values())
