"""JSON text on the hot paths, with orjson, and the standard library where orjson says no.

Why: encoding each group of stored writes as JSON texts (`tables.store`) took a fifteenth of a busy
server's interpreter time with `json.dumps`; orjson, written in Rust, does the same in a fraction
of it. The text is compact and UTF-8 (as `json.dumps(..., ensure_ascii=False, separators=(",",
":"))` writes it). Whatever orjson refuses (text with a lone surrogate, an integer beyond 64 bits)
goes to `json.dumps`, which writes it as it always did.

A `datetime` is written as its `isoformat()` text (orjson writes it so in C; the standard library's
path is given the same): the store's groups carry several moments each, and formatting them in
Python before encoding was a tenth of building a group. Offsets are whole minutes (UTC, as the
site keeps every moment); orjson would drop the seconds of an offset that had any.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import orjson

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as JSON text.

    orjson is asked first without `OPT_NON_STR_KEYS`, which makes it check every key of every
    dict and took it almost twice as long (a live table's payloads and stored groups have text
    keys only); a dict with another key (a seat's number, say) is refused, and encoded again with
    the option, which writes such a key as its text, as the standard library does."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return orjson.dumps(value, option=_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), default=_moment)


def _moment(value: object) -> str:
    """What the standard library's path writes for a value it has no JSON for: a moment's text."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")
