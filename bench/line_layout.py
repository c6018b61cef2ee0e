"""What laying out a line of play costs: `python bench/line_layout.py [--quick]`, prints JSON.

`amigos.engine.line_layout.layout` runs for every position a replay page draws (and its JavaScript
mirror for every change on the table), trying a few imagined boxes and checking that no tiles
touch. This measures, on whole hands of the four families grown greedily from every lead:

* `median_ms`, `worst_ms`: one layout of a whole hand (a long line is the costly case), best of
  three each, at a phone's and a laptop's shape;
* `lines`: how many lines were laid out;
* `machine_loop_ns`: one turn of a plain loop (the machine's speed, to compare days).

`--quick` uses fewer leads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.bench.machine import machine_loop_ns
from amigos.engine.codec import line_json
from amigos.engine.line import Line
from amigos.engine.line_layout import layout
from amigos.engine.tiles import tile_set

FAMILIES = {"amigos": (False, 6), "cuban": (False, 9), "draw": (True, 6), "fives": (True, 6)}
ASPECTS = (0.6, 2.0)


def whole_hands(quick: bool) -> list[dict[str, Any]]:
    """Each family's set laid greedily (first legal tile and arm) from several leads."""
    lines = []
    for with_spinner, max_pip in FAMILIES.values():
        tiles = tile_set(max_pip)
        for lead in tiles[:: 9 if quick else 2]:
            left = [tile for tile in tiles if tile != lead]
            line = Line.empty(with_spinner).place_lead(lead)
            while options := [(tile, arm) for tile in left for arm in line.legal_arms(tile)]:
                tile, arm = options[0]
                line = line.place(tile, arm)
                left.remove(tile)
            lines.append(line_json(line))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    lines = whole_hands(args.quick)
    timings = []
    for line in lines:
        for aspect in ASPECTS:
            best = float("inf")
            for _ in range(3):
                started = time.perf_counter()
                layout(line, aspect)
                best = min(best, time.perf_counter() - started)
            timings.append(best * 1000)
    print(
        json.dumps(
            {
                "lines": len(lines),
                "median_ms": round(statistics.median(timings), 2),
                "worst_ms": round(max(timings), 2),
                "machine_loop_ns": machine_loop_ns(),
            }
        )
    )


if __name__ == "__main__":
    main()
