"""The JSON envelope spoken over the socket (see docs/protocol.md).

Server to client: {"type": str, "seq": int, "payload": object}; `seq` counts up from 1 on each
socket, so a client can tell it missed nothing. Client to server: {"type": str, "id": int|str,
"payload": object}; the server answers every command it runs with an "ack" or an "error" naming
that id. Parsing is strict and total: anything malformed becomes a ProtocolError, never an
exception that would tear the connection down or change any state.

Two inputs need care beyond `json.loads`: deep nesting (the standard parser recurses, and a
RecursionError of a few kilobytes of brackets used to kill the socket) is refused by counting the
nesting before parsing; and a `\\ud800` escape decodes to a lone surrogate, which no UTF-8 frame can
carry back, so such text is refused at the door rather than poisoning the reply.

Every step costs time in proportion to the frame's length, whatever its text (issue 36): a socket
is charged for its frames before they are parsed (`limits.FrameBudget`), which bounds what it can
cost only if no frame of the largest size costs much more than any other. bench/frames.py measures
the worst parse of hostile and generated frames.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from array import array
from dataclasses import dataclass
from typing import Any

from amigos.web import jsontext

# The largest client frame we read; chat lines are short and nothing else is bigger. The server
# (uvicorn's ws_max_size, see `amigos serve`) refuses larger frames before buffering them.
MAX_FRAME_BYTES = 8192
# The deepest nesting of arrays and objects a client message may have (commands need 3 or 4).
MAX_DEPTH = 32
# The longest string `id` echoed back.
MAX_ID_LENGTH = 64
# Integer ids must survive a round trip through a JavaScript number.
MAX_INT_ID = 2**53

# A string literal, or the unterminated rest of one. The closing quote is optional, so the pattern
# never fails once it has matched a quote, and it never backtracks (each character decides the one
# way on: a plain character, an escape, the closing quote, or the end): the text is read once.
# Regression: with the closing quote required, an unterminated string (`"\\"\\"\\"...`) was read to
# the end from every one of its quotes, and 8 KB of it took half a second of the event loop.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# Each bracket as the step it makes to the depth, a signed byte: +1 opens, -1 (0xff) closes.
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


class ProtocolError(Exception):
    def __init__(self, code: str, detail: str, reply_to: int | str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.reply_to = reply_to


@dataclass(frozen=True)
class ClientMessage:
    type: str
    id: int | str | None
    payload: dict[str, Any]


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets outside string literals, without recursion and in time
    proportional to the text: the strings, then everything but brackets, are cut out, and the
    running depth's maximum is summed in C over the brackets as signed bytes (a loop of Python
    over 8 KB of brackets took over a millisecond)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii").translate(_STEPS)
    return max(0, max(itertools.accumulate(array("b", brackets)), default=0))


def encodable(text: str) -> bool:
    """Whether `text` can be sent as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse(text: str | bytes | None) -> ClientMessage:
    if text is None or isinstance(text, bytes):
        raise ProtocolError("bad_frame", "binary frames are not accepted; send JSON text")
    try:
        size, raw_surrogate = len(text.encode("utf-8")), False
    except UnicodeEncodeError:  # the text holds a lone surrogate itself
        size, raw_surrogate = len(text.encode("utf-8", "surrogatepass")), True
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_FRAME_BYTES} bytes")
    # A message nests no deeper than it has opening brackets (those inside strings included), and
    # every command has a handful: the exact count, a regular expression over the whole text that
    # took a third of reading a play, is left for a message that could be too deep.
    if text.count("[") + text.count("{") > MAX_DEPTH and nesting_depth(text) > MAX_DEPTH:
        raise ProtocolError("too_deep", f"a message may nest at most {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_envelope", "the message must be a JSON object")
    ident = data.get("id", data.get("seq"))
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        raise ProtocolError("bad_envelope", '"id" must be an integer or a string')
    if isinstance(ident, int) and abs(ident) > MAX_INT_ID:
        raise ProtocolError("bad_envelope", 'an integer "id" must lie within ±2^53')
    if isinstance(ident, str) and (len(ident) > MAX_ID_LENGTH or not encodable(ident)):
        raise ProtocolError("bad_envelope", f'a string "id" must be valid text of at most {MAX_ID_LENGTH}')
    # The parsed values can hold a lone surrogate only if the text holds one or writes a `\\u`
    # escape (which may name one): re-encoding every parsed message cost as much as parsing it.
    if (raw_surrogate or "\\u" in text) and not encodable(json.dumps(data, ensure_ascii=False)):
        raise ProtocolError("bad_text", "the message holds a lone surrogate (invalid Unicode)", ident)
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise ProtocolError("bad_envelope", '"type" must be a non-empty string', ident)
    payload = data.get("payload", {})
    if not isinstance(payload, dict):
        raise ProtocolError("bad_envelope", '"payload" must be a JSON object', ident)
    return ClientMessage(type=kind, id=ident, payload=payload)


def encode_payload(payload: dict[str, Any]) -> str:
    """A payload as JSON text, once for any number of sockets (`jsontext.dumps`): readable UTF-8
    when possible; any text that UTF-8 cannot carry (a lone surrogate) is written as a JSON escape
    instead."""
    return jsontext.dumps(payload)


@functools.lru_cache(maxsize=256)
def quoted(kind: str) -> str:
    """A message type as a JSON string. The types are the server's own handful, and every frame
    of every socket writes one: `json.dumps` each time was most of `frame`'s cost."""
    return json.dumps(kind)


def frame(kind: str, seq: int, payload_json: str) -> str:
    """The envelope around an already encoded payload (the hub encodes a broadcast only once)."""
    return f'{{"type":{quoted(kind)},"seq":{seq},"payload":{payload_json}}}'


def encode(kind: str, seq: int, payload: dict[str, Any]) -> str:
    return frame(kind, seq, encode_payload(payload))
