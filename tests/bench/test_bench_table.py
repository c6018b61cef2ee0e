"""The live-table benchmark's output, with tiny counts: its shape, and that it drove real matches.

Times are never asserted (they are the machine's); what is asserted is that every scenario
played moves and that every match it played reached its target and opened the vote.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from amigos.bench import table as bench_table
from amigos.cli import main as amigos_main

ROOT = Path(__file__).resolve().parents[2]
TOP = {"scenarios", "rebuild_us_per_input", "rebuild_inputs", "quick", "counts", "python", "machine_loop_ns"}
FIGURES = ("move_us", "heartbeat_us", "deal_us", "engine_apply_us", "table_overhead_us")
COUNTED = ("moves", "heartbeats", "deals", "engine_applies", "matches", "reached_target")


def check(figures: dict[str, Any], matches: int) -> None:
    assert set(figures) >= TOP
    assert set(figures["scenarios"]) == {name for name, _, _ in bench_table.SCENARIOS}
    for name, row in figures["scenarios"].items():
        for key in FIGURES:
            assert isinstance(row[key], float), (name, key)
        for key in COUNTED:
            assert isinstance(row[key], int), (name, key)
        assert row["moves"] > 0 and row["deals"] > 0 and row["heartbeats"] > 0, name
        assert row["engine_applies"] >= row["moves"], name
        assert row["matches"] == row["reached_target"] == matches, name
    assert isinstance(figures["rebuild_us_per_input"], float) and figures["rebuild_inputs"] > 0
    assert isinstance(figures["machine_loop_ns"], float) and figures["machine_loop_ns"] > 0
    assert figures["quick"] is True


@pytest.fixture
def tiny_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bench_table.COUNTS, "quick", (1, 1))


def test_json_shape_through_the_cli(tiny_counts: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert amigos_main(["bench", "table", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    check(figures, matches=1)
    assert figures["counts"]["matches_per_scenario"] == 1


def test_the_table_printout_ends_with_the_json(tiny_counts: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_table.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("amigos-100") for line in lines)
    assert "machine_loop_ns" in "\n".join(lines[:-1])
    check(json.loads(lines[-1]), matches=1)


def test_the_recorded_match_rebuilds_and_the_engine_replays_it() -> None:
    """The match kept for `rebuild` is the first of amigos-100, whole; the engine's replay of the
    same hands ends each of them, so both measures cover the play that was timed."""
    played = bench_table.play("amigos-100", 4, matches=2, seed=7, record=True)
    assert played.reached_target == 2 and played.opened is not None
    assert bench_table.rebuild_seconds(played, 1) > 0
    assert bench_table.engine_replay(played.hands) > 0
    assert len(played.hands) == played.deals


def test_thin_runner_works_from_a_checkout_without_the_package_installed(tmp_path: Path) -> None:
    """`python -S` skips site-packages (and the editable install): bench/table.py finds src itself.
    The quick counts are the real ones here (a few seconds)."""
    result = subprocess.run(
        [sys.executable, "-S", str(ROOT / "bench" / "table.py"), "--quick", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    check(json.loads(result.stdout), matches=bench_table.COUNTS["quick"][0])
