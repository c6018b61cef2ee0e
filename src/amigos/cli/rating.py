"""`amigos rating FILE|-`: the PR and quintile of every registered player from an amigos-rating/1 file.

Exit 0 with one JSON object on standard output; exit 2 with nothing on standard output and one line
on standard error (naming the match, from 1) for a file RATING-FORMAT.md refuses, and for one that
is not a regular file, is larger than 32 MiB or is not strict JSON (amigos.cli.jsonfile).
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
    from amigos.cli.jsonfile import JsonFileError, binary_stream, read_json
    from amigos.rating import RatingInputError, parse_rating_file, rate, rating_output

    try:
        data = read_json(path, binary_stream(stdin))
    except JsonFileError as exc:
        print(f"amigos rating: {path}: {exc.reason}", file=stderr)
        return 2
    try:
        parsed = parse_rating_file(data)
        standings = rate(parsed.players, parsed.matches)
    except RatingInputError as exc:
        print(f"amigos rating: {exc}", file=stderr)
        return 2
    print(json.dumps(rating_output(standings), ensure_ascii=False), file=stdout)
    return 0
