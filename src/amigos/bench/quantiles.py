"""The one percentile the benchmarks print, so that a bench's figures are all read the same way: a
load run's p99 of plays beside the p99 of its probe's commits, the lobby's round trips beside both.
"""

from __future__ import annotations

from collections.abc import Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (0.0 for none): the value at rank ``fraction × n``,
    rounded down, of the sorted values, the largest for a fraction of 1."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
