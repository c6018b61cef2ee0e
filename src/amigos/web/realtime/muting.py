"""Lines a reader muted never leave the process for that reader's sockets.

A mute is one player's private choice, so it cannot be applied where a line is published (every
other reader still gets it): it is applied per recipient, where a message is handed to a socket.
Features name the message kinds that carry players' lines (`authored`); the socket drops a single
line by a muted author, and strips them from a list of lines (a history, a snapshot). The hub
checks a broadcast line's author before encoding it for every socket, so a muted line costs one set
lookup per reader, not a decode.

Each process keeps the muted ids of the players whose sockets it holds (`MuteBook`, shared by all of
a player's sockets there); the moderation app fills it when a socket opens and keeps it current
across processes when a player mutes or unmutes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# kind -> None when the payload is itself a line, or the key of the payload's list of lines.
_authored: dict[str, str | None] = {}
NOBODY: frozenset[int] = frozenset()
# How a page reads whom a player muted (a database read), registered by moderation at start.
_stored_mutes: list[Callable[[int], set[int]]] = []


def read_mutes_with(reader: Callable[[int], set[int]]) -> None:
    """Register how the players a reader muted are read from the database (moderation does, when
    the site starts), so a page that filters lines (the lobby's) need not import moderation."""
    _stored_mutes[:] = [reader]


def stored_mutes(owner_id: int) -> set[int]:
    """Whom ``owner_id`` muted, as stored (a database read); nobody when no reader is registered."""
    return _stored_mutes[0](owner_id) if _stored_mutes else set()


def authored(kind: str, *, lines: str | None = None) -> None:
    """Declare that messages of ``kind`` carry players' lines (each with an ``author_id``)."""
    _authored[kind] = lines


def may_have_author(kind: str) -> bool:
    """Whether a broadcast of ``kind`` is a single line, whose author the hub must read."""
    return kind in _authored and _authored[kind] is None


def author_of(kind: str, payload: dict[str, Any]) -> int | None:
    """The author of a single-line message, or None for any other message."""
    if kind not in _authored or _authored[kind] is not None:
        return None
    author = payload.get("author_id")
    return author if isinstance(author, int) else None


def for_reader(kind: str, payload: dict[str, Any], muted: frozenset[int]) -> dict[str, Any] | None:
    """``payload`` as a reader who muted ``muted`` may see it; None when nothing is left to send."""
    if not muted or kind not in _authored:
        return payload
    key = _authored[kind]
    if key is None:
        return None if payload.get("author_id") in muted else payload
    lines = payload.get(key)
    if not isinstance(lines, list):
        return payload
    return {**payload, key: [line for line in lines if line.get("author_id") not in muted]}


class MuteBook:
    """The muted ids of each player with a socket in this process."""

    def __init__(self) -> None:
        self._muted: dict[int, frozenset[int]] = {}

    def of(self, user_id: int) -> frozenset[int]:
        return self._muted.get(user_id, NOBODY)

    def put(self, user_id: int, muted: frozenset[int]) -> None:
        self._muted[user_id] = muted

    def update(self, user_id: int, muted: frozenset[int]) -> None:
        """A change made elsewhere: kept only for a player this process already follows."""
        if user_id in self._muted:
            self._muted[user_id] = muted

    def forget(self, user_id: int) -> None:
        self._muted.pop(user_id, None)

    def followed(self) -> list[int]:
        """The players whose mutes this process keeps (to read them again after the bus lost a
        change: `amigos.web.moderation.socket.reload_mutes`)."""
        return list(self._muted)
