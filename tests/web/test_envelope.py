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


# --- every frame costs time in proportion to its length (issue 36) ------------------------------

#: The probe's frame: 33 brackets (so the nesting is counted), then an unterminated string of
#: escaped quotes. Its scan read the rest of the text again from each quote: half a second.
PROBE_FRAME = "[" * 33 + '"\\' * ((envelope.MAX_FRAME_BYTES - 33) // 2)

# Pieces that strings, escapes and brackets are made of, repeated to fill a frame.
_PIECES = ['"', "\\", "[", "]", "{", "}", "a", " ", "é", '\\"', '"\\', "\\u", ":", ",", "\ud800", "😀"]


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def hostile_frame(data: st.DataObject) -> str:
    """Up to 8 KB: a few pieces, a run of one short pattern repeated (where a scan that reads a
    part again pays for it many times), a few pieces."""
    piece = st.sampled_from(_PIECES)
    head = "".join(data.draw(st.lists(piece, max_size=40), label="head"))
    unit = "".join(data.draw(st.lists(piece, min_size=1, max_size=6), label="unit"))
    tail = "".join(data.draw(st.lists(piece, max_size=10), label="tail"))
    room = (envelope.MAX_FRAME_BYTES - _size(head) - _size(tail)) // _size(unit)
    return head + unit * data.draw(st.integers(0, max(0, room)), label="repeats") + tail


def characters_scanned(text: str) -> int:
    """The characters the nesting scan's string pattern reads, tried as `re.sub` tries it: at each
    position left to right, and after a match where the match ended. An attempt at anything but a
    quote fails at that first character; one at a quote must succeed (a failure would send the
    scan on from the next position, through text it has read, which is what made it quadratic),
    reading what it matched and the one character it stopped at."""
    read = position = 0
    while position < len(text):
        if text[position] != '"':
            read, position = read + 1, position + 1
            continue
        match = envelope._STRING.match(text, position)
        assert match is not None, f"a string begun at {position} did not match: read again from later"
        read, position = read + match.end() - position + 1, match.end()
    return read


def reference_depth(text: str) -> int:
    """JSON's lexical rule, one character at a time: the nesting of brackets outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for character in text:
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


def test_the_probes_frame_is_scanned_once_and_refused() -> None:
    assert characters_scanned(PROBE_FRAME) <= 2 * len(PROBE_FRAME)
    assert envelope.nesting_depth(PROBE_FRAME) == reference_depth(PROBE_FRAME) == 33
    with pytest.raises(envelope.ProtocolError) as raised:
        envelope.parse(PROBE_FRAME)
    assert raised.value.code == "too_deep"


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_nesting_scan_reads_each_character_once(data: st.DataObject) -> None:
    """Any frame up to 8 KB: the scan reads each character at most twice (once in a match, once
    where it stopped), and counts the nesting exactly as JSON's rule does."""
    text = hostile_frame(data)
    assert _size(text) <= envelope.MAX_FRAME_BYTES
    assert characters_scanned(text) <= 2 * len(text)
    assert envelope.nesting_depth(text) == reference_depth(text)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_hostile_frame_is_read_or_refused_with_a_code(data: st.DataObject) -> None:
    text = hostile_frame(data)
    for frame in (text, '{"type": "x", "payload": {"t": "' + text[:4000] + '"}}'):
        try:
            envelope.parse(frame)
        except envelope.ProtocolError as error:
            assert error.code in {"bad_json", "bad_envelope", "too_large", "too_deep", "bad_text"}
