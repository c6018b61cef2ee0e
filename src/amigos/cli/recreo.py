"""`amigos recreo standings FILE [--csv]`: the standings of an event file.

Every refusal (unreadable file, malformed JSON, an impossible event) is one line on standard error
and exit status 2, with nothing on standard output, so scripts can trust whatever they do read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

REFUSED = 2
#: An event file is a few kilobytes; like ``replay``, anything this big is refused unread.
MAX_FILE_BYTES = 16 * 1024 * 1024


class TooLarge(Exception):
    """A file over :data:`MAX_FILE_BYTES`."""


def register(sub: Any) -> None:
    parser = sub.add_parser("recreo", help="recreational events (Recreo): standings of an event file")
    actions = parser.add_subparsers(dest="recreo_command", metavar="ACTION", required=True)
    standings = actions.add_parser("standings", help="print the standings of an event file as JSON")
    standings.add_argument("file", metavar="FILE", help="an amigos-event/1 file ('-' for standard input)")
    standings.add_argument("--csv", action="store_true", help="print the rows as CSV with a header")
    standings.set_defaults(func=run)


def _read(path: str) -> str:
    """The file's text, read at most one byte past the limit (a 200 MB file costs 16 MB, not 426)."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    else:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES:
                raise TooLarge
            data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise TooLarge
    return data.decode("utf-8-sig")  # a byte-order mark (some editors add one) is not an error


def render_csv(rows: list[dict[str, Any]]) -> str:
    from amigos.recreo.export import standings_csv

    return standings_csv(rows)


def run(args: argparse.Namespace) -> int:
    from amigos.recreo.event import EventFileError, parse_event
    from amigos.recreo.standings import compute_standings

    path: str = args.file
    try:
        text = _read(path)
    except OSError as exc:
        print(f"{path}: cannot read the file: {exc.strerror or exc}", file=sys.stderr)
        return REFUSED
    except TooLarge:
        print(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, not an event file", file=sys.stderr)
        return REFUSED
    except UnicodeDecodeError as exc:
        print(f"{path}: not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return REFUSED
    try:
        event = parse_event(text)
    except EventFileError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return REFUSED
    result = compute_standings(event).as_dict()
    output = render_csv(result["standings"]) if args.csv else json.dumps(result, indent=2) + "\n"
    sys.stdout.buffer.write(output.encode("utf-8"))
    sys.stdout.flush()
    return 0
