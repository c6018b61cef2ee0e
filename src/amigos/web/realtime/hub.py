"""The process's hub: which local sockets listen to which topic, bridged to the bus.

The bus carries a message between processes; the hub hands it to this process's sockets directly
(no channel-layer groups: measured to cost many times more per message). Message types starting with
an underscore are internal signals between processes and are never forwarded to browsers.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from django.conf import settings

from amigos.web.realtime.bus import Bus, InMemoryBus, Message, Subscription


class Receiver(Protocol):
    """A local socket: `push` queues an envelope for it and must not block."""

    def push(self, kind: str, payload: dict[str, Any]) -> None: ...


Observer = Callable[[str, dict[str, Any]], None]


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
        self._lock = asyncio.Lock()
        self.features: dict[str, Any] = {}

    def local(self, topic: str) -> set[Receiver]:
        return set(self._local.get(topic, ()))

    async def _ensure_subscribed(self, topic: str) -> None:
        async with self._lock:
            if topic not in self._subscriptions:
                self._subscriptions[topic] = await self.bus.subscribe(topic, self._on_message)

    async def join(self, topic: str, receiver: Receiver) -> None:
        self._local[topic].add(receiver)
        await self._ensure_subscribed(topic)

    async def leave(self, topic: str, receiver: Receiver) -> None:
        members = self._local.get(topic)
        if members is not None:
            members.discard(receiver)
        async with self._lock:
            if not self._local.get(topic) and not self._observers.get(topic) and topic in self._subscriptions:
                self._local.pop(topic, None)
                await self._subscriptions.pop(topic).cancel()

    async def observe(self, topic: str, observer: Observer) -> None:
        """Call `observer(kind, payload)` for every message of the topic, internal ones included."""
        self._observers[topic].append(observer)
        await self._ensure_subscribed(topic)

    async def publish(self, topic: str, kind: str, payload: dict[str, Any]) -> None:
        await self.bus.publish(topic, {"type": kind, "payload": payload})

    def deliver_local(self, topic: str, kind: str, payload: dict[str, Any]) -> None:
        for receiver in list(self._local.get(topic, ())):
            receiver.push(kind, payload)

    def _on_message(self, topic: str, message: Message) -> None:
        kind = str(message.get("type", ""))
        payload = message.get("payload") or {}
        for observer in list(self._observers.get(topic, ())):
            observer(kind, payload)
        if not kind.startswith("_"):
            self.deliver_local(topic, kind, payload)

    async def close(self) -> None:
        for subscription in list(self._subscriptions.values()):
            await subscription.cancel()
        self._subscriptions.clear()
        await self.bus.close()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    """The hub of the running event loop (one per process under uvicorn; one per loop in tests)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = Hub(make_bus())
        _hubs[loop] = hub
    return hub
