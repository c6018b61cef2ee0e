"""The soak bench's judgement and picture (bench/soak.py, issue 40): whether a sampled series keeps
growing, and an SVG plot of every series. Pure: no I/O, standard library only.

A series "grows" when it rises through the run, not when it steps up once and stays: the verdict
compares the median of the last third of the samples with the median of the middle third (the
first third is the warm-up: caches fill, pools open, the first matches end), and calls it growth
only when the last is higher by more than ``tolerance`` of the middle one *and* by more than
``floor`` in the series' own unit (a count of 12 file descriptors going to 14 is not a leak).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from xml.sax.saxutils import escape


def growth(values: Sequence[float], *, tolerance: float = 0.1, floor: float = 0.0) -> str:
    """``"flat"``, ``"grows"`` or ``"too_short"`` (fewer than six samples: no thirds to compare)."""
    if len(values) < 6:
        return "too_short"
    third = len(values) // 3
    middle = statistics.median(values[third : 2 * third])
    last = statistics.median(values[2 * third :])
    rise = last - middle
    if rise > floor and rise > tolerance * abs(middle):
        return "grows"
    return "flat"


def _text(value: str) -> str:
    """``value`` escaped for XML, without the characters XML 1.0 cannot hold at all."""
    kept = "".join(
        char
        for char in value
        if char in "\t\n\r"
        or ("\x20" <= char <= "\ud7ff")
        or ("\ue000" <= char <= "\ufffd")
        or char >= "\U00010000"
    )
    return escape(kept)


def svg_plot(series: dict[str, Sequence[float]], seconds: Sequence[float], title: str) -> str:
    """One small line chart per series, stacked, each scaled to its own range, with its minimum
    and maximum written beside it (the shape matters here, not a common scale)."""
    width, height, gap, left = 640, 90, 30, 10
    total = len(series) * (height + gap) + gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total}" '
        f'viewBox="0 0 {width} {total}" font-family="sans-serif" font-size="11">',
        f"<title>{_text(title)}</title>",
    ]
    end = max(seconds) if seconds else 1.0
    for number, (name, values) in enumerate(series.items()):
        top = gap + number * (height + gap)
        parts.append(f'<text x="{left}" y="{top - 8}">{_text(name)}</text>')
        parts.append(
            f'<rect x="{left}" y="{top}" width="{width - 2 * left}" height="{height}" '
            'fill="none" stroke="#999"/>'
        )
        if not values:
            continue
        low, high = min(values), max(values)
        span = (high - low) or 1.0
        points = " ".join(
            f"{left + (width - 2 * left) * (moment / (end or 1.0)):.1f},"
            f"{top + height - height * ((value - low) / span):.1f}"
            for moment, value in zip(seconds, values, strict=False)
        )
        parts.append(f'<polyline points="{points}" fill="none" stroke="#1f5fa8" stroke-width="1.5"/>')
        parts.append(
            f'<text x="{width - left - 4}" y="{top + 12}" text-anchor="end">max {high:g}</text>'
            f'<text x="{width - left - 4}" y="{top + height - 4}" text-anchor="end">min {low:g}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
