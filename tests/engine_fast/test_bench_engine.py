"""The engine benchmark's output shape (tiny counts; times are never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from amigos.bench import engine as bench_engine
from amigos.cli import main as amigos_main

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "hands_per_second",
    "reference_hands_per_second",
    "matches_per_second",
    "speedup",
    "matches_via",
    "readable_hands_per_second",
    "readable_matches_per_second",
    "machine_loop_ns",
}


@pytest.fixture
def tiny_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bench_engine.COUNTS, "quick", (30, 6, 2, 3, 1))


def test_json_shape_through_the_cli(tiny_counts: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert amigos_main(["bench", "engine", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) >= KEYS
    for key in ("hands_per_second", "matches_per_second", "readable_hands_per_second"):
        assert isinstance(figures[key], float) and figures[key] > 0
    assert isinstance(figures["machine_loop_ns"], float) and figures["machine_loop_ns"] > 0
    assert figures["quick"] is True
    assert figures["counts"]["hands"] == 30


def test_reference_missing_is_null_and_said_on_stderr(
    tiny_counts: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_engine, "reference_hands", lambda count, seed: False)
    assert bench_engine.main(["--quick", "--json"]) == 0
    captured = capsys.readouterr()
    figures = json.loads(captured.out)
    assert figures["reference_hands_per_second"] is None and figures["speedup"] is None
    assert "dominoes" in captured.err


def test_reference_keeps_the_global_random_state() -> None:
    import random

    random.seed(5)
    before = random.getstate()
    bench_engine.reference_hands(2, seed=1)
    assert random.getstate() == before


def test_thin_runner_works_from_a_checkout_without_the_package_installed(tmp_path: Path) -> None:
    """`python -S` skips site-packages (and the editable install): bench/engine.py must find src itself.

    Without site-packages the reference package is missing too, so this also runs the null path.
    """
    result = subprocess.run(
        [sys.executable, "-S", str(ROOT / "bench" / "engine.py"), "--quick", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert set(figures) >= KEYS
    assert figures["reference_hands_per_second"] is None
    assert "not installed" in result.stderr
