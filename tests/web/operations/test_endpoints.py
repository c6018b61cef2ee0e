"""`/healthz`, `/readyz` and `/metrics` (amigos.web.probes), called as the server
would call them, and once through a real server with a real socket."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from amigos.web import probes as endpoints
from amigos.web.operations import draining, metrics
from amigos.web.realtime import hub as hub_module
from amigos.web.realtime.hub import get_hub
from tests.web.conftest import ServerThread, SignedIn
from tests.web.operations.asgi_call import request

TOKEN = "a-metrics-token-of-thirty-two-chars"
NAMES = (
    "amigos_live_tables",
    "amigos_table_actors",
    "amigos_sockets",
    "amigos_plays",
    "amigos_command_seconds",
    "amigos_bus_lag_seconds",
    "amigos_bus_pending_publications",
    "amigos_bot_searches",
    "amigos_leases_held",
    "amigos_leases_taken_over",
    "amigos_draining",
)


async def site_never_called(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError(f"the site was asked for {scope.get('path')}")


@pytest.fixture
def app() -> endpoints.Operations:
    return endpoints.Operations(site_never_called)


@pytest.fixture(autouse=True)
def not_draining() -> Iterator[None]:
    draining.reset()
    yield
    draining.reset()


@pytest.fixture
async def own_hub() -> Any:
    """The test loop's hub, closed and forgotten afterwards (a Redis bus holds connections)."""
    found = get_hub()
    yield found
    await found.close()
    hub_module._hubs.pop(asyncio.get_running_loop(), None)


async def test_healthz_answers_without_the_site_or_the_database(app: endpoints.Operations) -> None:
    # No database fixture: pytest-django refuses any query, so a check that touched it would fail.
    answer = await request(app, "/healthz")
    assert (answer.status, answer.body) == (200, b"ok\n")
    assert answer.headers["cache-control"] == "no-store"
    assert (await request(app, "/healthz", method="HEAD")).status == 200
    assert (await request(app, "/healthz", method="POST")).status == 405


async def test_other_paths_go_to_the_site() -> None:
    seen: list[str] = []

    async def site(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    answer = await request(endpoints.Operations(site), "/healthz/more")
    assert (answer.status, seen) == (204, ["/healthz/more"])


@pytest.mark.django_db
async def test_readyz_is_ready_with_the_database_and_the_bus(app: endpoints.Operations, own_hub: Any) -> None:
    answer = await request(app, "/readyz")
    assert answer.status == 200, answer.body
    assert answer.json() == {"ready": True, "draining": False, "database": "ok", "bus": "ok"}
    assert answer.headers["cache-control"] == "no-store"


@pytest.mark.django_db
async def test_readyz_refuses_while_draining(app: endpoints.Operations, own_hub: Any) -> None:
    draining.begin()
    answer = await request(app, "/readyz")
    assert answer.status == 503
    assert answer.json()["draining"] is True
    assert (await request(app, "/healthz")).status == 200  # alive all the same


@pytest.mark.django_db
async def test_readyz_refuses_when_the_database_does_not_answer(
    app: endpoints.Operations, own_hub: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(endpoints, "_database_answers", refused)
    answer = await request(app, "/readyz")
    assert answer.status == 503
    assert answer.json() == {"ready": False, "draining": False, "database": "unreachable", "bus": "ok"}


@pytest.mark.django_db
async def test_readyz_refuses_when_the_bus_does_not_answer(
    app: endpoints.Operations, own_hub: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def no_answer() -> bool:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(own_hub.bus, "ping", no_answer, raising=False)
    answer = await request(app, "/readyz")
    assert answer.status == 503
    assert answer.json()["bus"] == "unreachable"


async def test_a_lifespan_shutdown_starts_the_drain() -> None:
    async def site(scope: Any, receive: Any, send: Any) -> None:
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})

    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: Any) -> None:
        pass

    await endpoints.Operations(site)({"type": "lifespan"}, receive, send)
    assert draining.draining()


