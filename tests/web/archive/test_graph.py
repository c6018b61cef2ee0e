"""The server-drawn graph: one point per match, PR scaled to its range, quintiles Q1 on top."""

from __future__ import annotations

import re

from amigos.web.archive.graph import PR_BOTTOM, PR_TOP, Q_BOTTOM, Q_TOP, GraphLabels, rating_graph

LABELS = GraphLabels(title="PR <script>", description="d & e", pr="PR", quintile="Q")


def floats(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"([\d.]+),([\d.]+)", text)]


def test_points_are_scaled_and_text_escaped() -> None:
    svg = str(rating_graph([(0, 3), (10, 1), (5, 5)], LABELS))
    assert "<script>" not in svg and "PR &lt;script&gt;" in svg and "d &amp; e" in svg
    pr_points = floats(re.search(r'graph__pr" points="([^"]+)"', svg).group(1))  # type: ignore[union-attr]
    # 0 is the lowest PR (bottom of the PR panel), 10 the highest (top), 5 half-way.
    assert [y for _, y in pr_points] == [PR_BOTTOM, PR_TOP, (PR_TOP + PR_BOTTOM) / 2]
    assert pr_points[0][0] < pr_points[1][0] < pr_points[2][0]
    steps = floats(re.search(r'graph__quintile" points="([^"]+)"', svg).group(1))  # type: ignore[union-attr]
    # Q3, then a step to Q1, then to Q5: each change is drawn as a horizontal then a vertical move.
    middle = Q_TOP + (Q_BOTTOM - Q_TOP) / 2
    assert [y for _, y in steps] == [middle, middle, Q_TOP, Q_TOP, Q_BOTTOM]
    assert svg.count('class="graph__dot"') == 3


def test_no_points_draws_nothing() -> None:
    assert str(rating_graph([], LABELS)) == ""


def test_a_single_match_and_a_flat_pr_still_draw() -> None:
    svg = str(rating_graph([(4, 2), (4, 2)], LABELS))
    assert svg.count('class="graph__dot"') == 2
