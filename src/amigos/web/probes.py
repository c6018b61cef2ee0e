"""`/healthz`, `/readyz` and `/metrics`, answered before Django sees the request.

This module sits with `asgi`, above every app, because it reads them all at a scrape (the hub's
sockets and bus, the tables' actors and leases); the figures it serves are defined below the apps,
in `operations.metrics`, which the apps touch without importing anything above them.

They are asked every few seconds by a proxy, an orchestrator or Prometheus, so they are answered
here, in the ASGI layer, on the server's own event loop: no middleware, no session, no CSRF, no
host check, no redirect to HTTPS (Prometheus scrapes each process on its private address), and
`/healthz` never touches the database.

* `/healthz`: 200 while the process answers at all (its event loop turns).
* `/readyz`: 200 when the database answers a `SELECT 1`, the bus answers a ping (Redis; the
  in-memory bus always does) and the process is not draining (`draining`); 503 otherwise, with
  what failed in a small JSON body. Never cached.
* `/metrics`: the Prometheus text format, only with ``Authorization: Bearer <AMIGOS_METRICS_TOKEN>``
  (compared in constant time); refused (403) while no token is set, so a site exposes nothing by
  default. The gauges that describe the process's state are read here, at the scrape.

The database is asked on a thread of its own, one check at a time: a database that does not
answer holds that one thread, never the loop's shared executor (which Redis's name look-ups use).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import connections
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from amigos.web.operations import draining, loop_watch, metrics
from amigos.web.realtime.hub import Hub, get_hub
from amigos.web.tables import registry

log = logging.getLogger("amigos.operations")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
#: How long a readiness check or the bus probe waits for an answer.
CHECK_SECONDS = 2.0
#: The table statuses that still change by themselves.
LIVE = frozenset({"inviting", "playing", "voting"})
FEATURE = "operations"

_database_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amigos-readiness")
_database_check: asyncio.Future[None] | None = None


def _database_answers() -> None:
    """On the readiness thread: a fresh connection answers ``SELECT 1``, then goes (a probe every
    few seconds must not keep a connection of its own open)."""
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


async def database_ready() -> str:
    """ "ok", or why not. A check still under way (a database that hangs) is waited for again
    rather than doubled."""
    global _database_check
    loop = asyncio.get_running_loop()
    if _database_check is None or _database_check.done() or _database_check.get_loop() is not loop:
        _database_check = asyncio.wrap_future(_database_thread.submit(_database_answers), loop=loop)
    try:
        await asyncio.wait_for(asyncio.shield(_database_check), CHECK_SECONDS)
    except TimeoutError:
        return "timeout"
    except Exception as error:
        log.warning("readiness: the database did not answer: %s", error)
        return "unreachable"
    return "ok"


async def bus_ready(hub: Hub) -> str:
    ping = getattr(hub.bus, "ping", None)
    if ping is None:
        return "ok"  # the in-memory bus lives in this process
    try:
        answered = await asyncio.wait_for(ping(), CHECK_SECONDS)
    except TimeoutError:
        return "timeout"
    except Exception as error:
        log.warning("readiness: the bus did not answer: %s", error)
        return "unreachable"
    return "ok" if answered else "unreachable"


async def readiness(hub: Hub) -> tuple[bool, dict[str, Any]]:
    """Whether the process should get new players, and each check's answer."""
    if draining.draining():
        return False, {"draining": True, "database": "skipped", "bus": "skipped"}
    database, bus = await asyncio.gather(database_ready(), bus_ready(hub))
    checks = {"draining": False, "database": database, "bus": bus}
    return database == "ok" and bus == "ok", checks


class BusProbe:
    """Measures the bus's lag: a message this process publishes on a topic of its own, timed until
    the bus hands it back (through Redis and back when processes share the bus)."""

    def __init__(self) -> None:
        self.topic = f"operations.probe.{secrets.token_hex(8)}"
        self.listening = False
        self.waiting: dict[str, asyncio.Future[None]] = {}

    def _heard(self, kind: str, payload: dict[str, Any]) -> None:
        found = self.waiting.get(str(payload.get("token")))
        if found is not None and not found.done():
            found.set_result(None)

    async def measure(self, hub: Hub) -> float:
        """Seconds until the probe came back; infinity when it did not within `CHECK_SECONDS`."""
        loop = asyncio.get_running_loop()
        if not self.listening:
            await hub.observe(self.topic, self._heard)
            self.listening = True
        token = secrets.token_hex(8)
        arrived = self.waiting[token] = loop.create_future()
        started = loop.time()
        try:
            await hub.publish(self.topic, "_probe", {"token": token})
            await asyncio.wait_for(arrived, CHECK_SECONDS)
        except TimeoutError:
            return float("inf")
        finally:
            self.waiting.pop(token, None)
        return loop.time() - started


