"""`amigos backup FILE` and `amigos restore FILE`: the site's database to one file and back.

PostgreSQL through `pg_dump`/`pg_restore` (custom format), SQLite through its backup API; see
`amigos.web.operations.backup` and docs/deploy.md, "Backups". Both read the site's settings
(DJANGO_SETTINGS_MODULE, AMIGOS_DATABASE_URL) as `amigos serve` does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    backup = sub.add_parser("backup", help="copy the site's database to FILE (pg_dump or SQLite's backup)")
    backup.add_argument("file", type=Path, help="the backup to write (must not exist yet)")
    backup.set_defaults(func=run_backup)
    restore = sub.add_parser("restore", help="bring a backup FILE into the site's (empty) database")
    restore.add_argument("file", type=Path, help="a file written by `amigos backup`")
    restore.set_defaults(func=run_restore)


def _database() -> dict[str, Any]:
    from amigos.cli.serve import _setup

    _setup()
    from django.conf import settings

    return dict(settings.DATABASES["default"])


def run_backup(args: argparse.Namespace) -> int:
    from amigos.web.operations.backup import BackupError, backup

    try:
        size = backup(args.file, _database())
    except BackupError as error:
        print(f"amigos backup: {error.code}: {error.message}", file=sys.stderr)
        return 1
    print(f"amigos backup: wrote {args.file} ({size} bytes)")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from amigos.web.operations.backup import BackupError, restore

    try:
        restore(args.file, _database())
    except BackupError as error:
        print(f"amigos restore: {error.code}: {error.message}", file=sys.stderr)
        return 1
    print(f"amigos restore: {args.file} restored; run `amigos manage migrate` if this code is newer")
    return 0
