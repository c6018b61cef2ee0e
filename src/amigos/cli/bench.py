"""`amigos bench engine|bots|archive|table|horizon|db_calls [--quick] [--json]`: run a benchmark, print its
figures."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

BENCHMARKS = {
    "engine": "amigos.bench.engine",
    "bots": "amigos.bench.bots",
    "archive": "amigos.bench.archive",
    "table": "amigos.bench.table",
    "horizon": "amigos.bench.horizon",
    "db_calls": "amigos.bench.db_calls",
}


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("bench", help="run a benchmark and print its figures")
    parser.add_argument("which", choices=sorted(BENCHMARKS))
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of that benchmark (--quick, --json)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(BENCHMARKS[args.which])
    result: int = module.main(args.rest)
    return result
