"""The two options every short benchmark takes: ``--quick`` (CI's short mode) and ``--json``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def quick_and_json(prog: str, doc: str | None, argv: Sequence[str] | None) -> argparse.Namespace:
    """``argv`` read as a benchmark's command line: ``quick`` (smaller counts, for CI) and
    ``json`` (one JSON object only), described by the first line of the module's ``doc``."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--quick", action="store_true", help="smaller counts: the whole run takes seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    return parser.parse_args(list(argv) if argv is not None else None)
