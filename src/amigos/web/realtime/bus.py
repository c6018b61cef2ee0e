"""The message bus: one interface, two implementations.

Fan-out of lobby and table events goes through here and from here straight to sockets. The
in-memory bus serves one process; `amigos.web.realtime.redis_bus.RedisBus` carries the same
messages across processes with Redis pub/sub. A message is text (the hub's JSON, see
`amigos.web.realtime.wire`) in both implementations, so code tested on one behaves the same on the
other, and the bus never decodes or re-encodes it: a move's envelope is encoded once, by the hub,
however many sockets receive it.

Handlers are plain callables invoked in the event loop's thread; they must not block (the hub only
queues the message for each socket). A subscriber may also give a handler of the message as the
hub holds it (its type and its payload's JSON text): the in-memory bus then hands it over as it
is, without writing the wire's text and reading it back (`publish_message`).

Every bus hands a message to this process's own subscribers at once, before it sends it to the
others (`deliver_here`): a player whose socket is on the table's own process gets the play's events
before its acknowledgement with certainty, not because Redis answered quickly, and a process does
not read its own messages back. When sending to the others fails, the local subscribers already
have the message, and only the others are sent it again (`send_elsewhere`).

A bus that can lose its connection (Redis) tells whoever asked (`when_reconnected`) each time it
listens again after a loss: what was published meanwhile never reached this process, and the hub
then has its sockets catch up (`amigos.web.realtime.hub.Hub.resync`).
"""

from __future__ import annotations

import abc
import logging
from collections import defaultdict
from collections.abc import Callable

from amigos.web.realtime import wire

Handler = Callable[[str, str], None]
#: A handler of a message as the hub holds it: its topic, its type and its payload's JSON text.
DecodedHandler = Callable[[str, str, str], None]

log = logging.getLogger("amigos.realtime.bus")


class Subscription:
    """A handle to stop receiving a topic."""

    def __init__(self, bus: Bus, topic: str, handler: Handler, decoded: DecodedHandler | None = None) -> None:
        self.bus = bus
        self.topic = topic
        self.handler = handler
        self.decoded = decoded
        self.active = True

    async def cancel(self) -> None:
        if self.active:
            self.active = False
            await self.bus._unsubscribe(self)


