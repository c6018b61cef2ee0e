"""Lines of play of every shape, built with the engine, for the layout tests.

Each builder lays a whole set greedily with a fixed preference, and every prefix of the result is a
line the screen must draw: short and long lines, double and mixed leads, doubles on the corners,
spinners in the middle or on an arm, double-six and double-nine sets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from amigos.engine.actions import Arm
from amigos.engine.codec import line_json
from amigos.engine.line import Line
from amigos.engine.tiles import Tile, tile_set

Option = tuple[Tile, Arm]
Preference = Callable[[list[Option], int], Option]

PREFERENCES: dict[str, Preference] = {
    "first": lambda options, step: options[0],
    "last": lambda options, step: options[-1],
    "doubles": lambda options, step: min(options, key=lambda o: (not o[0].is_double, o[1].value)),
    "cycle": lambda options, step: options[step % len(options)],
    "one arm": lambda options, step: max(options, key=lambda o: (o[1] in (Arm.DOWN, Arm.RIGHT), -o[0].pips)),
}


def grow(with_spinner: bool, max_pip: int, lead: Tile, prefer: Preference) -> Iterator[dict[str, Any]]:
    """Every prefix of a line grown from ``lead`` until no tile of the set fits."""
    line = Line.empty(with_spinner).place_lead(lead)
    left = [tile for tile in tile_set(max_pip) if tile != lead]
    yield line_json(line)
    step = 0
    while options := [(tile, arm) for tile in left for arm in line.legal_arms(tile)]:
        tile, arm = prefer(options, step)
        step += 1
        line = line.place(tile, arm)
        left.remove(tile)
        yield line_json(line)


def all_lines() -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for with_spinner, max_pip in ((False, 6), (False, 9), (True, 6)):
        leads = (Tile.of(max_pip, max_pip), Tile.of(max_pip, max_pip - 1), Tile.of(3, 1), Tile.of(0, 0))
        for lead in leads:
            for prefer in PREFERENCES.values():
                lines.extend(grow(with_spinner, max_pip, lead, prefer))
    return lines
