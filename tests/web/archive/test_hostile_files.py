"""Issue 36, item 7: `amigos rating` and `amigos archive import` read hostile files safely.

Both commands read through :mod:`amigos.cli.jsonfile`: a file that is not a regular file, is larger
than the documented limit, or is not strict JSON (NaN, a lone surrogate, deep nesting) gets one line
on standard error and exit status 2, never a traceback; JSON Lines are streamed; and the archive
stores only a record's own fields.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from amigos.cli import jsonfile
from amigos.cli.archive import import_main
from amigos.cli.rating import rating_main
from amigos.web.archive.models import ArchivedMatch
from amigos.web.archive.services import imports
from tests.web.archive.records import live_record_obj, record_obj

SRC = str(Path(__file__).resolve().parents[3] / "src")
RATING = {
    "format": "amigos-rating/1",
    "players": ["ana", "beto", "caro", "dani"],
    "matches": [{"variant": "amigos-100", "teams": [["ana", "caro"], ["beto", "dani"]], "score": [104, 37]}],
}


def run_import(files: list[str]) -> tuple[int, str, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    status = import_main(files, "", io.StringIO(""), out, err, jobs=1)
    return status, out.getvalue(), err.getvalue().splitlines()


def run_rating(path: str) -> tuple[int, str, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    status = rating_main(path, io.StringIO(""), out, err)
    return status, out.getvalue(), err.getvalue().splitlines()


def symlink_to_dev_zero(tmp_path: Path) -> Path:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    return link


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)  # nobody writes: opening it for reading must not wait
    return path


def directory(tmp_path: Path) -> Path:
    path = tmp_path / "folder.json"
    path.mkdir()
    return path


def sparse(size: int) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        path = tmp_path / "huge.json"
        with open(path, "wb") as handle:
            handle.truncate(size)  # a hole: no disk, no time
        return path

    return make


def text(content: str) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        path = tmp_path / "hostile.json"
        path.write_text(content, encoding="utf-8")
        return path

    return make


def with_players(names: str) -> str:
    """A rating file (one line) whose player list is written by hand, escapes and all."""
    return json.dumps(RATING).replace('["ana", "beto", "caro", "dani"]', names, 1)


DEEP = "[" * 100_000 + "]" * 100_000
NOT_TOO_DEEP_FOR_PYTHON = '{"format": "amigos-record/1", "players": ' + "[" * 200 + "]" * 200 + "}"

#: (what, how to make the file, words of the one-line reason)
HOSTILE: list[tuple[str, Callable[[Path], Path], str]] = [
    ("symlink to /dev/zero", symlink_to_dev_zero, "not a regular file (a character device)"),
    ("fifo", fifo, "not a regular file (a pipe)"),
    ("directory", directory, "not a regular file (a directory)"),
    ("deep nesting", text(DEEP), "nested deeper than 64"),
    ("nesting Python reads", text(NOT_TOO_DEEP_FOR_PYTHON), "nested deeper than 64"),
    ("NaN", text(json.dumps(RATING).replace("104", "NaN")), "NaN is not a JSON number"),
    ("Infinity", text(json.dumps(RATING).replace("104", "-Infinity")), "-Infinity is not a JSON number"),
    ("lone surrogate", text(with_players('["\\ud800", "b", "c", "d"]')), "lone surrogate \\ud800"),
    ("not UTF-8", lambda tmp_path: not_utf8(tmp_path), "not UTF-8 text"),
]


def not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"players": ["Jos\xe9"]}')
    return path


@pytest.mark.parametrize(("what", "make", "reason"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_amigos_rating_refuses_in_one_line(tmp_path: Path, what: str, make: Any, reason: str) -> None:
    path = make(tmp_path)
    status, out, errors = run_rating(str(path))
    assert (status, out) == (2, "")
    assert len(errors) == 1 and errors[0].startswith(f"amigos rating: {path}: ") and reason in errors[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "make", "reason"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_amigos_archive_import_refuses_in_one_line(tmp_path: Path, what: str, make: Any, reason: str) -> None:
    path = make(tmp_path)
    status, out, errors = run_import([str(path)])
    assert status == 2
    # A file refused whole, or (JSON Lines) its one line refused as a record.
    refused = 1 if errors and f"{path}#1: unreadable: " in errors[0] else 0
    assert json.loads(out) == {"imported": 0, "already": 0, "refused": refused}
    assert len(errors) == 1 and errors[0].startswith(f"amigos archive import: {path}") and reason in errors[0]
    assert not ArchivedMatch.objects.exists()


def test_a_file_over_the_documented_size_is_refused_unread(tmp_path: Path) -> None:
    rating = sparse(jsonfile.DOCUMENT_MAX_BYTES + 1)(tmp_path)
    assert run_rating(str(rating))[::2] == (2, [f"amigos rating: {rating}: larger than 32 MiB"])


@pytest.mark.django_db
def test_an_import_over_the_documented_size_is_refused_unread(tmp_path: Path) -> None:
    lines = sparse(jsonfile.LINES_FILE_MAX_BYTES + 1)(tmp_path)
    assert run_import([str(lines)])[::2] == (2, [f"amigos archive import: {lines}: larger than 4096 MiB"])


@pytest.mark.django_db
def test_a_document_over_its_limit_is_refused_after_reading_no_more_than_it(tmp_path: Path) -> None:
    """A single JSON document (not JSON Lines) is read whole, so it has the smaller limit."""
    path = tmp_path / "list.json"
    with open(path, "wb") as handle:
        handle.write(b"[\n")
        handle.truncate(jsonfile.DOCUMENT_MAX_BYTES + 10)
    assert run_import([str(path)])[::2] == (2, [f"amigos archive import: {path}: larger than 32 MiB"])


def test_the_commands_in_a_real_process_say_one_line(tmp_path: Path) -> None:
    """As the probe ran them: a shell, a symlink to /dev/zero, nothing on standard output."""
    link = symlink_to_dev_zero(tmp_path)
    deep = text(DEEP)(tmp_path)
    for path in (link, deep):
        done = subprocess.run(
            [sys.executable, "-m", "amigos.cli", "rating", str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": SRC},
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stdout) == (2, "")
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.django_db
def test_a_bad_line_of_json_lines_is_one_refusal_and_the_others_are_imported(tmp_path: Path) -> None:
    good = [record_obj("amigos-100", seed=seed) for seed in (31, 32)]
    lines = [
        json.dumps(good[0]),
        json.dumps(good[0]).replace('"leader": 0', '"leader": NaN'),
        json.dumps(good[1]),
    ]
    path = tmp_path / "lines.jsonl"
    path.write_text("\n".join(lines) + "\n")
    status, out, errors = run_import([str(path)])
    assert status == 2 and json.loads(out) == {"imported": 2, "already": 0, "refused": 1}
    assert errors == [f"amigos archive import: {path}#2: unreadable: not JSON: NaN is not a JSON number"]


@pytest.mark.django_db
def test_json_lines_are_read_a_batch_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: when the first batch is written, only that batch's lines were decoded."""
    monkeypatch.setattr(imports, "BATCH", 4)
    records = [record_obj("amigos-100", seed=40 + n, hands=1) for n in range(13)]
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    decoded = 0
    held: list[int] = []
    real_loads, real_write = json.loads, imports._write_batch

    def counting_loads(*args: Any, **kwargs: Any) -> Any:
        nonlocal decoded
        decoded += 1
        return real_loads(*args, **kwargs)

    def spying_write(items: list[Any], accounts: Any, report: imports.ImportReport) -> None:
        held.append(decoded - (report.imported + report.already + len(report.refused)))
        real_write(items, accounts, report)

    monkeypatch.setattr(json, "loads", counting_loads)
    monkeypatch.setattr(imports, "_write_batch", spying_write)
    status, out, _ = run_import([str(path)])
    assert status == 0 and real_loads(out)["imported"] == 13
    assert len(held) == 4 and max(held) <= 4  # never more than a batch of decoded records at once