async def test_metrics_are_refused_while_no_token_is_set(app: endpoints.Operations, settings: Any) -> None:
    settings.AMIGOS_METRICS_TOKEN = ""
    answer = await request(app, "/metrics", headers={"Authorization": "Bearer "})
    assert answer.status == 403
    assert b"amigos_" not in answer.body


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer", "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}"],
)
async def test_metrics_need_the_token(
    app: endpoints.Operations, settings: Any, authorization: str | None
) -> None:
    settings.AMIGOS_METRICS_TOKEN = TOKEN
    headers = {} if authorization is None else {"Authorization": authorization}
    answer = await request(app, "/metrics", headers=headers)
    assert answer.status == 401
    assert answer.headers["www-authenticate"] == "Bearer"
    assert b"amigos_" not in answer.body


def test_the_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.AMIGOS_METRICS_TOKEN = TOKEN
    compared: list[tuple[bytes, bytes]] = []

    def compare(given: bytes, expected: bytes) -> bool:
        compared.append((given, expected))
        return given == expected

    monkeypatch.setattr(endpoints.hmac, "compare_digest", compare)
    assert endpoints.metrics_allowed([(b"authorization", f"Bearer {TOKEN}".encode())]) == 200
    assert compared == [(TOKEN.encode(), TOKEN.encode())]


@pytest.mark.django_db
async def test_metrics_with_the_token_name_every_figure(
    app: endpoints.Operations, settings: Any, own_hub: Any
) -> None:
    settings.AMIGOS_METRICS_TOKEN = TOKEN
    metrics.command_done("heartbeat", 0.0)
    answer = await request(app, "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    families = {family.name: family for family in text_string_to_metric_families(answer.body.decode())}
    assert set(NAMES) <= set(families)
    lag = next(sample.value for sample in families["amigos_bus_lag_seconds"].samples)
    assert 0 <= lag < float("inf")  # the probe came back through the test's bus
    assert "process_resident_memory_bytes" in families  # the client's own process figures


def test_command_types_nobody_registered_share_one_label() -> None:
    def count(label: str) -> float:
        return REGISTRY.get_sample_value("amigos_command_seconds_count", {"command": label}) or 0.0

    before_known, before_unknown = count("heartbeat"), count(metrics.UNKNOWN_COMMAND)
    metrics.command_done("heartbeat", 0.0)
    for text in ("no-such-command", "x" * 500, "unknown"):
        metrics.command_done(text, 0.0)
    assert count("heartbeat") == before_known + 1
    assert count(metrics.UNKNOWN_COMMAND) == before_unknown + 3
    assert count("no-such-command") == 0.0


@pytest.mark.django_db(transaction=True)
async def test_a_socket_command_and_the_sockets_show_in_a_real_servers_metrics(
    site_server: ServerThread, sign_in: Callable[..., SignedIn], settings: Any
) -> None:
    from tests.web.test_socket import connect, of_type

    settings.AMIGOS_METRICS_TOKEN = TOKEN
    ana = await sync_to_async(sign_in)("Ana")
    before = REGISTRY.get_sample_value("amigos_command_seconds_count", {"command": "heartbeat"}) or 0.0
    peer = await connect(site_server, ana)
    await peer.expect(of_type("welcome"))
    ident = await peer.send("heartbeat")
    assert (await peer.reply(ident))["type"] == "ack"

    def scrape(path: str, token: str | None) -> tuple[int, str]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        try:
            wanted = urllib.request.Request(site_server.url + path, headers=headers)  # noqa: S310
            with urllib.request.urlopen(wanted, timeout=10) as response:  # noqa: S310 (our own server)
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    assert (await asyncio.to_thread(scrape, "/healthz", None))[0] == 200
    assert (await asyncio.to_thread(scrape, "/readyz", None))[0] == 200
    assert (await asyncio.to_thread(scrape, "/metrics", None))[0] == 401
    status, text = await asyncio.to_thread(scrape, "/metrics", TOKEN)
    assert status == 200
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    assert samples[("amigos_command_seconds_count", (("command", "heartbeat"),))] >= before + 1
    assert samples[("amigos_sockets", ())] == 1
    await peer.connection.close()
