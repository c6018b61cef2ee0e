"""`amigos rating FILE|-`: the PR and quintile of every registered player from an amigos-rating/1 file.

Exit 0 with one JSON object on standard output; exit 2 with nothing on standard output and one line
on standard error (naming the match, from 1) for a file RATING-FORMAT.md refuses.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO


def register(sub: Any) -> None:
    parser = sub.add_parser("rating", help="compute PR points and quintiles from a rating file")
    parser.add_argument("file", help="an amigos-rating/1 file, or - for standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return rating_main(args.file, sys.stdin, sys.stdout, sys.stderr)


def rating_main(path: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    from amigos.rating import RatingInputError, parse_rating_file, rate, rating_output

    try:
        if path == "-":
            data: bytes = stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        print(f"amigos rating: cannot read {path}: {exc.strerror}", file=stderr)
        return 2
    try:
        parsed = parse_rating_file(data)
        standings = rate(parsed.players, parsed.matches)
    except RatingInputError as exc:
        print(f"amigos rating: {exc}", file=stderr)
        return 2
    print(json.dumps(rating_output(standings), ensure_ascii=False), file=stdout)
    return 0
