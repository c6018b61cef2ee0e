"""The command's plumbing: standard input, CSV quoting, names in any alphabet."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

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
