"""A hub message as it crosses the bus: one JSON object, ``{"type": kind, "payload": {...}}``.

The hub writes the payload's JSON once (`envelope.encode_payload`) and every socket's frame embeds
that same text (`envelope.frame`), so the payload must come back out of a bus message as the text
it went in as, not decoded and encoded again: at a thousand tables that round trip was a tenth of
the event loop's time. `encode` puts the type first; `decode` reads the type and cuts the payload's
text out after it. A message of any other shape (written by hand, say, with `redis-cli`) is still
read, the slow way. Only the site's own processes write on the bus (its Redis is not public), so
the fast path trusts the text it cuts out to be the JSON object the hub encoded.
"""

from __future__ import annotations

import json
from typing import Any

from amigos.web.realtime.envelope import encode_payload, quoted

_PREFIX = '{"type":'
_PAYLOAD = ',"payload":'
_decoder = json.JSONDecoder()


class BadMessage(ValueError):
    """Text on the bus that is not a hub message (it is dropped, never delivered)."""


def encode(kind: str, payload_json: str) -> str:
    """The bus text of a message whose payload is already JSON text (a JSON object)."""
    return f"{_PREFIX}{quoted(kind)}{_PAYLOAD}{payload_json}}}"


def decode(text: str) -> tuple[str, str]:
    """The type and the payload's JSON text of a bus message; raises BadMessage."""
    if text.startswith(_PREFIX):
        try:
            kind, end = _decoder.raw_decode(text, len(_PREFIX))
        except ValueError:
            kind, end = None, 0
        if isinstance(kind, str) and text.startswith(_PAYLOAD, end) and text.endswith("}"):
            payload_json = text[end + len(_PAYLOAD) : -1]
            if payload_json.startswith("{") and payload_json.endswith("}"):
                return kind, payload_json
    return _decode_slowly(text)


def _decode_slowly(text: str) -> tuple[str, str]:
    try:
        message: Any = json.loads(text)
    except ValueError:
        raise BadMessage("not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise BadMessage('not an object with a "type"')
    payload = message.get("payload")
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise BadMessage('"payload" is not an object')
    return message["type"], encode_payload(payload)
