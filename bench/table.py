"""`python bench/table.py [--quick] [--json]`: the live-table benchmark, run from a checkout.

Only calls `amigos.bench.table.main` (the same as `amigos bench table`); bench/_checkout.py runs it
from a clone where the package is not installed.
"""

from __future__ import annotations

import sys

from _checkout import run_benchmark

if __name__ == "__main__":
    sys.exit(run_benchmark("amigos.bench.table"))
