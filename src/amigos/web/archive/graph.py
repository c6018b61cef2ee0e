"""The statistics page's graph, drawn on the server as SVG: PR after each of the last matches
(above) and the quintile it left the player in (below, Q1 at the top).

Server-drawn so it needs no script, no network and no charting library, and stays inside the
strict Content-Security-Policy (presentation attributes and classes only, no inline style).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString

WIDTH = 480
LEFT = 52
RIGHT = 12
PR_TOP, PR_BOTTOM = 16, 150
Q_TOP, Q_BOTTOM = 178, 250
HEIGHT = 270


@dataclass(frozen=True, slots=True)
class GraphLabels:
    title: str
    description: str
    pr: str
    quintile: str


def _x(index: int, count: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * index / (count - 1) if count > 1 else span / 2)


def _nice_bounds(values: Sequence[int]) -> tuple[int, int]:
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def rating_graph(points: Sequence[tuple[int, int]], labels: GraphLabels) -> SafeString:
    """The SVG of ``points`` ((pr, quintile) per match, oldest first); empty when there are none."""
    if not points:
        return SafeString("")
    count = len(points)
    low, high = _nice_bounds([pr for pr, _ in points])

    def pr_y(pr: int) -> float:
        return PR_BOTTOM - (PR_BOTTOM - PR_TOP) * (pr - low) / (high - low)

    def q_y(q: int) -> float:
        return Q_TOP + (Q_BOTTOM - Q_TOP) * (q - 1) / 4

    width = WIDTH - LEFT - RIGHT
    parts: list[SafeString] = [
        format_html(
            '<svg class="graph" viewBox="0 0 {} {}" role="img" aria-labelledby="graph-title graph-desc"'
            ' xmlns="http://www.w3.org/2000/svg">'
            '<title id="graph-title">{}</title><desc id="graph-desc">{}</desc>',
            WIDTH,
            HEIGHT,
            labels.title,
            labels.description,
        ),
        format_html(
            '<rect class="graph__panel" x="{}" y="{}" width="{}" height="{}"/>',
            LEFT,
            PR_TOP,
            width,
            PR_BOTTOM - PR_TOP,
        ),
        format_html(
            '<rect class="graph__panel" x="{}" y="{}" width="{}" height="{}"/>',
            LEFT,
            Q_TOP,
            width,
            Q_BOTTOM - Q_TOP,
        ),
        format_html('<text class="graph__axis" x="4" y="{}">{}</text>', PR_TOP + 12, high),
        format_html('<text class="graph__axis" x="4" y="{}">{}</text>', PR_BOTTOM, low),
        format_html('<text class="graph__label" x="{}" y="{}">{}</text>', LEFT + 6, PR_TOP + 17, labels.pr),
        format_html(
            '<text class="graph__label" x="{}" y="{}">{}</text>', LEFT + 6, Q_TOP - 6, labels.quintile
        ),
    ]
    for q in range(1, 6):
        level = f"{q_y(q):.1f}"
        parts.append(format_html('<text class="graph__axis" x="8" y="{}">Q{}</text>', f"{q_y(q) + 4:.1f}", q))
        parts.append(
            format_html(
                '<line class="graph__grid" x1="{}" x2="{}" y1="{}" y2="{}"/>',
                LEFT,
                WIDTH - RIGHT,
                level,
                level,
            )
        )
    if low < 0 < high:
        zero = f"{pr_y(0):.1f}"
        parts.append(
            format_html(
                '<line class="graph__zero" x1="{}" x2="{}" y1="{}" y2="{}"/>', LEFT, WIDTH - RIGHT, zero, zero
            )
        )
    pr_line = " ".join(f"{_x(i, count):.1f},{pr_y(pr):.1f}" for i, (pr, _) in enumerate(points))
    parts.append(format_html('<polyline class="graph__pr" points="{}"/>', pr_line))
    steps: list[str] = []
    previous_y: float | None = None
    for i, (_, q) in enumerate(points):
        x, y = _x(i, count), q_y(q)
        if previous_y is not None:
            steps.append(f"{x:.1f},{previous_y:.1f}")
        steps.append(f"{x:.1f},{y:.1f}")
        previous_y = y
    parts.append(format_html('<polyline class="graph__quintile" points="{}"/>', " ".join(steps)))
    for i, (pr, q) in enumerate(points):
        x_text = f"{_x(i, count):.1f}"
        parts.append(
            format_html('<circle class="graph__dot" cx="{}" cy="{}" r="3"/>', x_text, f"{pr_y(pr):.1f}")
        )
        parts.append(
            format_html('<circle class="graph__qdot" cx="{}" cy="{}" r="2.5"/>', x_text, f"{q_y(q):.1f}")
        )
    parts.append(SafeString("</svg>"))
    return format_html("{}" * len(parts), *parts)
