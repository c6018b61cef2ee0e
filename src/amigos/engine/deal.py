"""Deals (la sopa) from a UUID4 key, and the commitment that proves a deal was not changed.

A key is 128 random bits from the operating system's CSPRNG (``secrets``), written as a UUID4
(36 characters). The deal is a pure function of the key:

1. A byte stream is produced by SHA-256 in counter mode: block ``i`` is
   ``SHA-256("amigos-deal/1" | key | i)`` with ``i`` as 8 big-endian bytes.
2. Integers below ``n`` are drawn from the stream by rejection sampling (4 bytes at a time,
   values at or above the largest multiple of ``n`` are discarded), so each is exactly uniform.
3. A Fisher-Yates shuffle of the set in canonical order uses those integers; seat 0 receives the
   first ``hand_size`` tiles, seat 1 the next, and so on; the rest is the boneyard in that order.

So every ordering of the set, hence every deal, is equally likely when the key is random, and the
same key always gives the same deal. Before a hand the server publishes
``commitment(key, hand_id)``; after it, it reveals the key and anyone can check both.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from .tiles import Tile, tile_set


class DealtSet(Protocol):
    """What dealing needs to know of a game (every `Variant` is one): the set's highest pip, how
    many seats and how many tiles each. Named as a protocol so that this module, which the
    variants read, never imports them back."""

    @property
    def max_pip(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...


_DEAL_DOMAIN = b"amigos-deal/1"
_COMMIT_DOMAIN = b"amigos-commit/1"


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles of each seat, and the boneyard in draw order (Cuban: the set-aside tiles)."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    key: str | None = None


def new_deal_key() -> str:
    """A fresh key from the CSPRNG, as UUID4 text (36 characters)."""
    return str(uuid.UUID(bytes=secrets.token_bytes(16), version=4))


def random_seat(players: int) -> int:
    """A seat drawn from the CSPRNG: how the first leader of an online Amigos match is chosen."""
    return secrets.randbelow(players)


def normalise_key(key: str) -> str:
    """The canonical (lower-case, hyphenated) text of a UUID key; ValueError if it is not one."""
    if not isinstance(key, str) or len(key) != 36:
        raise ValueError("a deal key is a UUID of 36 characters")
    return str(uuid.UUID(key))


def _stream(key: str) -> Iterator[int]:
    """An endless sequence of 32-bit integers derived from ``key``."""
    counter = 0
    seed = _DEAL_DOMAIN + b"|" + key.encode("ascii") + b"|"
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        counter += 1


def _below(stream: Iterator[int], n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``stream`` (rejection sampling, no modulo bias)."""
    limit = (1 << 32) - (1 << 32) % n
    while True:
        value = next(stream)
        if value < limit:
            return value % n


def shuffled_set(key: str, max_pip: int) -> tuple[Tile, ...]:
    """The whole double-``max_pip`` set in the order the key shuffles it."""
    return _shuffled(normalise_key(key), max_pip)


def _shuffled(key: str, max_pip: int) -> tuple[Tile, ...]:
    """`shuffled_set` of a key already normalised (reading a UUID is a third of a deal's cost)."""
    tiles = list(tile_set(max_pip))
    stream = _stream(key)
    for i in range(len(tiles) - 1, 0, -1):
        j = _below(stream, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tuple(tiles)


def deal_from_key(key: str, variant: DealtSet) -> Deal:
    """The deal the key gives for ``variant``."""
    key = normalise_key(key)
    order = _shuffled(key, variant.max_pip)
    size = variant.hand_size
    hands = tuple(order[seat * size : (seat + 1) * size] for seat in range(variant.players))
    return Deal(hands=hands, boneyard=order[variant.players * size :], key=key)


def commitment(key: str, hand_id: str) -> str:
    """SHA-256 (hex) binding the key to the hand's identity: published before the hand starts."""
    payload = _COMMIT_DOMAIN + b"|" + hand_id.encode("utf-8") + b"|" + normalise_key(key).encode("ascii")
    return hashlib.sha256(payload).hexdigest()


def verify_commitment(key: str, hand_id: str, published: str) -> bool:
    """Whether the revealed ``key`` matches the commitment published for ``hand_id``."""
    try:
        expected = commitment(key, hand_id)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published.lower()) if isinstance(published, str) else False
