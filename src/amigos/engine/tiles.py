"""Tiles (fichas) and domino sets.

A tile is stored normalised, higher half first, so that ``Tile(6, 4) == Tile(4, 6)`` and a set
holds each tile exactly once. Orientation on the table is the line's business, not the tile's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

_NOTATION = re.compile(r"([0-9])-([0-9])")

#: The largest pip value any supported set uses (double-nine).
MAX_SUPPORTED_PIP = 9


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino tile. ``high >= low`` always holds after construction.

    Ordering is by the higher half, then the lower one, which is also the canonical order of
    :func:`tile_set`.
    """

    high: int
    low: int

    def __post_init__(self) -> None:
        high, low = self.high, self.low
        if (
            isinstance(high, bool)
            or isinstance(low, bool)
            or not isinstance(high, int)
            or not isinstance(low, int)
        ):
            raise TypeError("tile halves must be integers")
        if not (0 <= high <= MAX_SUPPORTED_PIP and 0 <= low <= MAX_SUPPORTED_PIP):
            raise ValueError(f"tile halves must be between 0 and {MAX_SUPPORTED_PIP}")
        if low > high:
            object.__setattr__(self, "high", low)
            object.__setattr__(self, "low", high)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b``, in either order."""
        return cls(a, b)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read the notation ``"a-b"`` (either order). Raises ``ValueError`` on anything else."""
        if cls is Tile and isinstance(text, str):
            # The notation has a hundred spellings, read once (`_SPELLED`): a live table reads a
            # tile from every play command, and the pattern and two `int` calls were most of it.
            tile = _SPELLED.get(text)
            if tile is not None:
                return tile
        match = _NOTATION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a tile: {text!r} (expected a-b, e.g. 6-4)")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def is_double(self) -> bool:
        """A double (mula) has the same value on both halves."""
        return self.high == self.low

    @property
    def pips(self) -> int:
        """Total pips, the value counted when the tile is left in a hand."""
        return self.high + self.low

    @property
    def suits(self) -> tuple[int, int]:
        """Both halves, higher first."""
        return (self.high, self.low)

    def has(self, suit: int) -> bool:
        """Whether either half shows ``suit`` (whether the tile can join an end of that value)."""
        return self.high == suit or self.low == suit

    def other(self, suit: int) -> int:
        """The half left showing after joining an end of value ``suit``."""
        if self.high == suit:
            return self.low
        if self.low == suit:
            return self.high
        raise ValueError(f"{self} has no {suit}")


#: Every spelling of the notation ("6-4" and "4-6" alike) and its tile, for `Tile.parse`.
_SPELLED: dict[str, Tile] = {
    f"{a}-{b}": Tile(a, b) for a in range(MAX_SUPPORTED_PIP + 1) for b in range(MAX_SUPPORTED_PIP + 1)
}


@cache
def tile_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of the double-``max_pip`` set in canonical (ascending) order.

    6 gives the 28 tiles of double-six, 9 the 55 tiles of double-nine.
    """
    if not 0 <= max_pip <= MAX_SUPPORTED_PIP:
        raise ValueError(f"unsupported set: double-{max_pip}")
    return tuple(Tile(high, low) for high in range(max_pip + 1) for low in range(high + 1))


def pips(tiles: Iterable[Tile]) -> int:
    """Sum of the pips of ``tiles``."""
    return sum(tile.high + tile.low for tile in tiles)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in canonical order, highest first: the order used when a hand is shown or written."""
    return sorted(tiles, reverse=True)