class Bus(abc.ABC):
    """Publish text messages on named topics; every subscriber of the topic, in any process, gets them."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Subscription]] = defaultdict(list)
        self._reconnection_listeners: list[Callable[[], None]] = []

    def when_reconnected(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (in the event loop, without waiting for it) each time the bus listens
        again after losing its connection, once every topic is subscribed again: from then on
        nothing more is lost, but what was published in the gap is gone for this process."""
        self._reconnection_listeners.append(listener)

    def _reconnected(self) -> None:
        """The transport listens again after a loss: tell the listeners."""
        for listener in list(self._reconnection_listeners):
            try:
                listener()
            except Exception:  # one faulty listener must not keep the others uninformed
                log.exception("a bus reconnection listener failed")

    async def publish(self, topic: str, text: str) -> None:
        """Send ``text`` to every subscriber of ``topic``: this process's at once, then the others'
        (`send_elsewhere`, which may raise; the local ones have it by then)."""
        self._dispatch(topic, text)
        await self.send_elsewhere(topic, text)

    @abc.abstractmethod
    async def send_elsewhere(self, topic: str, text: str) -> None:
        """Send ``text`` to the subscribers of ``topic`` in the other processes only (this process's
        have it: `publish` gave it to them, or `deliver_here`). Raises when the transport fails."""

    def deliver_here(self, topic: str, kind: str, payload_json: str) -> None:
        """Hand a hub message to this process's subscribers of ``topic``, as it is to those that
        take it so (``decoded``); the wire's text is written only for one that reads text. Writing
        it and reading it back for each of a play's five audiences (each seat, the spectators) was
        a twentieth of a live table's play."""
        text: str | None = None
        for subscription in list(self._handlers.get(topic, ())):
            try:
                if subscription.decoded is not None:
                    subscription.decoded(topic, kind, payload_json)
                else:
                    if text is None:
                        text = wire.encode(kind, payload_json)
                    subscription.handler(topic, text)
            except Exception:  # one faulty handler must not starve the others
                log.exception("bus handler failed on topic %s", topic)

    async def publish_message(self, topic: str, kind: str, payload_json: str) -> None:
        """Publish a hub message (its type and its payload's JSON text): here at once
        (`deliver_here`), then as the wire's text to the other processes."""
        self.deliver_here(topic, kind, payload_json)
        await self.send_elsewhere(topic, wire.encode(kind, payload_json))

    async def publish_messages(self, messages: list[tuple[str, str, str]]) -> None:
        """Publish several hub messages (topic, type, payload JSON), in order: all of them here at
        once, then to the other processes (one after another here; a bus may send them together,
        `RedisBus` in one pipeline).

        A player's own socket must get its play's events before the play's acknowledgement
        (docs/protocol.md). On the table's own process the events reach the socket here, before
        the acknowledgement is written; on another process the acknowledgement comes back through
        the bus too, sent by the owner after these are sent, and one process reads the bus in
        order. (When the events came back to their own process through Redis, a pipeline's quick
        answer let the acknowledgement overtake them on a loaded machine.)"""
        for topic, kind, payload_json in messages:
            self.deliver_here(topic, kind, payload_json)
        await self.send_messages_elsewhere(messages)

    async def send_messages_elsewhere(self, messages: list[tuple[str, str, str]]) -> None:
        """`send_elsewhere` for several hub messages, in order."""
        for topic, kind, payload_json in messages:
            await self.send_elsewhere(topic, wire.encode(kind, payload_json))

    async def subscribe(
        self, topic: str, handler: Handler, decoded: DecodedHandler | None = None
    ) -> Subscription:
        """``handler`` gets each message's text; ``decoded``, if given, gets instead the messages
        this bus never had to write as text (`InMemoryBus.publish_message`)."""
        subscription = Subscription(self, topic, handler, decoded)
        first = not self._handlers[topic]
        self._handlers[topic].append(subscription)
        if first:
            await self._listen(topic)
        return subscription

    async def _unsubscribe(self, subscription: Subscription) -> None:
        handlers = self._handlers.get(subscription.topic, [])
        if subscription in handlers:
            handlers.remove(subscription)
        if not handlers:
            self._handlers.pop(subscription.topic, None)
            await self._unlisten(subscription.topic)

    async def _listen(self, topic: str) -> None:  # noqa: B027  (an optional hook)
        """Hook: start receiving a topic from the transport (nothing to do in memory)."""

    async def _unlisten(self, topic: str) -> None:  # noqa: B027  (an optional hook)
        """Hook: stop receiving a topic from the transport."""

    def _dispatch(self, topic: str, text: str) -> None:
        """Hand a message to every local handler of its topic."""
        for subscription in list(self._handlers.get(topic, [])):
            try:
                subscription.handler(topic, text)
            except Exception:  # one faulty handler must not starve the others
                log.exception("bus handler failed on topic %s", topic)

    async def close(self) -> None:
        self._handlers.clear()
        self._reconnection_listeners.clear()


class InMemoryBus(Bus):
    """The bus of a single process: publishing delivers at once to the local subscribers, and there
    is nobody elsewhere (it never loses a connection, so it never calls its reconnection
    listeners)."""

    async def send_elsewhere(self, topic: str, text: str) -> None:
        return None

    async def publish_message(self, topic: str, kind: str, payload_json: str) -> None:
        self.deliver_here(topic, kind, payload_json)

    async def publish_messages(self, messages: list[tuple[str, str, str]]) -> None:
        for topic, kind, payload_json in messages:
            self.deliver_here(topic, kind, payload_json)
