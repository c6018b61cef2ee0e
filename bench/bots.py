"""Computer players' benchmark from a checkout: `python bench/bots.py [--quick] [--json]`.

A thin runner around `amigos.bench.bots` (also `amigos bench bots`); bench/_checkout.py runs it from
a clone where the package is not installed.
"""

from __future__ import annotations

import sys

from _checkout import run_benchmark

if __name__ == "__main__":
    sys.exit(run_benchmark("amigos.bench.bots"))
