"""What every thin runner here shares: run a benchmark of `amigos.bench` from a checkout.

`python bench/<name>.py` finds this module beside it (a script's folder is first on the path). When
no installed `amigos` is found, the checkout's own `src` goes first on the path, so a bare clone runs
the benchmark; the rest of the command line goes to the benchmark's `main`.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def run_benchmark(module: str) -> int:
    """Import ``module`` (from the checkout's `src` when the package is not installed) and run its
    ``main`` on this command line's arguments; its exit status."""
    try:
        import amigos  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    status: int = importlib.import_module(module).main(sys.argv[1:])
    return status
