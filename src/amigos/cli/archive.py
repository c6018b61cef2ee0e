"""`amigos archive import FILE…`: fill the site's match archive from record files.

A file holds one record (amigos-record/1), a JSON list of records, or JSON Lines (one record per
line); `-` reads standard input. Prints {"imported", "already", "refused"} as JSON; each refused
record gets one line on standard error (file, record number from 1, error code, reason) and the
exit status is then 2. Records that are fine are imported even when others are refused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

DEFAULT_SETTINGS = "amigos.web.settings.dev"


class _Unreadable(Exception):
    pass


def register(sub: Any) -> None:
    parser = sub.add_parser("archive", help="the match archive (import records)")
    actions = parser.add_subparsers(dest="archive_command", metavar="ACTION", required=True)
    importer = actions.add_parser("import", help="import match records into the archive")
    importer.add_argument(
        "files", nargs="+", metavar="FILE", help="record files (JSON, a JSON list, JSON Lines) or -"
    )
    importer.add_argument("--table", default="", help="table name for records that do not name one")
    importer.add_argument(
        "--jobs", type=int, default=None, help="processes replaying the records (default: one per processor)"
    )
    importer.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    import django

    django.setup()
    if args.jobs is not None and args.jobs < 1:
        print("amigos archive import: --jobs must be at least 1", file=sys.stderr)
        return 2
    return import_main(args.files, args.table, sys.stdin, sys.stdout, sys.stderr, jobs=args.jobs)


def import_main(
    files: list[str], table: str, stdin: TextIO, stdout: TextIO, stderr: TextIO, jobs: int | None = None
) -> int:
    from amigos.web.archive.services.imports import import_records

    status = 0
    records: list[tuple[str, Any]] = []
    for path in files:
        try:
            records.extend(_records(path, stdin))
        except _Unreadable as exc:
            print(f"amigos archive import: {path}: {exc}", file=stderr)
            status = 2
    report = import_records(records=records, table_name=table, jobs=jobs)
    for label, error in report.refused:
        print(f"amigos archive import: {label}: {error.code}: {error.detail}", file=stderr)
        status = 2
    print(json.dumps(report.to_dict()), file=stdout)
    return status


def _records(path: str, stdin: TextIO) -> Iterator[tuple[str, Any]]:
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise _Unreadable(f"cannot read: {getattr(exc, 'strerror', None) or exc}") from exc
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            decoded = [json.loads(line) for line in lines]
        except ValueError as exc:
            raise _Unreadable("not JSON, a JSON list or JSON Lines") from exc
        for number, record in enumerate(decoded, start=1):
            yield f"{path}#{number}", record
        return
    items = whole if isinstance(whole, list) else [whole]
    for number, record in enumerate(items, start=1):
        yield f"{path}#{number}", record
