"""Fixtures for every test that touches the database, the bus or a live server.

`site_server` runs the real ASGI application under uvicorn in a thread on a free port (safe under
pytest-xdist), against the test database, so sockets and browsers talk to the real stack.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from amigos.web.accounts.models import User

PASSWORD = "dominó-seguro-2024"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerThread:
    def __init__(self) -> None:
        import uvicorn

        from amigos.web.realtime.limits import uvicorn_websocket_options

        self.port = free_port()
        config = uvicorn.Config(
            "amigos.web.asgi:application",
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
            **uvicorn_websocket_options(),
        )
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name=f"uvicorn-{self.port}", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    def start(self) -> None:
        self.thread.start()
        ready = threading.Event()

        def wait() -> None:
            while not self.server.started and self.thread.is_alive():
                threading.Event().wait(0.02)
            ready.set()

        threading.Thread(target=wait, daemon=True).start()
        if not ready.wait(20) or not self.server.started:
            raise RuntimeError("the test server did not start")

    def stop(self) -> None:
        from amigos.web.realtime import hub

        async def close_hub() -> None:
            running = hub._hubs.get(asyncio.get_running_loop())
            if running is not None:
                await running.close()

        if self.thread.is_alive():
            asyncio.run_coroutine_threadsafe(close_hub(), self.loop).result(10)
        self.server.should_exit = True
        self.thread.join(20)


@pytest.fixture(scope="session", autouse=True)
def store_threads_end_first(django_db_setup: None) -> Iterator[None]:
    """The tables' store threads, and the thread async tests reach the database on, keep a
    connection each: they let go before the test database is dropped (PostgreSQL refuses to drop
    a database in use, and the test databases piled up on the server)."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from amigos.web.tables import handover, storing

    storing.close()
    handover.close()
    # The thread that async tests' database calls run on keeps its connection too.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def archive_settles() -> Iterator[None]:
    """A match a test ended goes to the archive on the archive thread, after the table moved on:
    it is archived before the next test empties the database, never while it does."""
    yield
    from amigos.web.tables import handover

    assert handover.settle(timeout=120), "a hand-over to the archive did not finish"


@pytest.fixture(autouse=True)
def bus_namespace(settings: Any) -> str:
    """A Redis channel prefix of each test's own, so tests running side by side never hear each
    other. For every test, not only those that start a server: the tables' tests run actors in
    the test's process, and on Redis two `pytest -n 2` workers, each on its own database, made
    tables of the same ids, whose topics then crossed (a seat played at the version another
    worker's table had published, and was refused as stale)."""
    namespace = f"amigos-test-{uuid.uuid4().hex}"
    settings.AMIGOS_BUS_NAMESPACE = namespace
    return namespace


@pytest.fixture
def site_server(transactional_db: None, bus_namespace: str) -> Iterator[ServerThread]:
    server = ServerThread()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class SignedIn:
    user: User
    client: Client

    @property
    def session_key(self) -> str:
        return str(self.client.cookies["sessionid"].value)

    def cookie_header(self) -> str:
        return f"sessionid={self.session_key}"


@pytest.fixture
def make_player(db: None) -> Callable[..., User]:
    counter = iter(range(1, 10_000))

    def make(name: str | None = None, **extra: Any) -> User:
        """A player whose address is verified (pass email_verified_at=None for one that is not)."""
        label = name or f"Jugador {next(counter)}"
        email = f"{uuid.uuid4().hex[:10]}@example.org"
        extra.setdefault("email_verified_at", timezone.now())
        return User.objects.create_user(email=email, display_name=label, password=PASSWORD, **extra)

    return make


@pytest.fixture
def sign_in(make_player: Callable[..., User]) -> Callable[..., SignedIn]:
    def signed_in(name: str | None = None, **extra: Any) -> SignedIn:
        user = make_player(name, **extra)
        client = Client()
        client.force_login(user)
        return SignedIn(user, client)

    return signed_in


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"
