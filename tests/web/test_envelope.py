"""The envelope parser: total on any input (only ProtocolError escapes), strict on shape."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.web.realtime import envelope

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(st.text(max_size=200) | json_values.map(json.dumps))
def test_parse_accepts_or_raises_protocol_error_only(text: str) -> None:
    try:
        message = envelope.parse(text)
    except envelope.ProtocolError as error:
        assert error.code in {"bad_json", "bad_envelope", "too_large", "bad_frame", "too_deep", "bad_text"}
    else:
        assert isinstance(message.type, str) and message.type
        assert isinstance(message.payload, dict)


@given(
    st.text(min_size=1, max_size=20),
    st.integers(-(2**53), 2**53) | st.text(max_size=10),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
def test_well_formed_messages_round_trip(kind: str, ident: int | str, payload: dict[str, int]) -> None:
    message = envelope.parse(json.dumps({"type": kind, "id": ident, "payload": payload}))
    assert (message.type, message.id, message.payload) == (kind, ident, payload)


def test_seq_is_accepted_as_the_command_id() -> None:
    assert envelope.parse('{"type": "heartbeat", "seq": 4}').id == 4


def test_a_missing_payload_is_empty() -> None:
    assert envelope.parse('{"type": "heartbeat"}').payload == {}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (None, "bad_frame"),
        (b"{}", "bad_frame"),
        ("{", "bad_json"),
        ("3", "bad_envelope"),
        ('{"type": ""}', "bad_envelope"),
        ('{"type": "x", "id": true}', "bad_envelope"),
        ('{"type": "x", "id": [1]}', "bad_envelope"),
        ('{"type": "x", "payload": []}', "bad_envelope"),
        ('{"type": "x", "payload": {"t": "' + "é" * 5000 + '"}}', "too_large"),
        ("[" * 3000 + "]" * 3000, "too_deep"),
        ('{"type": "x", "payload": {"a": ' + "[" * 33 + "]" * 33 + "}}", "too_deep"),
        ('{"type": "heartbeat", "id": "\\ud800"}', "bad_envelope"),
        ('{"type": "x", "id": "' + "i" * 65 + '"}', "bad_envelope"),
        ('{"type": "x", "id": 9007199254740993}', "bad_envelope"),
        ('{"type": "x", "id": 1, "payload": {"t": "\\udc00"}}', "bad_text"),
        ('{"type": "x\\ud83d", "id": 1}', "bad_text"),
    ],
)
def test_malformed_input_names_the_problem(text: str | bytes | None, code: str) -> None:
    with pytest.raises(envelope.ProtocolError) as raised:
        envelope.parse(text)
    assert raised.value.code == code


def test_the_id_travels_with_an_error_when_known() -> None:
    with pytest.raises(envelope.ProtocolError) as raised:
        envelope.parse('{"type": "x", "id": 12, "payload": 3}')
    assert raised.value.reply_to == 12


def test_encode_is_the_documented_envelope() -> None:
    assert json.loads(envelope.encode("chat.message", 3, {"text": "¡hola!"})) == {
        "type": "chat.message",
        "seq": 3,
        "payload": {"text": "¡hola!"},
    }


@given(st.data())
def test_depth_is_counted_outside_strings_only(data: st.DataObject) -> None:
    """Brackets inside string literals (escaped quotes included) never count as nesting."""
    depth = data.draw(st.integers(0, envelope.MAX_DEPTH - 2))  # the envelope adds two levels
    noise = data.draw(st.text(alphabet='[]{}"\\ab', max_size=30))
    text = "[" * depth + json.dumps(noise) + "]" * depth
    assert envelope.nesting_depth(text) == depth
    message = envelope.parse('{"type": "x", "payload": {"v": ' + text + "}}")
    assert message.payload["v"] is not None


def test_a_surrogate_in_an_outgoing_payload_is_escaped_not_fatal() -> None:
    text = envelope.encode("chat.message", 1, {"text": "a\ud800é"})
    text.encode("utf-8")  # sendable
    assert json.loads(text)["payload"]["text"] == "a\ud800é"
    assert envelope.encode_payload({"text": "é"}) == '{"text":"é"}'  # readable when possible


# Text with lone surrogates, joined pairs and the characters escapes are made of.
_tricky_text = st.text(alphabet=st.sampled_from(["a", "é", "\\", "u", "\ud800", "\udfff", "😀"]), max_size=6)
_tricky_values = st.recursive(
    st.integers() | _tricky_text,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_tricky_text, children, max_size=3),
    max_leaves=8,
)


def _holds_lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return not envelope.encodable(value)
    if isinstance(value, list):
        return any(_holds_lone_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_lone_surrogate(key) or _holds_lone_surrogate(item) for key, item in value.items())
    return False


@given(_tricky_values, st.booleans())
def test_a_lone_surrogate_is_refused_wherever_it_hides(value: object, ascii_escapes: bool) -> None:
    """Escaped (``\\ud800``) or raw, in a key or a value: refused exactly when the parsed message
    would hold a lone surrogate; the text-only shortcut never lets one through."""
    text = json.dumps({"type": "x", "payload": {"v": value}}, ensure_ascii=ascii_escapes)
    try:
        message = envelope.parse(text)
    except envelope.ProtocolError as error:
        assert error.code == "bad_text"
        assert _holds_lone_surrogate(value)
    else:
        assert not _holds_lone_surrogate(message.payload)


@given(st.integers(envelope.MAX_DEPTH + 1, 3 * envelope.MAX_DEPTH), st.sampled_from("[{"))
def test_too_deep_is_refused_however_the_brackets_are_counted(depth: int, opening: str) -> None:
    closing = "]" if opening == "[" else "}"
    inner = '{"k":' * depth + "1" + "}" * depth if opening == "{" else "[" * depth + "1" + closing * depth
    with pytest.raises(envelope.ProtocolError) as raised:
        envelope.parse('{"type": "x", "payload": {"v": ' + inner + "}}")
    assert raised.value.code == "too_deep"
