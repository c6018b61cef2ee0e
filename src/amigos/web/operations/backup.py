"""Copy the site's database to one file, and bring such a file back into an empty database.

PostgreSQL goes through its own tools, `pg_dump` and `pg_restore`, in their custom format (one
compressed file; `pg_restore --list` reads its contents): the dump is one consistent snapshot
taken while the site runs, and the restore is one transaction, so a restore that fails leaves the
target database as empty as it found it. Owners and privileges are left out, so an archive
restores under any role. The connection's details go to the tools in their environment
(`PGPASSWORD` and the rest), never on a command line that other users of the machine can read.

SQLite goes through its online backup API (`sqlite3.Connection.backup`), which copies a
consistent image even while the site writes; copying the file itself could catch a write halfway
(and would leave its write-ahead log behind).

Either way the file is written beside its final name and renamed once complete: a failed backup
never leaves a half file under the name a restore would trust. A restore refuses a database that
already holds tables (it never merges two sites), a file that is not a backup, and a file of the
other kind.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: What each kind of backup file starts with.
POSTGRESQL_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"
POSTGRESQL = "postgresql"
SQLITE = "sqlite"


class BackupError(Exception):
    """A backup or restore refused or failed; ``code`` says which (docs/deploy.md, "Backups")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def kind_of(database: Mapping[str, Any]) -> str:
    engine = str(database.get("ENGINE", ""))
    if engine.endswith("postgresql"):
        return POSTGRESQL
    if engine.endswith("sqlite3"):
        return SQLITE
    raise BackupError("unsupported_database", f"no backup for the database engine {engine!r}")


def kind_of_file(path: Path) -> str:
    """Which database ``path`` is a backup of."""
    try:
        with path.open("rb") as file:
            start = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError("no_such_file", f"{path} does not exist") from None
    except IsADirectoryError:
        raise BackupError("not_a_backup", f"{path} is a directory") from None
    if start.startswith(POSTGRESQL_MAGIC):
        return POSTGRESQL
    if start == SQLITE_MAGIC:
        return SQLITE
    raise BackupError("not_a_backup", f"{path} is neither a pg_dump archive nor a SQLite database")


def postgresql_environment(database: Mapping[str, Any]) -> dict[str, str]:
    """The libpq variables that name ``database`` for `pg_dump`, `pg_restore` and `psql`."""
    environment = dict(os.environ)
    options = database.get("OPTIONS") or {}
    for variable, value in (
        ("PGHOST", database.get("HOST")),
        ("PGPORT", database.get("PORT")),
        ("PGUSER", database.get("USER")),
        ("PGPASSWORD", database.get("PASSWORD")),
        ("PGDATABASE", database.get("NAME")),
        ("PGSSLMODE", options.get("sslmode")),
    ):
        if value:
            environment[variable] = str(value)
    return environment


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            "missing_tool", f"{name} is not installed (Debian: apt-get install postgresql-client)"
        )
    return found


def _run(command: list[str], database: Mapping[str, Any], code: str) -> None:
    result = subprocess.run(  # noqa: S603 (a fixed tool and our own arguments)
        command, env=postgresql_environment(database), capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise BackupError(code, result.stderr.strip() or f"{command[0]} failed ({result.returncode})")


def backup(path: Path, database: Mapping[str, Any]) -> int:
    """Write ``database`` to ``path`` (which must not exist yet); the file's size in bytes."""
    if path.exists():
        raise BackupError("file_exists", f"{path} already exists; name a new file")
    if not path.parent.is_dir():
        raise BackupError("no_such_directory", f"{path.parent} is not a directory")
    kind = kind_of(database)
    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        if kind == POSTGRESQL:
            _run(
                [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}"],
                database,
                "dump_failed",
            )
        else:
            _sqlite_copy(Path(str(database["NAME"])), partial)
        partial.rename(path)
    finally:
        partial.unlink(missing_ok=True)
    return path.stat().st_size


def restore(path: Path, database: Mapping[str, Any]) -> None:
    """Bring the backup ``path`` into ``database``, which must hold no tables yet."""
    kind = kind_of(database)
    found = kind_of_file(path)
    if found != kind:
        raise BackupError("wrong_kind", f"{path} is a {found} backup; this site's database is {kind}")
    if kind == POSTGRESQL:
        if _postgresql_tables(database):
            raise BackupError("not_empty", f"the database {database.get('NAME')} already holds tables")
        _run(
            [
                _tool("pg_restore"),
                "--no-owner",
                "--no-privileges",
                "--exit-on-error",
                "--single-transaction",
                f"--dbname={database.get('NAME')}",
                str(path),
            ],
            database,
            "restore_failed",
        )
        return
    target = Path(str(database["NAME"]))
    if _sqlite_tables(target):
        raise BackupError("not_empty", f"the database {target} already holds tables")
    _sqlite_copy(path, target)


def _postgresql_tables(database: Mapping[str, Any]) -> int:
    import psycopg
    from psycopg.conninfo import make_conninfo

    names = {"HOST": "host", "PORT": "port", "USER": "user", "PASSWORD": "password", "NAME": "dbname"}
    conninfo = make_conninfo(**{name: str(database[key]) for key, name in names.items() if database.get(key)})
    try:
        with psycopg.connect(conninfo, connect_timeout=10) as connection:
            row = connection.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            ).fetchone()
    except psycopg.Error as error:
        raise BackupError("unreachable", f"the database did not answer: {error}") from None
    return int(row[0]) if row else 0


def _sqlite_tables(path: Path) -> int:
    if not path.exists() or path.stat().st_size == 0:
        return 0
    with sqlite3.connect(path) as connection:
        row = connection.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
    return int(row[0])


def _sqlite_copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError("no_such_file", f"{source} does not exist")
    origin = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(target)
        try:
            origin.backup(copy)
        finally:
            copy.close()
    finally:
        origin.close()
