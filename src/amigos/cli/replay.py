"""`amigos replay FILE|-`: check a match record and print its results as JSON.

Exit status 0 with one JSON object on standard output; a record that cannot be read or breaks a
rule gives exit status 2, nothing on standard output and one line on standard error naming the
hand and the move (both from 1; 0 when the problem is outside any hand or move).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from amigos.engine.codec import replay_json

#: Records larger than this are refused unread (a match of any length is far smaller).
MAX_RECORD_BYTES = 16 * 1024 * 1024


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="check a match record and print its results as JSON", description=__doc__
    )
    parser.add_argument("file", help="the record file, or - for standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return replay_main(args.file, sys.stdin, sys.stdout, sys.stderr)


def replay_main(path: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Replay the record at ``path`` ("-": ``stdin``); print the report or one error line."""
    from amigos.engine.record import RecordError, parse_record
    from amigos.engine.replay import replay_record

    try:
        data = _read(path, stdin)
        report = replay_record(parse_record(data))
    except RecordError as exc:
        print(f"amigos replay: {exc}", file=stderr)
        return 2
    except Exception as exc:  # a bug of ours, not a bad record: say so, in one line
        print(f"amigos replay: internal error: {type(exc).__name__}: {exc}", file=stderr)
        return 1
    stdout.write(json.dumps(replay_json(report)) + "\n")
    return 0


def _read(path: str, stdin: TextIO) -> bytes:
    from amigos.engine.record import RecordError

    try:
        if path == "-":
            buffer = getattr(stdin, "buffer", None)
            if buffer is not None:
                data: bytes = buffer.read(MAX_RECORD_BYTES + 1)
            else:
                data = stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "surrogateescape")
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(0, 0, f"cannot read {path!r}: {exc.strerror or exc}") from exc
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(0, 0, "the record is too large")
    return data
