"""`amigos.web.jsontext`: the same JSON as the standard library's, faster where it matters."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.web import jsontext
from amigos.web.realtime import envelope

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.integers(-3, 3), children, max_size=4)
    ),
    max_leaves=20,
)


@given(_json_values)
def test_reads_back_as_the_standard_library_reads_its_own(value: Any) -> None:
    text = jsontext.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))


@given(_json_values)
def test_a_payload_is_always_sendable_text(value: Any) -> None:
    text = envelope.encode_payload({"value": value})
    text.encode("utf-8")  # no lone surrogate reaches a socket
    assert json.loads(text) == json.loads(json.dumps({"value": value}))


def test_compact_utf8_and_the_escapes_it_falls_back_to() -> None:
    assert jsontext.dumps({"nombre": "Añil", "fichas": [1, 2]}) == '{"nombre":"Añil","fichas":[1,2]}'
    assert jsontext.dumps({"s": "\ud800"}) == '{"s":"\\ud800"}'  # a lone surrogate, escaped
    assert jsontext.dumps(2**70) == str(2**70)  # beyond 64 bits
    assert jsontext.dumps({3: (1, 2)}) == '{"3":[1,2]}'  # keys become text, tuples lists
    assert jsontext.dumps({"a": {1: "b", "c": [{2: None}]}}) == '{"a":{"1":"b","c":[{"2":null}]}}'
    assert jsontext.dumps({1: "\ud800"}) == '{"1":"\\ud800"}'  # a number key and the escape both


_ZONES = st.sampled_from([UTC, timezone(timedelta(hours=-4)), timezone(timedelta(hours=5, minutes=30))])


@given(moment=st.datetimes(timezones=st.none() | _ZONES), lone_surrogate=st.booleans())
def test_a_moment_is_written_as_its_isoformat(moment: datetime, lone_surrogate: bool) -> None:
    """Moments go into the store's groups as they are; both paths (orjson's, and the standard
    library's for what orjson refuses) write each as its `isoformat()`, whole microseconds and
    offset included, which is what PostgreSQL reads back as the same moment."""
    text = "\ud800" if lone_surrogate else "a"
    written = jsontext.dumps({"at": moment, "text": text, "none": None})
    assert json.loads(written) == {"at": moment.isoformat(), "text": text, "none": None}
    with pytest.raises(TypeError):
        jsontext.dumps({"not json": object(), "text": "\ud800"})
