"""The line of play's layout (amigos.engine.line_layout) as pure code, on thousands of lines.

Lines are grown with the engine from a whole set (double-six for Amigos, draw and fives,
double-nine for Cuban), the tile and arm of each play drawn by Hypothesis, often to the last tile
that fits. Every layout must keep every tile inside its view box, no two tiles overlapping, tiles
laid against each other touching with equal numbers, and tiles that are not laid against each other
at least half a unit apart (so an arm never crosses or touches another, and the last tile never
reads as attached somewhere else).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amigos.engine.codec import line_json
from amigos.engine.line import Line
from amigos.engine.line_layout import MIN_GAP, LayoutError, layout
from amigos.engine.tiles import tile_set

EPS = 1e-6

#: The four rule families: whether the line has a spinner, and the set's highest pip.
FAMILIES = {"amigos": (False, 6), "cuban": (False, 9), "draw": (True, 6), "fives": (True, 6)}
ASPECTS = (0.5, 0.75, 1.0, 1.6, 2.4)

Rect = tuple[float, float, float, float]


def rect(tile: dict[str, Any]) -> Rect:
    return (tile["x"], tile["y"], tile["w"], tile["h"])


def gap(a: Rect, b: Rect) -> float:
    return max(a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]), a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]))


def halves(tile: dict[str, Any]) -> list[tuple[Rect, int]]:
    x, y = tile["x"], tile["y"]
    if tile["horizontal"]:
        return [((x, y, 1, 1), tile["first"]), ((x + 1, y, 1, 1), tile["second"])]
    return [((x, y, 1, 1), tile["first"]), ((x, y + 1, 1, 1), tile["second"])]


def touching(a: Rect, b: Rect) -> bool:
    shared_x = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    shared_y = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    side = (abs(a[0] + a[2] - b[0]) < EPS or abs(b[0] + b[2] - a[0]) < EPS) and shared_y > EPS
    level = (abs(a[1] + a[3] - b[1]) < EPS or abs(b[1] + b[3] - a[1]) < EPS) and shared_x > EPS
    return side or level


def predecessors(line: dict[str, Any]) -> dict[int, int]:
    placements = line["placements"]
    spinner = next((i for i, p in enumerate(placements) if p["tile"] == line["spinner"]), 0)
    last: dict[str, int] = {}
    result: dict[int, int] = {}
    for index, placement in enumerate(placements[1:], start=1):
        arm = placement["arm"]
        start = spinner if line["kind"] == "spinner" and arm in ("up", "down") else 0
        result[index] = last.get(arm, start)
        last[arm] = index
    return result


def check(line: dict[str, Any], aspect: float) -> dict[str, Any]:
    laid = layout(line, aspect)
    bx, by, bw, bh = laid["box"]
    assert abs(bw / bh - aspect) < 1e-6
    tiles = laid["tiles"]
    placements = line["placements"]
    assert [t["tile"] for t in tiles] == [p["tile"] for p in placements]
    assert [t["last"] for t in tiles] == [i == len(tiles) - 1 for i in range(len(tiles))]
    linked = {(i, j) for i, j in predecessors(line).items()}
    for i, tile in enumerate(tiles):
        x, y, w, h = rect(tile)
        assert {w, h} == {1, 2}
        assert x >= bx - EPS and y >= by - EPS and x + w <= bx + bw + EPS and y + h <= by + bh + EPS, tile
        for j in range(i):
            if (i, j) in linked:
                assert gap(rect(tile), rect(tiles[j])) > -EPS, (tile, tiles[j])
            else:
                assert gap(rect(tile), rect(tiles[j])) >= MIN_GAP - EPS, (tile, tiles[j])
    for index, before in predecessors(line).items():
        pairs = [
            (mine, theirs)
            for mine in halves(tiles[index])
            for theirs in halves(tiles[before])
            if touching(mine[0], theirs[0])
        ]
        assert pairs, (tiles[index], tiles[before])
        assert all(mine[1] == theirs[1] for mine, theirs in pairs), (tiles[index], tiles[before])
    lead, first = tiles[0], placements[0]
    double = first["inner"] == first["outer"]
    assert lead["first"] == first["inner"]
    assert lead["horizontal"] is (double if line["kind"] == "two-ended" else not double)
    return laid


@st.composite
def lines(draw: st.DrawFn) -> dict[str, Any]:
    """A line of one family grown play by play, usually long, sometimes to the whole hand."""
    with_spinner, max_pip = FAMILIES[draw(st.sampled_from(sorted(FAMILIES)))]
    left = list(tile_set(max_pip))
    lead = draw(st.sampled_from(left))
    left.remove(lead)
    line = Line.empty(with_spinner).place_lead(lead)
    length = draw(st.one_of(st.integers(0, len(left)), st.just(len(left))))
    for _ in range(length):
        options = [(tile, arm) for tile in left for arm in line.legal_arms(tile)]
        if not options:
            break
        tile, arm = draw(st.sampled_from(options))
        line = line.place(tile, arm)
        left.remove(tile)
    return line_json(line)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=lines(), aspect=st.sampled_from(ASPECTS))
def test_generated_lines_fit_their_box_and_never_touch_another_arm(
    line: dict[str, Any], aspect: float
) -> None:
    check(line, aspect)


def test_long_lines_fold_instead_of_running_off() -> None:
    """A whole double-six hand on a wide felt turns (it does not lie as one straight run)."""
    line = Line.empty(False).place_lead(tile_set(6)[-1])
    left = [tile for tile in tile_set(6) if tile != tile_set(6)[-1]]
    while options := [(tile, arm) for tile in left for arm in line.legal_arms(tile)]:
        tile, arm = options[0]
        line = line.place(tile, arm)
        left.remove(tile)
    laid = check(line_json(line), 2.0)
    xs = {tile["x"] for tile in laid["tiles"] if not tile["horizontal"]}
    assert len(xs) > 2  # more than one column
    # the tiles are bigger than a single straight column would allow
    assert laid["box"][3] < sum(t["h"] for t in laid["tiles"] if t["arm"] == "down")


def test_empty_line_and_bad_input() -> None:
    assert layout({"kind": "spinner", "placements": []})["tiles"] == []
    for bad in (
        {"kind": "round", "placements": []},
        {"kind": "spinner", "placements": "6-6"},
        {
            "kind": "two-ended",
            "placements": [{"tile": "6-6", "arm": None, "inner": 6, "outer": 6}, {"arm": "left"}],
        },
    ):
        with pytest.raises(LayoutError) as caught:
            layout(bad)
        assert caught.value.code == "bad_line"
    with pytest.raises(LayoutError):
        layout({"kind": "spinner", "placements": []}, aspect=0)


def test_every_shape_of_the_builder_lines() -> None:
    """The screen tests' lines (every prefix of greedy whole-set lines), each at one shape."""
    from tests.web.tables.lines import all_lines

    every = all_lines()
    assert len(every) > 1000
    for index, line in enumerate(every):
        check(line, ASPECTS[index % len(ASPECTS)])
