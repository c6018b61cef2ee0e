"""The command's plumbing: standard input, CSV quoting, names in any alphabet."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from tests.recreo.helpers import event_dict


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "amigos.cli", "recreo", "standings", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


def test_reads_standard_input_and_quotes_csv_fields() -> None:
    raw = event_dict(4, [(1, 1, 100, 0)])
    raw["players"] = ['Ñandú, "el Rápido"', "Zoë", "李", "O'Neil"]
    done = run("-", "--csv", stdin=json.dumps(raw, ensure_ascii=False))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["name"] for r in rows] == ['Ñandú, "el Rápido"', "Zoë", "李", "O'Neil"]
    assert rows[0]["points"] == "3"
    as_json = run("-", stdin=json.dumps(raw))
    assert json.loads(as_json.stdout)["standings"][0]["name"] == 'Ñandú, "el Rápido"'


def test_refusal_from_standard_input_names_it() -> None:
    done = run("-", stdin="{}")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("-: ") and done.stderr.count("\n") == 1


def test_csv_names_are_never_formulas_nor_terminal_escapes(tmp_path: Path) -> None:
    """Regression: names like =1+1 and @SUM(A1), and ESC sequences, were written raw."""
    raw = event_dict(4, [(1, 1, 100, 0)])
    raw["players"] = ["=1+1", "@SUM(A1)", "\x1b[2J\x1b[31mRojo", "-2+3"]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    done = run(str(path), "--csv")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    names = [r["name"] for r in csv.DictReader(io.StringIO(done.stdout))]
    assert sorted(names) == sorted(["'=1+1", "'@SUM(A1)", "\\x1b[2J\\x1b[31mRojo", "'-2+3"])
    assert "\x1b" not in run(str(path)).stdout  # JSON escapes it as \u001b


def test_a_file_over_16_mb_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: a 200 MB file was read whole (426 MB of memory); like `replay`, refuse it."""
    from amigos.cli import main

    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: nothing is written, nothing should be read
    tracemalloc.start()
    try:
        status = main(["recreo", "standings", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and "larger than 16 MB" in err
    assert peak < 17 * 1024 * 1024  # at most the limit was read, never the whole file
