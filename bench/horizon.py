"""The horizon estimate's benchmark from a checkout: `python bench/horizon.py [--quick] [--json]`.

A thin runner around `amigos.bench.bots` (also `amigos bench horizon`); it puts the checkout's `src`
on the path when the package is not installed, so it runs straight from a clone.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import amigos  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from amigos.bench.horizon import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
