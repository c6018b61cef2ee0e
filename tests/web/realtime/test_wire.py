"""The hub's messages on the bus: the payload's JSON text comes back out exactly as it went in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime import envelope, wire
from amigos.web.realtime.bus import InMemoryBus
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
