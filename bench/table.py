"""`python bench/table.py [--quick] [--json]`: the live-table benchmark, run from a checkout.

Only calls `amigos.bench.table.main` (the same as `amigos bench table`). When no installed
`amigos` is found, the checkout's own `src` goes first on the path, so a bare clone runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.bench.table import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
