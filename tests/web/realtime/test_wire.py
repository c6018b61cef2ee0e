"""The hub's messages on the bus: the payload's JSON text comes back out exactly as it went in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime import envelope, wire
from amigos.web.realtime.bus import Bus, InMemoryBus
from amigos.web.realtime.hub import Hub

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
_payloads = st.dictionaries(st.text(), _json, max_size=6)


@given(kind=st.text(), payload=_payloads)
def test_the_payload_text_survives_the_bus_unchanged(kind: str, payload: dict[str, Any]) -> None:
    encoded = envelope.encode_payload(payload)
    text = wire.encode(kind, encoded)
    assert json.loads(text) == {"type": kind, "payload": json.loads(encoded)}
    assert wire.decode(text) == (kind, encoded)


@given(kind=st.text(), payload=_payloads)
def test_a_message_written_by_hand_is_read_the_slow_way(kind: str, payload: dict[str, Any]) -> None:
    """Keys in another order, spaces: still read, and the payload encoded as the hub would."""
    text = json.dumps({"payload": payload, "type": kind}, indent=1)
    got_kind, got_payload = wire.decode(text)
    assert got_kind == kind
    assert json.loads(got_payload) == json.loads(envelope.encode_payload(payload))


@pytest.mark.parametrize(
    "text", ["", "nonsense", "[1, 2]", '{"payload": {}}', '{"type": 3}', '{"type": "x", "payload": [1]}']
)
def test_text_that_is_not_a_hub_message_is_refused(text: str) -> None:
    with pytest.raises(wire.BadMessage):
        wire.decode(text)


class _Socket:
    """A receiver that takes encoded payloads, as the site's sockets do."""

    def __init__(self) -> None:
        self.got: list[tuple[str, str]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        raise AssertionError("a socket with push_json gets the encoded text")

    def push_json(self, kind: str, payload_json: str) -> None:
        self.got.append((kind, payload_json))


class _Plain:
    """A receiver without push_json (a buffer): it gets the payload decoded."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []

    def push(self, kind: str, payload: dict[str, Any]) -> None:
        self.got.append((kind, payload))


async def test_the_hub_hands_every_socket_the_text_it_encoded_once() -> None:
    hub = Hub(InMemoryBus())
    sockets, plain = [_Socket(), _Socket()], _Plain()
    for receiver in [*sockets, plain]:
        await hub.join("table:1:seat:0", receiver)
    seen: list[tuple[str, dict[str, Any]]] = []
    await hub.observe("table:1:seat:0", lambda kind, payload: seen.append((kind, payload)))
    payload = {"table_id": 1, "events": [{"version": 3, "kind": "played", "data": {"tile": "6-6"}}]}
    await hub.publish("table:1:seat:0", "table.events", payload)
    await hub.publish("table:1:seat:0", "_internal", {"n": 1})
    encoded = envelope.encode_payload(payload)
    assert [socket.got for socket in sockets] == [[("table.events", encoded)]] * 2
    assert plain.got == [("table.events", payload)]
    assert seen == [("table.events", payload), ("_internal", {"n": 1})]
    await hub.close()


async def test_a_foreign_message_on_the_bus_is_dropped_not_delivered() -> None:
    bus = InMemoryBus()
    hub = Hub(bus)
    socket = _Socket()
    await hub.join("lobby", socket)
    await bus.publish("lobby", "not a hub message")
    await hub.publish("lobby", "chat.message", {"text": "hola"})
    assert [kind for kind, _ in socket.got] == ["chat.message"]
    await hub.close()


class _TextBus(Bus):
    """A bus that carries text, as Redis does, and hands its subscribers every message as the wire's
    text, as a process reads another's from Redis: the hub's messages cross as text both ways."""

    def __init__(self) -> None:
        super().__init__()
        self.carried: list[str] = []

    def deliver_here(self, topic: str, kind: str, payload_json: str) -> None:
        self._dispatch(topic, wire.encode(kind, payload_json))

    async def send_elsewhere(self, topic: str, text: str) -> None:
        self.carried.append(text)


@pytest.mark.parametrize("bus_type", [InMemoryBus, _TextBus])
async def test_one_process_or_many_the_sockets_get_the_same(bus_type: type) -> None:
    """In one process the hub hands a message over itself; across processes it crosses the bus
    as text. Either way: the same text for each socket, nothing on a topic nobody listens to,
    nothing after the last socket leaves, and an observer sees internal messages too."""
    bus = bus_type()
    hub = Hub(bus)
    socket, other = _Socket(), _Socket()
    await hub.join("table:1:seat:0", socket)
    await hub.join("table:1:seat:1", other)
    seen: list[str] = []
    await hub.observe("table:1:watch", lambda kind, payload: seen.append(kind))
    await hub.publish("table:1:seat:0", "table.events", {"n": 1})
    await hub.publish("table:2:seat:0", "table.events", {"n": 2})  # nobody here listens
    await hub.publish("table:1:watch", "_internal", {"n": 3})
    await hub.leave("table:1:seat:0", socket)
    await hub.publish("table:1:seat:0", "table.events", {"n": 4})
    assert socket.got == [("table.events", '{"n":1}')]
    assert other.got == []
    assert seen == ["_internal"]
    if bus_type is _TextBus:
        assert [wire.decode(text) for text in bus.carried] == [
            ("table.events", '{"n":1}'),
            ("table.events", '{"n":2}'),
            ("_internal", '{"n":3}'),
            ("table.events", '{"n":4}'),
        ]
    await hub.close()


class _Faulty:
    def push(self, kind: str, payload: dict[str, Any]) -> None:
        raise RuntimeError("a broken receiver")

    def push_json(self, kind: str, payload_json: str) -> None:
        raise RuntimeError("a broken receiver")


async def test_a_faulty_receiver_never_fails_the_publisher() -> None:
    hub = Hub(InMemoryBus())
    await hub.join("lobby", _Faulty())
    await hub.publish("lobby", "chat.message", {"text": "hola"})  # logged, not raised
    socket = _Socket()
    await hub.join("lobby:2", socket)
    await hub.publish("lobby:2", "chat.message", {"text": "adiós"})
    assert socket.got == [("chat.message", '{"text":"adiós"}')]
    await hub.close()


@given(kind=st.text())
def test_a_quoted_type_is_its_json_string(kind: str) -> None:
    assert json.loads(envelope.quoted(kind)) == kind
    assert json.loads(envelope.frame(kind, 7, "{}")) == {"type": kind, "seq": 7, "payload": {}}


async def test_the_memory_bus_writes_the_text_only_for_a_subscriber_that_reads_text() -> None:
    bus = InMemoryBus()
    hub = Hub(bus)
    socket = _Socket()
    await hub.join("lobby", socket)
    texts: list[str] = []
    await bus.subscribe("lobby", lambda topic, text: texts.append(text))
    await hub.publish("lobby", "chat.message", {"text": "hola"})
    assert socket.got == [("chat.message", '{"text":"hola"}')]
    assert [wire.decode(text) for text in texts] == [("chat.message", '{"text":"hola"}')]
    await hub.close()
