"""The variants as plain data: who plays, with which set, how hands are scored.

Kept as a small table of named tuples (not the engine's registry) so the referee's reading of the
variant names stays independent of the engine's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

# A tile is a pair (low, high); the order written in a record only matters for the lead of a
# spinner game, where the first half faces left.
Tile = tuple[int, int]

RECORD_FORMAT = "amigos-record/1"

_TILE_TEXT = re.compile(r"([0-9])-([0-9])")


class Rules(NamedTuple):
    """Everything the referee needs to know about one variant at one table size."""

    name: str
    family: str  # "amigos", "cuban" or "draw" (draw and the fives/threes games)
    scoring: str  # "amigos-100", "amigos-200", "amigos-hands", "cuban", "draw", "all-fives", ...
    players: int
    max_pip: int
    hand_size: int
    teams: bool  # partners sit opposite: seats 0/2 against 1/3
    spinner: bool
    draws: bool  # a player who cannot lay draws from the boneyard
    target: int | None  # None: juegos ganados (four hands won with a lead of two)

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def set_size(self) -> int:
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def pile_size(self) -> int:
        return self.set_size - self.players * self.hand_size


# The multiples that score during play, and the unit the end-of-hand award is rounded to.
PLAY_SCORE_MULTIPLES: dict[str, tuple[int, ...]] = {
    "draw": (),
    "all-fives": (5,),
    "all-threes": (3,),
    "fives-and-threes": (5, 3),
}
AWARD_ROUNDING: dict[str, int] = {"draw": 1, "all-fives": 5, "all-threes": 3, "fives-and-threes": 5}


class UnknownVariantError(ValueError):
    """The record names a variant that does not exist, or the wrong number of players for it."""


def variant_names() -> list[str]:
    names = ["amigos-100", "amigos-200", "amigos-hands", "cuban-2v2", "cuban-1v1"]
    for game in PLAY_SCORE_MULTIPLES:
        names += [f"{game}-{target}" for target in (100, 250, 500)]
    return names


def rules_for(name: str, players: int) -> Rules:
    """The rules of variant `name` played by `players` seats (raises UnknownVariantError)."""
    if name in ("amigos-100", "amigos-200", "amigos-hands"):
        _need(name, players, (4,))
        target = None if name == "amigos-hands" else int(name[-3:])
        return Rules(name, "amigos", name, 4, 6, 7, True, False, False, target)
    if name in ("cuban-2v2", "cuban-1v1"):
        count = 4 if name == "cuban-2v2" else 2
        _need(name, players, (count,))
        return Rules(name, "cuban", "cuban", count, 9, 10, count == 4, False, False, 150)
    game, _, target_text = name.rpartition("-")
    if game in PLAY_SCORE_MULTIPLES and target_text in ("100", "250", "500"):
        _need(name, players, (2, 3, 4))
        size = 7 if players == 2 else 5
        return Rules(name, "draw", game, players, 6, size, False, True, True, int(target_text))
    raise UnknownVariantError(f"unknown variant {name!r}")


def _need(name: str, players: int, allowed: tuple[int, ...]) -> None:
    if players not in allowed:
        counts = " or ".join(map(str, allowed))
        raise UnknownVariantError(f"{name} is played by {counts} players, not {players}")


def full_set(max_pip: int) -> list[Tile]:
    return [(low, high) for high in range(max_pip + 1) for low in range(high + 1)]


def parse_tile(text: str, max_pip: int) -> tuple[int, int] | None:
    """The two halves as written ("5-3" -> (5, 3)), or None when the text is not a tile of the set."""
    match = _TILE_TEXT.fullmatch(text)
    if match is None:
        return None
    first, second = int(match.group(1)), int(match.group(2))
    if first > max_pip or second > max_pip:
        return None
    return first, second


def norm(first: int, second: int) -> Tile:
    return (first, second) if first <= second else (second, first)


def tile_text(tile: Tile, flipped: bool = False) -> str:
    low, high = tile
    return f"{low}-{high}" if flipped else f"{high}-{low}"


def pip_sum(tiles: Iterable[Tile]) -> int:
    return sum(low + high for low, high in tiles)
