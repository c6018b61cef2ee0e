"""The bus across processes: Redis pub/sub.

Each process holds ONE subscriber connection (a PubSub reading every topic this process listens to)
and a small pool for publishing. The pool is a *blocking* pool of a chosen size: redis-py's default
asyncio pool raises "Too many connections" the moment it runs dry, which under a burst of chat or
moves would drop messages; the blocking pool makes publishers wait (up to `wait_seconds`) instead.

Redis restarts: the publisher's connections retry on a fresh connection; the subscriber reconnects
and subscribes again by itself. Pub/sub keeps nothing while a process is disconnected, so what was
published in that gap is lost to it. The bus therefore notes every new connection of its subscriber
(redis-py's connect callback, which runs for a reconnection inside redis-py's own retries too, where
no error ever reaches the reader) and, at the first reply read on it, tells its reconnection
listeners (`Bus.when_reconnected`): that reply comes after the SUBSCRIBE that redis-py sends on
connecting, so every topic is heard again by then, and the hub has its sockets catch up on the gap.
The hub also retries its own failed publishes.

This process's own subscribers get a message at once, before Redis (`Bus.deliver_here`); what it
sends carries this process's tag (`@<tag>:` before the text), and the reader drops what comes back
with it, so nothing is delivered twice (text without a tag, written by hand, is read as it is).
Everything the process publishes goes out through one sender, as a pipeline of whatever waits
(`_send`): one write and one read for many publications, which Redis runs in the order they were
made.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from amigos.web.realtime import wire
from amigos.web.realtime.bus import Bus

log = logging.getLogger("amigos.realtime.redis")

# The topic every process subscribes to at start, so the reader always has a live connection.
_CONTROL_TOPIC = "_control"
# Attempts on a fresh connection after a connection error, before a publish fails.
RECONNECT_TRIES = 3
# A sending process's tag, before the hub's text (which is a JSON object, never begins with "@").
_TAG_MARK = "@"
_TAG_END = ":"


class RedisBus(Bus):
    def __init__(
        self, url: str, *, namespace: str = "amigos", max_connections: int = 32, wait_seconds: float = 5.0
    ) -> None:
        super().__init__()
        if max_connections < 2:
            raise ValueError("the Redis bus needs at least 2 connections: one subscriber, one publisher")
        self.namespace = namespace
        # A pooled connection that outlived a Redis restart fails on its next command: retry such
        # errors on a fresh connection (a few times, backing off) instead of failing the publish.
        self._pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=wait_seconds,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), RECONNECT_TRIES),
            retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError],
            socket_connect_timeout=2.0,
        )
        self._redis = aioredis.Redis(connection_pool=self._pool)
        self._pubsub: Any = self._redis.pubsub()
        self._reader: asyncio.Task[None] | None = None
        # Channels whose SUBSCRIBE the server has not confirmed yet, with who waits for it.
        self._unconfirmed: dict[str, asyncio.Event] = {}
        self._started = asyncio.Lock()
        # The subscriber connected again after a loss; its first reply will say it listens again.
        self._reconnecting = False
        # What this process's messages begin with on Redis (its own come back to it: dropped).
        self._tag = f"{_TAG_MARK}{secrets.token_hex(6)}{_TAG_END}"
        # Publications waiting for the sender, each with its waiter (`_send`).
        self._queued: list[tuple[list[tuple[str, str]], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    def _channel(self, topic: str) -> str:
        return f"{self.namespace}:{topic}"

    @staticmethod
    def _name(channel: bytes | str) -> str:
        return channel.decode() if isinstance(channel, bytes) else channel

    def _topic(self, channel: bytes | str) -> str:
        return self._name(channel)[len(self.namespace) + 1 :]

    async def start(self) -> None:
        """Connect the subscriber and start reading (done lazily by the first subscription too)."""
        async with self._started:
            if self._reader is None:
                await self._pubsub.subscribe(self._channel(_CONTROL_TOPIC))
                self._watch_connection()
                self._reader = asyncio.get_running_loop().create_task(self._read(), name="amigos-redis-bus")

    def _watch_connection(self) -> None:
        """Have the subscriber's connection call `_connected` each time it connects again (once per
        connection: redis-py keeps a callback once however often it is registered)."""
        connection = self._pubsub.connection
        if connection is not None:
            connection.register_connect_callback(self._connected)

    def _connected(self, connection: Any) -> None:
        """redis-py's connect callback, run after it re-sent the SUBSCRIBE of every channel; the
        callbacks are registered after the first connection, so this is always a reconnection."""
        self._reconnecting = True

    async def ping(self) -> bool:
        return bool(await self._redis.ping())

    async def send_elsewhere(self, topic: str, text: str) -> None:
        await self._send([(self._channel(topic), self._tag + text)])

    async def send_messages_elsewhere(self, messages: list[tuple[str, str, str]]) -> None:
        tag = self._tag
        await self._send(
            [
                (self._channel(topic), tag + wire.encode(kind, payload_json))
                for topic, kind, payload_json in messages
            ]
        )

    async def _send(self, publications: list[tuple[str, str]]) -> None:
        """PUBLISH each (channel, text), in order, and return once Redis has run them all; raises
        what the transport raised.

        Why not a round trip each: every publication of this process waits in one queue, and one
        sender (`_send_queued`) takes everything queued so far as one pipeline, one write and one
        read of the answers, while the next publications queue up behind it. A live table's play
        makes three to seven publications (the forwarded command, its answer, the audiences); at
        a thousand tables the plays of many tables share a pipeline. One sender keeps the order
        of everything this process sends, across pipelines too."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._queued.append((publications, done))
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send_queued(), name="amigos-redis-sender")
        await done

    async def _send_queued(self) -> None:
        """Send what `_send` queued, a pipeline at a time, until nothing waits; each waiter learns
        its pipeline's fate (its error, which the hub then retries in the background)."""
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for publications, _ in batch:
                        for channel, text in publications:
                            pipe.publish(channel, text)
                    await pipe.execute()
            except asyncio.CancelledError:
                for _, done in batch:
                    done.cancel()
                raise
            except Exception as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    def _received(self, topic: str, text: str) -> None:
        """A message read from Redis: dropped when this process sent it (its subscribers had it at
        once), else handed to them without the sender's tag."""
        if text.startswith(_TAG_MARK):
            if text.startswith(self._tag):
                return
            end = text.find(_TAG_END)
            if end > 0:
                text = text[end + 1 :]
        self._dispatch(topic, text)

    async def _listen(self, topic: str) -> None:
        """Subscribe and wait for the server's confirmation: once `subscribe` returns, every message
        published anywhere reaches this process (a lobby socket misses nothing sent after it joined)."""
        await self.start()
        channel = self._channel(topic)
        confirmed = self._unconfirmed.setdefault(channel, asyncio.Event())
        await self._pubsub.subscribe(channel)
        try:
            await asyncio.wait_for(confirmed.wait(), timeout=5.0)
        except TimeoutError:
            log.warning("Redis did not confirm the subscription to %s in time", channel)
        finally:
            self._unconfirmed.pop(channel, None)

    async def _unlisten(self, topic: str) -> None:
        """Stop receiving a topic; never raises. Right after a Redis restart the subscriber's
        connection is being re-established by the reader, and redis-py then fails an UNSUBSCRIBE
        sent beside it ("readuntil() called while another coroutine is already waiting"): that
        failed a socket's close and a server's stop (seen in CI). The channel may then stay
        subscribed after the reconnection; its messages find no handler and are dropped
        (`Bus._dispatch`), and the next subscriber of the topic needs it anyway."""
        if self._reader is None:
            return
        try:
            await self._pubsub.unsubscribe(self._channel(topic))
        except Exception:
            log.warning("could not unsubscribe from %s; its messages will be dropped", topic, exc_info=True)

    async def _read(self) -> None:
        delay = 0.1
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
                delay = 0.1
            except asyncio.CancelledError:
                raise
            except Exception:
                # redis-py reconnects and re-subscribes on the next read; back off meanwhile. Any
                # error (a lost connection, or redis-py's own confusion while reconnecting) must
                # not end the reader: this process would never hear the bus again.
                log.warning("Redis bus connection lost; retrying in %.1f s", delay, exc_info=True)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                self._watch_connection()
                continue
            if message is None:
                continue
            if self._reconnecting:
                # The first reply on a new connection: Redis has run the SUBSCRIBE sent on
                # connecting (it answers in order), so every topic is heard again from here on.
                self._reconnecting = False
                log.warning("Redis bus listening again; the hub catches its sockets up")
                self._reconnected()
            if message.get("type") == "subscribe":
                waiting = self._unconfirmed.get(self._name(message["channel"]))
                if waiting is not None:
                    waiting.set()
                continue
            if message.get("type") != "message":
                continue
            data = message["data"]
            text = data.decode() if isinstance(data, bytes) else data
            self._received(self._topic(message["channel"]), text)

    async def close(self) -> None:
        await super().close()
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
            self._sender = None
        for _, done in self._queued:
            done.cancel()
        self._queued = []
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()
        with contextlib.suppress(Exception):
            await self._pool.aclose()
