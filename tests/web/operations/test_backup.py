"""`amigos backup` and `amigos restore` (amigos.web.operations.backup): a backup restored into an
empty new database keeps the archive, the ratings and a correspondence game that can still be
played. On SQLite in the ordinary run, on PostgreSQL in `make test-pg` (a throwaway database,
dropped afterwards)."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from amigos.cli import main as amigos
from amigos.web.accounts.models import User
from amigos.web.archive.services import archive_match
from amigos.web.operations import backup
from amigos.web.tables import registry, services
from amigos.web.tables.models import Table
from tests.web.archive.records import record_obj
from tests.web.operations.restored_site import site_state

ROOT = Path(__file__).resolve().parents[3]
START = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)


def sqlite_database(path: Path) -> dict[str, Any]:
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}


def url_of(database: dict[str, Any]) -> str:
    if backup.kind_of(database) == backup.SQLITE:
        return f"sqlite:///{database['NAME']}"
    user = database.get("USER") or "postgres"
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    host, port = database.get("HOST") or "127.0.0.1", database.get("PORT") or 5432
    return f"postgresql://{user}{password}@{host}:{port}/{database['NAME']}"


@pytest.fixture
def empty_database(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A new, empty database of the kind the tests run on: a file, or a throwaway PostgreSQL database."""
    source = dict(connections["default"].settings_dict)
    if backup.kind_of(source) == backup.SQLITE:
        yield sqlite_database(tmp_path / "restored.sqlite3")
        return
    import psycopg

    name = f"amigos_restore_{os.getpid()}_{secrets.token_hex(4)}"
    admin = url_of({**source, "NAME": "postgres"})
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {**source, "NAME": name}
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.dump"
    junk.write_bytes(b"not a database")
    target = tmp_path / "target.sqlite3"
    for path, code in (
        (junk, "not_a_backup"),
        (tmp_path / "missing", "no_such_file"),
        (tmp_path, "not_a_backup"),
    ):
        with pytest.raises(backup.BackupError) as refused:
            backup.restore(path, sqlite_database(target))
        assert refused.value.code == code
    assert not target.exists()  # nothing was created


def test_a_backup_of_the_other_kind_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "site.dump"
    archive.write_bytes(backup.POSTGRESQL_MAGIC + b"\x01\x0e\x00")
    with pytest.raises(backup.BackupError) as refused:
        backup.restore(archive, sqlite_database(tmp_path / "target.sqlite3"))
    assert refused.value.code == "wrong_kind"


def make_sqlite(path: Path, rows: int) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x INTEGER)")
        connection.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(rows)])


def count_rows(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT count(*) FROM t").fetchone()[0])


def test_a_restore_never_merges_into_a_database_that_holds_tables(tmp_path: Path) -> None:
    make_sqlite(tmp_path / "a.sqlite3", 3)
    make_sqlite(tmp_path / "b.sqlite3", 5)
    backup.backup(tmp_path / "a.backup", sqlite_database(tmp_path / "a.sqlite3"))
    with pytest.raises(backup.BackupError) as refused:
        backup.restore(tmp_path / "a.backup", sqlite_database(tmp_path / "b.sqlite3"))
    assert refused.value.code == "not_empty"
    assert count_rows(tmp_path / "b.sqlite3") == 5


def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    make_sqlite(tmp_path / "a.sqlite3", 3)
    kept = tmp_path / "old.backup"
    kept.write_bytes(b"yesterday")
    with pytest.raises(backup.BackupError) as refused:
        backup.backup(kept, sqlite_database(tmp_path / "a.sqlite3"))
    assert refused.value.code == "file_exists"
    assert kept.read_bytes() == b"yesterday"
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


def test_the_commands_say_what_they_refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk"
    junk.write_text("nothing")
    assert amigos(["restore", str(junk)]) == 1
    assert "amigos restore: not_a_backup:" in capsys.readouterr().err
    assert amigos(["backup", str(junk)]) == 1
    assert "amigos backup: file_exists:" in capsys.readouterr().err


async def correspondence_in_play(make_player: Callable[..., User]) -> Table:
    """Two people and two computer players at a correspondence table, their match under way."""
    ana = await sync_to_async(make_player)("Ana")
    beto = await sync_to_async(make_player)("Beto")
    seats = {
        1: services.SeatChoice(level="easy"),
        2: services.SeatChoice(user_id=beto.pk),
        3: services.SeatChoice(level="easy"),
    }
    table = await sync_to_async(services.create_table)(
        organizer=ana, name="Por carta", variant="amigos-100", players=4, kind="correspondence", seats=seats
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    await actor.call(lambda: actor.accept(beto.pk))
    assert actor.status == "playing"
    await registry.stop_all()  # a stopped site: its leases released, nothing half written
    return table


@pytest.mark.django_db(transaction=True)
async def test_a_restored_backup_keeps_the_archive_the_ratings_and_a_game_in_play(
    make_player: Callable[..., User],
    empty_database: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    players = [await sync_to_async(make_player)(f"R{index}") for index in range(4)]
    await sync_to_async(archive_match)(
        source="table:900:match:1",
        record=record_obj("amigos-100", seed=2),
        seat_user_ids=[player.pk for player in players],
        table_name="Mesa archivada",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    table = await correspondence_in_play(make_player)

    before = json.loads(json.dumps(await sync_to_async(site_state)(table.pk)))
    assert before["changes"] == 4 and len(before["ratings"]) == 4
    assert before["table"][:2] == ["correspondence", "playing"]

    archive = tmp_path / "site.backup"
    source = dict(connections["default"].settings_dict)
    with pytest.MonkeyPatch.context() as patch:
        # The command reads the site's settings, as on a server: here, the test database.
        patch.setattr("amigos.cli.backup._database", lambda: source)
        assert await sync_to_async(amigos)(["backup", str(archive)]) == 0
        assert "wrote" in capsys.readouterr().out
        patch.setattr("amigos.cli.backup._database", lambda: empty_database)
        assert await sync_to_async(amigos)(["restore", str(archive)]) == 0

    # A site started on the restored database plays the game on.
    environment = {key: value for key, value in os.environ.items() if not key.startswith("AMIGOS_")}
    environment |= {
        "AMIGOS_DATABASE_URL": url_of(empty_database),
        "DJANGO_SETTINGS_MODULE": "amigos.web.settings.test",
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT),
    }
    ran = subprocess.run(
        [sys.executable, "-m", "tests.web.operations.restored_site", str(table.pk)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout.strip().splitlines()[-1])
    assert found["state"] == before  # the archive, the ratings and the table, as they were
    played = found["played"]
    assert (played["kind"], played["status"]) == ("correspondence", "playing")
    assert played["version_before"] >= before["table"][2]
    assert played["version_after"] > played["version_before"]
    assert played["events_stored"] >= played["version_after"]
