"""The JSON envelope spoken over the socket (see docs/protocol.md).

Server to client: {"type": str, "seq": int, "payload": object}; `seq` counts up from 1 on each
socket, so a client can tell it missed nothing. Client to server: {"type": str, "id": int|str,
"payload": object}; the server answers every command with an "ack" or an "error" naming that id.
Parsing is strict and total: anything malformed becomes a ProtocolError, never an exception that
would tear the connection down or change any state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# The largest client frame we read; chat lines are short and nothing else is bigger.
MAX_FRAME_BYTES = 8192


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


def parse(text: str | bytes | None) -> ClientMessage:
    if text is None:
        raise ProtocolError("bad_frame", "binary frames are not accepted; send JSON text")
    if isinstance(text, bytes):
        raise ProtocolError("bad_frame", "binary frames are not accepted; send JSON text")
    if len(text.encode("utf-8")) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_FRAME_BYTES} bytes")
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_envelope", "the message must be a JSON object")
    ident = data.get("id", data.get("seq"))
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        raise ProtocolError("bad_envelope", '"id" must be an integer or a string')
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise ProtocolError("bad_envelope", '"type" must be a non-empty string', ident)
    payload = data.get("payload", {})
    if not isinstance(payload, dict):
        raise ProtocolError("bad_envelope", '"payload" must be a JSON object', ident)
    return ClientMessage(type=kind, id=ident, payload=payload)


def encode(kind: str, seq: int, payload: dict[str, Any]) -> str:
    return json.dumps(
        {"type": kind, "seq": seq, "payload": payload}, ensure_ascii=False, separators=(",", ":")
    )
