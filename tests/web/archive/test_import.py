"""`amigos archive import`: records into the archive, names to accounts, refusals reported."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amigos.cli.archive import import_main
from amigos.web.accounts.models import User
from amigos.web.archive.models import ArchivedMatch, PlayerRating
from tests.web.archive.records import record_obj

pytestmark = pytest.mark.django_db


def run(files: list[str], stdin: str = "", jobs: int | None = 1) -> tuple[int, dict[str, Any], list[str]]:
    out, err = io.StringIO(), io.StringIO()
    status = import_main(files, "Importada", io.StringIO(stdin), out, err, jobs=jobs)
    return status, json.loads(out.getvalue()), err.getvalue().splitlines()


def named(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    return {**record, "players": names}


def test_names_map_to_accounts_and_a_full_table_is_rated(
    tmp_path: Path, make_player: Callable[..., User]
) -> None:
    users = [make_player(name) for name in ("Ana", "Beto", "Caro", "Dani")]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(named(record_obj("amigos-100", seed=2), ["ana", "BETO", "Caro", "Dani"])))
    status, summary, errors = run([str(path)])
    assert (status, summary, errors) == (0, {"imported": 1, "already": 0, "refused": 0}, [])
    match = ArchivedMatch.objects.get()
    assert [seat.user_id for seat in match.seats.order_by("seat")] == [user.pk for user in users]
    assert match.table_name == "Importada" and match.rating_sequence == 1
    assert PlayerRating.objects.count() == 4


def test_unknown_and_repeated_names_are_guests_and_nobody_is_rated(
    tmp_path: Path, make_player: Callable[..., User]
) -> None:
    make_player("Ana")
    record = named(record_obj("amigos-hands", seed=3), ["Ana", "Eva", "Zoe", "Ana"])
    record.update(
        table="Mesa del parque", ended_at="2026-02-01T21:30:00-06:00", started_at="2026-02-01T21:00:00-06:00"
    )
    path = tmp_path / "guests.json"
    path.write_text(json.dumps(record))
    assert run([str(path)])[0] == 0
    match = ArchivedMatch.objects.get()
    seats = list(match.seats.order_by("seat"))
    assert seats[0].user is not None and seats[0].user.display_name == "Ana"
    assert [seat.user_id for seat in seats[1:]] == [None, None, None]  # unknown, unknown, repeated
    assert [seat.name for seat in seats] == ["Ana", "Eva", "Zoe", "Ana"]
    assert not any(seat.is_computer for seat in seats)
    assert match.table_name == "Mesa del parque"
    assert match.ended_at.isoformat() == "2026-02-02T03:30:00+00:00"
    assert match.rating_sequence is None and not PlayerRating.objects.exists()


def test_lists_json_lines_and_standard_input_and_a_second_import_changes_nothing(tmp_path: Path) -> None:
    records = [record_obj("amigos-200", seed=seed) for seed in (1, 2)]
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(records))
    lines = tmp_path / "lines.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in [record_obj("cuban-2v2", seed=4), records[0]]) + "\n")
    status, summary, _ = run([str(listed), str(lines), "-"], stdin=json.dumps(record_obj("draw-100", seed=5)))
    assert status == 0
    assert summary == {"imported": 4, "already": 1, "refused": 0}
    assert run([str(listed)])[1] == {"imported": 0, "already": 2, "refused": 0}
    assert ArchivedMatch.objects.count() == 4


def test_refused_records_are_named_and_the_others_imported(tmp_path: Path) -> None:
    broken = record_obj("amigos-100", seed=6)
    broken["hands"][0]["moves"][0] = "9-9"
    bad_time = {**record_obj("amigos-100", seed=7), "ended_at": "yesterday"}
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([record_obj("amigos-100", seed=8), broken, bad_time, 42]))
    # Two worker processes replay the records; the refusals travel back intact.
    status, summary, errors = run([str(path), str(tmp_path / "missing.json")], jobs=2)
    assert status == 2
    assert summary == {"imported": 1, "already": 0, "refused": 3}
    assert any("missing.json: cannot read" in line for line in errors)
    assert any(f"{path}#2: record-invalid: hand 1, move 1" in line for line in errors)
    assert any(f"{path}#3: time-invalid" in line for line in errors)
    assert any(f"{path}#4: record-invalid" in line for line in errors)
    assert ArchivedMatch.objects.count() == 1


def test_an_import_rates_like_the_command(tmp_path: Path, make_player: Callable[..., User]) -> None:
    from amigos.web.archive.selectors import site_rating_file
    from tests.rating.cli import run_rating
    from tests.rating.referee import referee_rating

    names = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi"]
    users = {name: make_player(name) for name in names}
    records = []
    for number in range(9):
        seated = [names[(number + step * 2) % len(names)] for step in range(4)]
        variant = ("amigos-100", "amigos-200", "amigos-hands")[number % 3]
        records.append(named(record_obj(variant, seed=60 + number), seated))
    records.insert(4, named(record_obj("amigos-100", seed=70), ["Ana", "Beto", "Zoe", "Dani"]))  # a guest
    path = tmp_path / "season.json"
    path.write_text(json.dumps(records))
    status, summary, _ = run([str(path)], jobs=1)
    assert status == 0 and summary["imported"] == 10
    exported = site_rating_file()
    assert len(exported["matches"]) == 9  # the guest's match is not rated
    code, out, _ = run_rating(exported)
    assert code == 0
    command = json.loads(out)
    assert command == referee_rating(exported)
    site = {str(row.user_id): (row.pr, row.matches) for row in PlayerRating.objects.all()}
    for entry in command["players"]:
        assert site.get(entry["name"], (0, 0)) == (entry["pr"], entry["matches"])
    assert {str(user.pk) for user in users.values()} == {entry["name"] for entry in command["players"]}
