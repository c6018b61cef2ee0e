"""The database calls' benchmark from a checkout: `python bench/db_calls.py [--quick] [--json]`.

A thin runner around `amigos.bench.db_calls` (also `amigos bench db_calls`; see bench/_checkout.py):
a socket command's database call with its connection kept and with a new one each time, on
PostgreSQL.
"""

from __future__ import annotations

import sys

from _checkout import run_benchmark

if __name__ == "__main__":
    sys.exit(run_benchmark("amigos.bench.db_calls"))