@pytest.mark.django_db
def test_only_the_records_own_fields_are_stored(tmp_path: Path) -> None:
    record = live_record_obj()
    junk = {**record, "junk": "x" * 10_000, "started_at": "2026-02-01T21:00:00-06:00"}
    junk["hands"] = [{**hand, "junk": [1, 2, 3]} for hand in record["hands"]]
    if "cards" in junk:
        junk["cards"] = [{**card, "junk": True} for card in junk["cards"]]
    path = tmp_path / "junk.json"
    path.write_text(json.dumps(junk))
    status, _, errors = run_import([str(path)])
    assert (status, errors) == (0, [])
    stored = ArchivedMatch.objects.get().record
    assert stored == record  # every field of the format and of live tables, and nothing else
    assert "junk" not in json.dumps(stored) and "started_at" not in stored
    # The same record without the junk is the same match.
    path.write_text(json.dumps({**record, "started_at": "2026-02-01T21:00:00-06:00"}))
    assert json.loads(run_import([str(path)])[1]) == {"imported": 0, "already": 1, "refused": 0}


@pytest.mark.django_db
def test_long_records_close_a_batch_early(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch is bounded by what its records hold, not only by their number."""
    records = [record_obj("amigos-200", seed=50 + n) for n in range(3)]
    weight = min(imports._weight(record) for record in records)
    monkeypatch.setattr(imports, "BATCH_WEIGHT", weight)
    sizes: list[int] = []
    real_write = imports._write_batch

    def spying_write(items: list[Any], accounts: Any, report: imports.ImportReport) -> None:
        sizes.append(len(items))
        real_write(items, accounts, report)

    monkeypatch.setattr(imports, "_write_batch", spying_write)
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    assert run_import([str(path)])[0] == 0
    assert sizes == [1, 1, 1]


@pytest.mark.django_db
def test_a_long_import_forgets_each_batchs_queries_under_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The command runs on the development settings by default, where Django keeps every query's
    SQL (each batch's records in it): a long import must not keep them all."""
    from django.db import connection

    settings.DEBUG = True
    monkeypatch.setattr(imports, "BATCH", 2)
    path = tmp_path / "six.jsonl"
    path.write_text(
        "".join(json.dumps(record_obj("amigos-100", seed=80 + n, hands=1)) + "\n" for n in range(6))
    )
    assert run_import([str(path)])[0] == 0
    inserts = [query for query in connection.queries if 'INSERT INTO "archive_archivedmatch"' in query["sql"]]
    assert len(inserts) <= 1
