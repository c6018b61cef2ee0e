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
    chunk_pips: tuple[tuple[int, ...], ...]  # 12-bit chunk position -> 4096 pip sums

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
        """Pips of every tile in ``mask`` (table lookups, one per 12 bits: 3 for double-six)."""
        total = 0
        position = 0
        tables = self.chunk_pips
        while mask:
            total += tables[position][mask & 0xFFF]
            mask >>= 12
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
    chunk_tables = []
    for position in range((len(halves) + 11) // 12):
        weights = [pips[i] if i < len(halves) else 0 for i in range(position * 12, position * 12 + 12)]
        table = [0] * 4096
        for chunk in range(1, 4096):
            low = chunk & -chunk
            table[chunk] = table[chunk ^ low] + weights[low.bit_length() - 1]
        chunk_tables.append(tuple(table))
    return TileSet(max_pip, halves, pips, suit_masks, index, tuple(chunk_tables))
