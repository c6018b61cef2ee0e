"""The speed of the machine a benchmark ran on, printed beside every figure.

The same code on the same kind of machine ran up to three times slower on some days than on
others, so a figure says little without the speed of the machine it was taken on. Every bench
prints this one number, measured the same way, so runs of different days can be compared.
"""

from __future__ import annotations

import time


def machine_loop_ns() -> float:
    """One turn of a plain Python loop, in nanoseconds (the best of five million-turn loops)."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)
