"""The line of play's layout (static/tables/layout.js), run in Chromium on lines of every shape.

The geometry is checked here, in Python, from what the browser computed: every tile inside the
box, no two tiles overlapping, every tile touching the one it was laid against with equal numbers
on the touching halves, the lead's orientation, and the tile size staying legible on a phone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.tables.lines import all_lines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 768, 1280)
MIN_UNIT = 12
EPS = 1e-6

Rect = tuple[float, float, float, float]


def halves(tile: dict[str, Any], unit: float) -> list[tuple[Rect, int]]:
    x, y = tile["x"], tile["y"]
    if tile["horizontal"]:
        return [((x, y, unit, unit), tile["first"]), ((x + unit, y, unit, unit), tile["second"])]
    return [((x, y, unit, unit), tile["first"]), ((x, y + unit, unit, unit), tile["second"])]


def overlap(a: Rect, b: Rect) -> bool:
    return (
        a[0] < b[0] + b[2] - EPS
        and b[0] < a[0] + a[2] - EPS
        and a[1] < b[1] + b[3] - EPS
        and b[1] < a[1] + a[3] - EPS
    )


def touch(a: Rect, b: Rect) -> bool:
    """Sharing a stretch of edge (not just a corner point)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    shared_x = min(ax + aw, bx + bw) - max(ax, bx)
    shared_y = min(ay + ah, by + bh) - max(ay, by)
    vertical_edge = (abs(ax + aw - bx) < EPS or abs(bx + bw - ax) < EPS) and shared_y > EPS
    horizontal_edge = (abs(ay + ah - by) < EPS or abs(by + bh - ay) < EPS) and shared_x > EPS
    return vertical_edge or horizontal_edge


def predecessors(line: dict[str, Any]) -> dict[int, int]:
    """For each tile but the lead, the index of the tile it was laid against."""
    placements = line["placements"]
    spinner = next((i for i, p in enumerate(placements) if p["tile"] == line["spinner"]), None)
    last_on_arm: dict[str, int] = {}
    result: dict[int, int] = {}
    for index, placement in enumerate(placements[1:], start=1):
        arm = placement["arm"]
        start = spinner if line["kind"] == "spinner" and arm in ("up", "down") else 0
        result[index] = last_on_arm.get(arm, start)  # type: ignore[arg-type]
        last_on_arm[arm] = index
    return result


def check(line: dict[str, Any], laid: dict[str, Any], width: int) -> None:
    tiles, unit = laid["tiles"], laid["unit"]
    placements = line["placements"]
    assert [t["tile"] for t in tiles] == [p["tile"] for p in placements]
    assert unit >= MIN_UNIT
    assert laid["width"] == width
    rects = [(t["x"], t["y"], t["w"], t["h"]) for t in tiles]
    for i, (x, y, w, h) in enumerate(rects):
        assert {w, h} == {unit, 2 * unit}
        assert x >= -EPS and x + w <= width + EPS and y >= -EPS and y + h <= laid["height"] + EPS, tiles[i]
        for j in range(i):
            assert not overlap(rects[i], rects[j]), (tiles[i], tiles[j])
    assert [t["last"] for t in tiles] == [i == len(tiles) - 1 for i in range(len(tiles))]
    lead, lead_placement = tiles[0], placements[0]
    is_double = lead_placement["inner"] == lead_placement["outer"]
    if line["kind"] == "two-ended":
        # A double lead lies across the (vertical) line; a mixed lead stands with its Up value on top.
        assert lead["horizontal"] is is_double
        assert lead["first"] == lead_placement["inner"]
        ups = [t for t in tiles if t["arm"] == "up"]
        if is_double and ups:
            assert abs(ups[0]["y"] + ups[0]["h"] - lead["y"]) < EPS  # the second tile goes above
    else:
        assert lead["horizontal"] is not is_double
        assert lead["first"] == lead_placement["inner"]  # the lead's left value on the left
    for index, before in predecessors(line).items():
        pairs = [
            (mine, theirs)
            for mine in halves(tiles[index], unit)
            for theirs in halves(tiles[before], unit)
            if touch(mine[0], theirs[0])
        ]
        assert pairs, (tiles[index], tiles[before])
        assert all(mine[1] == theirs[1] for mine, theirs in pairs), (tiles[index], tiles[before])


def test_every_line_fits_its_box_without_overlaps(open_page: Callable[..., Any]) -> None:
    every = all_lines()
    assert len(every) > 1000 and max(len(line["placements"]) for line in every) > 40
    # Every third prefix and every complete line keep the run short and still reach all shapes.
    lines = [
        line
        for i, line in enumerate(every)
        if i % 3 == 0 or i + 1 == len(every) or len(every[i + 1]["placements"]) == 1
    ]
    page = open_page()
    page.goto("/accounts/sign-in/")
    results = page.evaluate(
        """async ([lines, widths]) => {
            const { layout } = await import("/static/tables/layout.js");
            return widths.map((width) => lines.map((line) => layout(line, width)));
        }""",
        [lines, list(WIDTHS)],
    )
    default_heights = {}
    for width, laid_lines in zip(WIDTHS, results, strict=True):
        for line, laid in zip(lines, laid_lines, strict=True):
            check(line, laid, width)
            default_heights.setdefault(width, laid_lines[0]["height"])
            double_six = all(int(v) <= 6 for p in line["placements"] for v in p["tile"].split("-"))
            if width >= 768 and double_six:
                # A whole double-six line fits a desktop board without scrolling.
                assert laid["height"] == default_heights[width]


def test_a_given_height_is_used_and_grows_only_when_needed(open_page: Callable[..., Any]) -> None:
    lines = [line for line in all_lines() if len(line["placements"]) in (1, 10, 28)]
    page = open_page()
    page.goto("/accounts/sign-in/")
    heights = page.evaluate(
        """async (lines) => {
            const { layout } = await import("/static/tables/layout.js");
            return lines.map((line) => [layout(line, 390, 480).height, layout(line, 390, 480).unit]);
        }""",
        lines,
    )
    for line, (height, unit) in zip(lines, heights, strict=True):
        if len(line["placements"]) <= 10:
            assert height == 480 and unit >= 16
        else:
            assert height >= 480
