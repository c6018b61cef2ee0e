"""The line of play drawn as SVG on the server, from the engine's line (see replay.line_cells).

Drawn on the server so that the replay needs no script to be read, and a shared link shows the
same picture to everyone. Tiles are drawn with pips; doubles stand across the line as players lay
them. A long line wraps into rows so that it stays legible on a phone; a spinner line's up and
down arms are drawn as their own labelled rows. Only numbers reach the markup, nothing typed by a
player, and the figure carries a text alternative (the line in notation) for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def line_svg(line: LineCells, *, title: str, empty: str, up: str, down: str) -> SafeString:
    """The SVG figure of ``line``; the words are the request's language (escaped here)."""
    if not line.row:
        return mark_safe(f'<p class="line-empty">{escape(empty)}</p>')  # noqa: S308 - escaped
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
