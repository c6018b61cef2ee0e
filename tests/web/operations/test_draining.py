"""A process asked to stop drains first: it says so on /readyz, and only then passes the signal to
the server (amigos.web.operations.draining)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from types import FrameType

import pytest

from amigos.web.operations import draining


class Server:
    """Stands in for uvicorn's own signal handler."""

    def __init__(self) -> None:
        self.signals: list[int] = []
        self.stopped = asyncio.Event()

    def handle_exit(self, number: int, frame: FrameType | None) -> None:
        self.signals.append(number)
        self.stopped.set()


@pytest.fixture
def server() -> Iterator[Server]:
    saved = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    draining.reset()
    fake = Server()
    for number in saved:
        signal.signal(number, fake.handle_exit)
    yield fake
    for number, handler in saved.items():
        signal.signal(number, handler)
    draining.reset()


async def test_sigterm_drains_then_reaches_the_server(server: Server) -> None:
    loop = asyncio.get_running_loop()
    assert draining.install(0.05, loop)
    assert not draining.install(0.05, loop)  # a second server loop wraps nothing twice
    signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # type: ignore[operator]
    assert draining.draining()
    assert server.signals == []  # not yet: the proxy first sees /readyz refuse
    await asyncio.wait_for(server.stopped.wait(), 30)
    assert server.signals == [signal.SIGTERM]


async def test_a_second_sigterm_or_ctrl_c_stops_at_once(server: Server) -> None:
    loop = asyncio.get_running_loop()
    draining.install(3600, loop)
    handler = signal.getsignal(signal.SIGTERM)
    handler(signal.SIGTERM, None)  # type: ignore[operator]
    handler(signal.SIGTERM, None)  # type: ignore[operator]
    assert server.signals == [signal.SIGTERM]
    signal.getsignal(signal.SIGINT)(signal.SIGINT, None)  # type: ignore[operator]
    assert server.signals == [signal.SIGTERM, signal.SIGINT]


async def test_without_a_drain_the_signal_passes_at_once(server: Server) -> None:
    draining.install(0, asyncio.get_running_loop())
    signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # type: ignore[operator]
    assert draining.draining()
    assert server.signals == [signal.SIGTERM]


def test_nothing_is_installed_off_the_main_thread() -> None:
    import threading

    loop = asyncio.new_event_loop()
    found: list[bool] = []
    thread = threading.Thread(target=lambda: found.append(draining.install(1, loop)))
    thread.start()
    thread.join()
    loop.close()
    assert found == [False]