def _probe(hub: Hub) -> BusProbe:
    found = hub.features.get(FEATURE)
    if not isinstance(found, BusProbe):
        found = hub.features[FEATURE] = BusProbe()
    return found


async def refresh(hub: Hub) -> None:
    """Read the gauges that describe this process now (at the scrape)."""
    actors = registry.sharing()
    statuses = [actor.status for actor in actors.actors.values()]
    metrics.ACTORS.set(len(statuses))
    metrics.LIVE_TABLES.set(sum(1 for status in statuses if status in LIVE))
    metrics.SOCKETS.set(hub.open_sockets())
    metrics.LEASES_HELD.set(
        sum(1 for table_id in list(actors.leases.trusted_until) if actors.leases.holds(table_id))
    )
    metrics.BUS_PENDING.set(hub.pending_publications())
    metrics.BUS_LAG.set(await _probe(hub).measure(hub))
    metrics.DRAINING.set(1 if draining.draining() else 0)


def metrics_allowed(headers: list[tuple[bytes, bytes]]) -> int:
    """200 when the request carries the metrics token, 401 when it does not, 403 while none is set."""
    token = str(getattr(settings, "AMIGOS_METRICS_TOKEN", "") or "")
    if not token:
        return 403
    given = b""
    for name, value in headers:
        if name.lower() == b"authorization":
            given = value
    scheme, _, credentials = given.partition(b" ")
    if scheme.lower() != b"bearer":
        return 401
    return 200 if hmac.compare_digest(credentials.strip(), token.encode()) else 401


async def _answer(
    send: Send, status: int, body: bytes, content_type: str, extra: list[tuple[bytes, bytes]]
) -> None:
    headers = [
        (b"content-type", content_type.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Operations:
    """The ASGI layer in front of the site: answers the three paths, passes everything else on, and
    sees the server's lifespan (the drain is installed at start-up and begins at shutdown)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope.get("path") in PATHS:
            await self.serve(scope, send)
            return
        if kind == "lifespan":
            await self.app(scope, self._watch_lifespan(receive), send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _watch_lifespan(receive: Receive) -> Receive:
        async def watched() -> Message:
            message = await receive()
            if message["type"] == "lifespan.startup":
                loop = asyncio.get_running_loop()
                draining.install(float(settings.AMIGOS_DRAIN_SECONDS), loop)
                loop_watch.start(loop, float(settings.AMIGOS_LOOP_STALL_SECONDS))
            elif message["type"] == "lifespan.shutdown":
                draining.begin()
                loop_watch.stop(asyncio.get_running_loop())
            return message

        return watched

    async def serve(self, scope: Scope, send: Send) -> None:
        path = scope["path"]
        text = "text/plain; charset=utf-8"
        if scope.get("method") not in ("GET", "HEAD"):
            await _answer(send, 405, b"method not allowed\n", text, [(b"allow", b"GET, HEAD")])
            return
        if path == "/healthz":
            await _answer(send, 200, b"ok\n", text, [])
            return
        hub = get_hub()
        if path == "/readyz":
            ready, checks = await readiness(hub)
            body = json.dumps({"ready": ready, **checks}).encode() + b"\n"
            await _answer(send, 200 if ready else 503, body, "application/json", [])
            return
        allowed = metrics_allowed(list(scope.get("headers") or []))
        if allowed == 403:
            await _answer(send, 403, b"metrics are off: set AMIGOS_METRICS_TOKEN\n", text, [])
            return
        if allowed == 401:
            await _answer(
                send, 401, b"a bearer token is required\n", text, [(b"www-authenticate", b"Bearer")]
            )
            return
        await refresh(hub)
        await _answer(send, 200, generate_latest(REGISTRY), CONTENT_TYPE_LATEST, [])
