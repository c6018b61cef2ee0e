"""`amigos archive import FILE…`: fill the site's match archive from record files.

A file holds one record (amigos-record/1), a JSON list of records, or JSON Lines (one record per
line, read a line at a time); `-` reads standard input. Prints {"imported", "already", "refused"}
as JSON; each refused record gets one line on standard error (file, record number from 1, error
code, reason) and the exit status is then 2. Records that are fine are imported even when others
are refused. A file that is not a regular file, is too large, or is not strict JSON (amigos.cli.
jsonfile: NaN, a lone surrogate, deep nesting) gets one line on standard error, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from amigos.cli.jsonfile import JsonFileError, binary_stream, iter_json_values

DEFAULT_SETTINGS = "amigos.web.settings.dev"


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

    unreadable: list[str] = []

    def records() -> Iterator[tuple[str, Any]]:
        # Lazily, file after file: the importer takes a batch at a time, so a long JSON Lines file
        # is never held whole. A file refused whole is reported at once, and the others go on.
        for path in files:
            try:
                yield from _records(path, stdin)
            except JsonFileError as exc:
                print(f"amigos archive import: {path}: {exc.reason}", file=stderr)
                unreadable.append(path)

    report = import_records(records=records(), table_name=table, jobs=jobs)
    for label, error in report.refused:
        print(f"amigos archive import: {label}: {error.code}: {error.detail}", file=stderr)
    print(json.dumps(report.to_dict()), file=stdout)
    return 2 if unreadable or report.refused else 0


def _records(path: str, stdin: TextIO) -> Iterator[tuple[str, Any]]:
    from amigos.web.archive.errors import ArchiveError

    for line in iter_json_values(path, binary_stream(stdin)):
        label = f"{path}#{line.number}"
        if line.error is not None:
            yield label, ArchiveError("unreadable", line.error.reason)
        else:
            yield label, line.value
