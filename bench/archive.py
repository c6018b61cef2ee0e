"""The archive's benchmark from a checkout: `python bench/archive.py [--quick]`.

A thin runner around `amigos.bench.archive` (also `amigos bench archive`; see bench/_checkout.py); set
AMIGOS_DATABASE_URL to measure on PostgreSQL (the figures that count).
"""

from __future__ import annotations

import sys

from _checkout import run_benchmark

if __name__ == "__main__":
    sys.exit(run_benchmark("amigos.bench.archive"))
