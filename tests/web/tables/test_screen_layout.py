"""The table's line layout (static/tables/layout.js) is the engine's (amigos.engine.line_layout).

The JavaScript mirror runs in Chromium on every builder line (every prefix of greedy whole-set lines
of each shape) and on long random lines of the four families, at phone and desktop shapes; its
output must equal the Python layout's, number for number. The geometry itself (no overlaps, inside
the view box, arms apart) is proved on the Python side in tests/engine/test_line_layout.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from amigos.engine.codec import line_json
from amigos.engine.line import Line
from amigos.engine.line_layout import layout
from amigos.engine.tiles import tile_set
from tests.web.tables.lines import all_lines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ASPECTS = (0.55, 1.0, 2.4)


def random_lines(count: int) -> list[dict[str, Any]]:
    """Whole random hands of the four families (the choice of play is random, not greedy)."""
    chooser = random.Random()
    lines = []
    for index in range(count):
        with_spinner, max_pip = ((False, 6), (False, 9), (True, 6), (True, 6))[index % 4]
        left = list(tile_set(max_pip))
        lead = chooser.choice(left)
        left.remove(lead)
        line = Line.empty(with_spinner).place_lead(lead)
        while options := [(tile, arm) for tile in left for arm in line.legal_arms(tile)]:
            tile, arm = chooser.choice(options)
            line = line.place(tile, arm)
            left.remove(tile)
        lines.append(line_json(line))
    return lines


def test_the_javascript_layout_equals_the_python_one(open_page: Callable[..., Any]) -> None:
    lines = [line for i, line in enumerate(all_lines()) if i % 2 == 0] + random_lines(200)
    assert len(lines) > 1000
    page = open_page()
    page.goto("/accounts/sign-in/")
    results = page.evaluate(
        """async ([lines, aspects]) => {
            const { layout } = await import("/static/tables/layout.js");
            return lines.map((line, i) => layout(line, aspects[i % aspects.length]));
        }""",
        [lines, list(ASPECTS)],
    )
    for index, (line, laid) in enumerate(zip(lines, results, strict=True)):
        expected = layout(line, ASPECTS[index % len(ASPECTS)])
        assert laid["tiles"] == expected["tiles"], line
        assert laid["box"] == pytest.approx(expected["box"], abs=1e-9), line
