"""A few runs of the real `amigos replay` command in a separate process: file and standard input,
accepted and refused records, with the exact exit status and streams."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.corpus.harness import disagreement, read_cli_output, referee_answer
from tests.referee.generate import generate_record


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "amigos.cli", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_file_and_stdin_agree_with_the_referee(tmp_path: Path) -> None:
    rng = random.Random(99)
    for name, players in (("amigos-200", 4), ("cuban-2v2", 4), ("fives-and-threes-250", 3)):
        text = json.dumps(generate_record(name, players, rng))
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        for result in (_run([str(path)]), _run(["-"], stdin=text)):
            answer = read_cli_output(result.returncode, result.stdout, result.stderr)
            assert answer.report is not None
            assert disagreement(answer, referee_answer(text)) is None


def test_refused_record_exits_2_with_one_located_line(tmp_path: Path) -> None:
    record = generate_record("draw-250", 2, random.Random(5))
    # The second seat can always lay at move 2: it draws from the full boneyard until a tile fits.
    record["hands"][0]["moves"].insert(1, "pass")
    text = json.dumps(record)
    result = _run(["-"], stdin=text)
    answer = read_cli_output(result.returncode, result.stdout, result.stderr)
    assert answer.where == (1, 2)
    assert disagreement(answer, referee_answer(text)) is None
    junk = _run(["-"], stdin="{not json")
    assert junk.returncode == 2 and junk.stdout == "" and len(junk.stderr.splitlines()) == 1
    assert "Traceback" not in junk.stderr


def test_missing_file_is_refused_without_a_traceback(tmp_path: Path) -> None:
    result = _run([str(tmp_path / "absent.json")])
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
