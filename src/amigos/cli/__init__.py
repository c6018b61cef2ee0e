"""The `amigos` command.

Each subcommand lives in its own module under `amigos.cli` and exposes
``register(subparsers)``. Modules import their heavy dependencies (Django, the
bots, the benchmarks) inside the command function, so `amigos replay` starts
fast and works with nothing but the engine.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# The subcommands' modules, in the order of `amigos --help`.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "amigos.cli.replay",
    "amigos.cli.simulate",
    "amigos.cli.bench",
    "amigos.cli.arena",
    "amigos.cli.recreo",
    "amigos.cli.serve",
    "amigos.cli.rating",
    "amigos.cli.archive",
    "amigos.cli.backup",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="amigos", description="Amigos por el Dominó")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    result: int = func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
