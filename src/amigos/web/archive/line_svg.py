"""The line of play drawn as SVG on the server, from the engine's line (see replay.line_cells).

Drawn on the server so that the replay needs no script to be read, and a shared link shows the
same picture to everyone. Tiles are drawn with pips where the shared layout puts them
(amigos.engine.line_layout, the one the live table and the Academy use): the arms fold outward at
the edge, and the view box scales the whole line to the page; the last tile laid is outlined. Cells
built without a layout fall back to rows of at most PER_ROW tiles. Only numbers reach the markup,
nothing typed by a player, and the figure carries a text alternative (the line in notation) for
screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from amigos.web.archive.replay import Cell, LineCells

UNIT = 20  # one half of a tile
GAP = 4
PER_ROW = 9
PIP_RADIUS = 2.2

# Pip places on a 3x3 grid (0..2, 0..2) for each value 0..9.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((x, y) for x in range(3) for y in range(3)),
}


def _half(x: float, y: float, value: int) -> list[str]:
    step = UNIT / 4
    return [
        f'<circle cx="{x + step * (1 + px):.1f}" cy="{y + step * (1 + py):.1f}" r="{PIP_RADIUS}"/>'
        for px, py in _PIPS.get(value, ())
    ]


def _tile(x: float, y: float, cell: Cell, upright: bool) -> list[str]:
    width, height = (UNIT, 2 * UNIT) if upright else (2 * UNIT, UNIT)
    parts = [
        f'<rect class="tile" x="{x:.1f}" y="{y:.1f}" width="{width}" height="{height}" rx="3"/>',
    ]
    if upright:
        parts.append(
            f'<line class="split" x1="{x + 3:.1f}" y1="{y + UNIT:.1f}"'
            f' x2="{x + UNIT - 3:.1f}" y2="{y + UNIT:.1f}"/>'
        )
        second = (x, y + UNIT)
    else:
        parts.append(
            f'<line class="split" x1="{x + UNIT:.1f}" y1="{y + 3:.1f}"'
            f' x2="{x + UNIT:.1f}" y2="{y + UNIT - 3:.1f}"/>'
        )
        second = (x + UNIT, y)
    parts += _half(x, y, cell.first)
    parts += _half(*second, cell.second)
    return parts


def _row(cells: Sequence[Cell], top: float, left: float = 0) -> tuple[list[str], float]:
    """Draw ``cells`` wrapped into rows of at most PER_ROW tiles; returns the parts and the
    height used."""
    parts: list[str] = []
    y = top
    for start in range(0, len(cells), PER_ROW):
        x = left
        for cell in cells[start : start + PER_ROW]:
            if cell.double:
                parts += _tile(x, y, cell, upright=True)
                x += UNIT + GAP
            else:
                parts += _tile(x, y + UNIT / 2, cell, upright=False)
                x += 2 * UNIT + GAP
        y += 2 * UNIT + GAP * 2
    return parts, y - top


def _notation(cells: Sequence[Cell]) -> str:
    return "".join(f"[{cell.first}|{cell.second}]" for cell in cells)


def _laid_out(laid: dict[str, Any]) -> tuple[list[str], str]:
    """The tiles where the shared layout puts them (as on the live table), the last one marked."""
    parts: list[str] = []
    for tile in laid["tiles"]:
        x, y = tile["x"] * UNIT, tile["y"] * UNIT
        parts += _tile(x, y, Cell(tile["first"], tile["second"]), upright=not tile["horizontal"])
        if tile["last"]:
            w, h = tile["w"] * UNIT, tile["h"] * UNIT
            parts.append(
                f'<rect class="last-mark" x="{x - 2:.1f}" y="{y - 2:.1f}" width="{w + 4:.1f}"'
                f' height="{h + 4:.1f}" rx="5"/>'
            )
    bx, by, bw, bh = (value * UNIT for value in laid["box"])
    return parts, f"{bx:.1f} {by:.1f} {bw:.1f} {bh:.1f}"


def line_svg(line: LineCells, *, title: str, empty: str, up: str, down: str) -> SafeString:
    """The SVG figure of ``line``; the words are the request's language (escaped here)."""
    if not line.row:
        return mark_safe(f'<p class="line-empty">{escape(empty)}</p>')  # noqa: S308 - escaped
    if line.laid is not None:
        drawn, view_box = _laid_out(line.laid)
        description = _notation(line.row)
        for label, cells in ((up, line.up), (down, line.down)):
            if cells:
                description += f" {label}: {_notation(cells)}"
        return mark_safe(  # noqa: S308 - only numbers and escaped words
            f'<svg class="line-svg line-svg--laid" role="img" aria-labelledby="line-title"'
            f' viewBox="{view_box}"'
            f' preserveAspectRatio="xMidYMid meet">'
            f'<title id="line-title">{escape(title)}: {escape(description)}</title>{"".join(drawn)}</svg>'
        )
    parts: list[str] = []
    y = 0.0
    label_x = 0
    width = PER_ROW * (2 * UNIT + GAP)
    drawn, height = _row(line.row, y)
    parts += drawn
    y += height
    description = _notation(line.row)
    for label, cells in ((up, line.up), (down, line.down)):
        if not cells:
            continue
        parts.append(f'<text class="arm-label" x="{label_x}" y="{y + 12:.1f}">{escape(label)}</text>')
        y += 16
        drawn, height = _row(cells, y)
        parts += drawn
        y += height
        description += f" {label}: {_notation(cells)}"
    body = "".join(parts)
    return mark_safe(  # noqa: S308 - only numbers and escaped words
        f'<svg class="line-svg" role="img" aria-labelledby="line-title"'
        f' viewBox="-2 -2 {width + 4} {y + 4:.0f}"'
        f' preserveAspectRatio="xMidYMin meet">'
        f'<title id="line-title">{escape(title)}: {escape(description)}</title>{body}</svg>'
    )
