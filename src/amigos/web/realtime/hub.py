"""The process's hub: which local sockets listen to which topic, bridged to the bus.

The bus carries a message between processes; the hub hands it to this process's sockets directly
(no channel-layer groups: measured to cost many times more per message). Message types starting with
an underscore are internal signals between processes and are never forwarded to browsers.

When the bus listens again after losing its connection (a Redis restart), whatever was published
meanwhile never reached this process, and a client would only notice the gap at the next message of
its topic, which may never come (a player's turn clock). So the hub then tells each of its sockets
once (`resync`: the client asks again for what it follows, a table with `since`) and runs the
features' own catch-up (`on_resync`: the lobby re-reads its lists once per process, not per socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections import Counter, defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from django.conf import settings

from amigos.web.realtime import envelope, muting, wire
from amigos.web.realtime.bus import Bus, InMemoryBus, Subscription


class Receiver(Protocol):
    """A local socket: `push` queues an envelope for it and must not block. A receiver that also has
    `push_json(kind, payload_json)` gets broadcasts as JSON text encoded once for all sockets."""

    def push(self, kind: str, payload: dict[str, Any]) -> None: ...


Observer = Callable[[str, dict[str, Any]], None]
#: A feature's catch-up after the bus lost messages (`Hub.on_resync`).
ResyncHook = Callable[[], Awaitable[None]]

#: What every local socket is sent after the bus lost messages: "ask again for what you follow".
RESYNC = "resync"

log = logging.getLogger("amigos.realtime.hub")
# Publications kept for a retry while the bus is down; older ones are dropped beyond this.
PENDING_LIMIT = 10_000


def make_bus() -> Bus:
    """Redis when AMIGOS_REDIS_URL is configured (several processes), otherwise in memory."""
    if settings.REDIS_URL:
        from amigos.web.realtime.redis_bus import RedisBus

        return RedisBus(
            settings.REDIS_URL,
            namespace=settings.AMIGOS_BUS_NAMESPACE,
            max_connections=settings.REDIS_MAX_CONNECTIONS,
        )
    return InMemoryBus()


class Hub:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._local: dict[str, set[Receiver]] = defaultdict(set)
        self._subscriptions: dict[str, Subscription] = {}
        self._observers: dict[str, list[Observer]] = defaultdict(list)
        # One lock per topic whose subscription is being made or undone, with how many hold or
        # wait for it (`_topic_lock`): gone once nobody does.
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self.features: dict[str, Any] = {}
        self._sockets_by_user: Counter[int] = Counter()
        self._pending: deque[tuple[str, str]] = deque()
        self._retrying: asyncio.Task[None] | None = None
        self.mutes = muting.MuteBook()
        self._resync_hooks: dict[str, ResyncHook] = {}
        self._resyncing: asyncio.Task[None] | None = None
        self._resync_again = False
        bus.when_reconnected(self._bus_reconnected)

    # --- the sockets of each player in this process (the per-player limit) -------------------------

    def sockets_of(self, user_id: int) -> int:
        return self._sockets_by_user[user_id]

    def socket_opened(self, user_id: int) -> None:
        self._sockets_by_user[user_id] += 1

    def socket_closed(self, user_id: int) -> None:
        self._sockets_by_user[user_id] -= 1
        if self._sockets_by_user[user_id] <= 0:
            del self._sockets_by_user[user_id]

    def open_sockets(self) -> int:
        """Signed-in sockets of this process (the operator's metrics)."""
        return sum(self._sockets_by_user.values())

    def has_local(self, topic: str) -> bool:
        return bool(self._local.get(topic))

    def local(self, topic: str) -> set[Receiver]:
        return set(self._local.get(topic, ()))

    @contextlib.asynccontextmanager
    async def _topic_lock(self, topic: str) -> AsyncIterator[None]:
        """Subscribing to a topic and undoing it, one at a time per topic, not per hub.

        Why not one lock for the hub: a subscription on Redis waits for the server's confirmation
        (`RedisBus._listen`), a round trip and a turn of the bus's reader, and with one lock every
        socket's join and leave on the process queued behind every other topic's subscription.
        Across hosts each forwarded join subscribes to new topics (its seat's, its chat's) and a
        thousand tables' sockets joining at once waited for each other's round trips one by one:
        joins took seconds each and were answered `busy`. Topics are independent of each other
        (the bus subscribes each on its own), so only the same topic's subscribe and unsubscribe
        need an order."""
        held = self._locks.get(topic)
        if held is None:
            held = self._locks[topic] = (asyncio.Lock(), [0])
        lock, users = held
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0] and self._locks.get(topic) is held:
                del self._locks[topic]

    async def _ensure_subscribed(self, topic: str) -> None:
        # A topic in `_subscriptions` is subscribed and confirmed (it is put there only then, and
        # taken out before it is undone): nothing to wait for.
        if topic in self._subscriptions:
            return
        async with self._topic_lock(topic):
            if topic not in self._subscriptions:
                self._subscriptions[topic] = await self.bus.subscribe(
                    topic, self._on_message, decoded=self._received
                )

    async def join(self, topic: str, receiver: Receiver) -> None:
        self._local[topic].add(receiver)
        await self._ensure_subscribed(topic)

    def _unwanted(self, topic: str) -> bool:
        return not self._local.get(topic) and not self._observers.get(topic) and topic in self._subscriptions

    async def leave(self, topic: str, receiver: Receiver) -> None:
        members = self._local.get(topic)
        if members is not None:
            members.discard(receiver)
        await self._unsubscribe_if_unwanted(topic)

    async def _unsubscribe_if_unwanted(self, topic: str) -> None:
        """Undo the topic's subscription when no socket and no observer here listens to it."""
        if topic not in self._locks and not self._unwanted(topic):
            # Others still listen here, or it was never subscribed; and no subscription of it is
            # under way (it would be unwanted once made): nothing to undo.
            return
        async with self._topic_lock(topic):
            if self._unwanted(topic):
                self._local.pop(topic, None)
                await self._subscriptions.pop(topic).cancel()

    async def observe(self, topic: str, observer: Observer) -> None:
        """Call `observer(kind, payload)` for every message of the topic, internal ones included."""
        self._observers[topic].append(observer)
        await self._ensure_subscribed(topic)

    async def unobserve(self, topic: str, observer: Observer) -> None:
        """Stop calling ``observer`` for the topic (`observe`); the topic's subscription is undone
        once nothing in this process listens to it any more, as `leave` does for a socket."""
        observers = self._observers.get(topic)
        if observers is not None and observer in observers:
            observers.remove(observer)
            if not observers:
                del self._observers[topic]
        await self._unsubscribe_if_unwanted(topic)

    async def publish(self, topic: str, kind: str, payload: dict[str, Any]) -> None:
        """Send to every process, this one's sockets at once; never raises. When the bus fails
        (Redis restarting) the message waits in a bounded queue, in order, and is retried in the
        background for the other processes: the caller's work (a stored chat line, a move) is done
        and must be answered, not lost to a transport error."""
        await self.publish_encoded(topic, kind, envelope.encode_payload(payload))

    async def publish_encoded(self, topic: str, kind: str, payload_json: str) -> None:
        """`publish` for a payload already encoded by `envelope.encode_payload` (a publisher that
        sends the same payload on several topics encodes it once)."""
        if not self._pending:
            try:
                await self.bus.publish_message(topic, kind, payload_json)
                return
            except Exception:
                # This process's subscribers have it (`Bus.publish_message`): the others wait.
                log.warning("publishing on %s failed; retrying in the background", topic, exc_info=True)
        else:
            self.bus.deliver_here(topic, kind, payload_json)
        self._queue_failed(topic, wire.encode(kind, payload_json))

    async def publish_encoded_many(self, messages: list[tuple[str, str, str]]) -> None:
        """`publish_encoded` for several messages (topic, type, payload JSON) at once, in order:
        the bus may send them together (`Bus.publish_messages`). Never raises; on a failure they
        all wait for the background retry, as one publication does (a message that did reach the
        bus before the failure may then arrive twice: events carry their version, and whoever
        reads them skips what it has)."""
        if not self._pending:
            try:
                await self.bus.publish_messages(messages)
                return
            except Exception:
                log.warning(
                    "publishing %s messages failed; retrying in the background", len(messages), exc_info=True
                )
        else:
            for topic, kind, payload_json in messages:
                self.bus.deliver_here(topic, kind, payload_json)
        for topic, kind, payload_json in messages:
            self._queue_failed(topic, wire.encode(kind, payload_json))

    def _queue_failed(self, topic: str, message: str) -> None:
        if len(self._pending) >= PENDING_LIMIT:
            dropped_topic, _ = self._pending.popleft()
            log.error("dropped a publication on %s: the bus has been down too long", dropped_topic)
        self._pending.append((topic, message))
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.get_running_loop().create_task(self._retry(), name="amigos-hub-retry")

    def pending_publications(self) -> int:
        return len(self._pending)

    async def _retry(self) -> None:
        delay = 0.05
        while self._pending:
            topic, message = self._pending[0]
            try:
                await self.bus.send_elsewhere(topic, message)
            except Exception:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self._pending.popleft()
            delay = 0.05

    # --- catching up after the bus lost messages ------------------------------------------------

    def on_resync(self, name: str, hook: ResyncHook) -> None:
        """Run ``hook`` each time the bus listens again after a loss (one hook per ``name``: a
        feature registering twice keeps one). A hook catches this process's sockets up on its
        feature at the cost of one computation per process, such as a fresh list read once."""
        self._resync_hooks[name] = hook

    def _bus_reconnected(self) -> None:
        if self._resyncing is not None and not self._resyncing.done():
            self._resync_again = True  # another loss while catching up: catch up once more after
            return
        self._resyncing = asyncio.get_running_loop().create_task(self._resync_all(), name="amigos-hub-resync")

    async def _resync_all(self) -> None:
        self._resync_again = True
        while self._resync_again:
            self._resync_again = False
            await self.resync()

    async def resync(self) -> None:
        """Catch this process's sockets up after the bus lost messages: one `resync` to each local
        receiver (whatever topics it is in), then every feature's hook. Never raises."""
        told: set[int] = set()
        for receivers in list(self._local.values()):
            for receiver in list(receivers):
                if id(receiver) not in told:
                    told.add(id(receiver))
                    try:
                        receiver.push(RESYNC, {})
                    except Exception:
                        log.exception("could not tell a receiver to catch up")
        for name, hook in list(self._resync_hooks.items()):
            try:
                await hook()
            except Exception:
                log.exception("the catch-up of %s failed after the bus reconnected", name)

    def deliver_local(self, topic: str, kind: str, payload: dict[str, Any]) -> None:
        """Hand a message to this process's sockets of `topic` only (no other process hears it)."""
        if self._local.get(topic):
            self._deliver(topic, kind, envelope.encode_payload(payload), payload)

    def _deliver(self, topic: str, kind: str, encoded: str, payload: dict[str, Any] | None) -> None:
        """`encoded` is the payload's JSON text; `payload` the same decoded, when the caller has it
        (it is decoded here only if a receiver needs it: a muting check or a plain `push`)."""
        receivers = list(self._local.get(topic, ()))
        if not receivers:
            return
        if payload is None and muting.may_have_author(kind):
            payload = json.loads(encoded)
        author = muting.author_of(kind, payload) if payload is not None else None
        for receiver in receivers:
            # A socket's `muted` (ids its player muted); other receivers (buffers) mute nobody.
            if author is not None and author in getattr(receiver, "muted", muting.NOBODY):
                continue
            push_json = getattr(receiver, "push_json", None)
            if push_json is not None:
                push_json(kind, encoded)
            else:
                if payload is None:
                    payload = json.loads(encoded)
                receiver.push(kind, payload)

    def _on_message(self, topic: str, text: str) -> None:
        try:
            kind, encoded = wire.decode(text)
        except wire.BadMessage as error:
            log.error("dropped a message on %s that is not the hub's: %s", topic, error)
            return
        self._received(topic, kind, encoded)

    def _received(self, topic: str, kind: str, encoded: str) -> None:
        """A message of a topic this hub listens to: its observers see it, internal ones included;
        this process's sockets get it unless it is internal."""
        observers = self._observers.get(topic)
        payload: dict[str, Any] | None = None
        if observers:
            payload = json.loads(encoded)
            for observer in list(observers):
                observer(kind, payload)
        if not kind.startswith("_"):
            self._deliver(topic, kind, encoded, payload)

    async def close(self) -> None:
        if self._retrying is not None:
            self._retrying.cancel()
        if self._resyncing is not None:
            self._resyncing.cancel()
        for subscription in list(self._subscriptions.values()):
            await subscription.cancel()
        self._subscriptions.clear()
        await self.bus.close()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def get_hub(loop: asyncio.AbstractEventLoop | None = None) -> Hub:
    """The hub of ``loop``, by default the running event loop (one per process under uvicorn; one
    per loop in tests). A caller that already holds the running loop passes it: Python 3.11's
    `asyncio.get_running_loop()` makes a system call (getpid) on every call."""
    loop = loop or asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = Hub(make_bus())
        _hubs[loop] = hub
    return hub
