"""A compact encoding of tiles and hands for fast search.

The solver explores hundreds of thousands of positions per second only if a
position is a handful of small integers.  A tile is a bit index into the set
(0..27 for double-six, 0..54 for double-nine), a hand is an ``int`` bit mask of
those indices, and the tiles that carry a suit are one precomputed mask per
suit.  Everything here is pure and independent of the engine's classes, so the
search never pays for dataclass construction or frozenset hashing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class TileSet:
    """Bit-index tables for one domino set (``max_pip`` 6 or 9)."""

    max_pip: int
    halves: tuple[tuple[int, int], ...]  # index -> (high, low)
    pips: tuple[int, ...]  # index -> pip count
    suit_masks: tuple[int, ...]  # suit -> mask of every tile carrying it
    index: dict[tuple[int, int], int]  # (high, low) -> index
    byte_pips: tuple[tuple[int, ...], ...]  # byte position -> 256 pip sums

    @property
    def size(self) -> int:
        return len(self.halves)

    def tile_index(self, a: int, b: int) -> int:
        """Index of the tile with halves ``a`` and ``b`` in either order."""
        return self.index[(a, b) if a >= b else (b, a)]

    def mask_of(self, tiles: object) -> int:
        """Mask of an iterable of ``(a, b)`` pairs or objects with ``high``/``low``."""
        mask = 0
        for tile in tiles:  # type: ignore[attr-defined]
            if isinstance(tile, tuple):
                a, b = tile
            else:
                a, b = tile.high, tile.low
            mask |= 1 << self.tile_index(a, b)
        return mask

    def pip_sum(self, mask: int) -> int:
        """Pips of every tile in ``mask`` (table lookups, one per byte)."""
        total = 0
        position = 0
        tables = self.byte_pips
        while mask:
            total += tables[position][mask & 0xFF]
            mask >>= 8
            position += 1
        return total

    def tiles_of(self, mask: int) -> list[tuple[int, int]]:
        """The ``(high, low)`` pairs of a mask, in index order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.halves[low.bit_length() - 1])
            mask ^= low
        return out


@cache
def tile_set_for(max_pip: int) -> TileSet:
    """Tables for the double-``max_pip`` set (cached: built once per process)."""
    halves = tuple((high, low) for high in range(max_pip + 1) for low in range(high + 1))
    pips = tuple(a + b for a, b in halves)
    suit_masks = tuple(
        sum(1 << i for i, (a, b) in enumerate(halves) if suit in (a, b)) for suit in range(max_pip + 1)
    )
    index = {pair: i for i, pair in enumerate(halves)}
    byte_tables = []
    for position in range((len(halves) + 7) // 8):
        table = []
        for byte in range(256):
            total = 0
            for bit in range(8):
                i = position * 8 + bit
                if byte >> bit & 1 and i < len(halves):
                    total += pips[i]
            table.append(total)
        byte_tables.append(tuple(table))
    return TileSet(max_pip, halves, pips, suit_masks, index, tuple(byte_tables))
