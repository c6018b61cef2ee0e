"""The archive's benchmark from a checkout: `python bench/archive.py [--quick]`.

A thin runner around `amigos.bench.archive` (also `amigos bench archive`); set AMIGOS_DATABASE_URL
to measure on PostgreSQL (the figures that count).
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.bench.archive import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
