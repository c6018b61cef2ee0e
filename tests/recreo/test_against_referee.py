"""`amigos recreo standings` must agree with the independent referee on many random event files."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from amigos.cli import main
from amigos.recreo.formats import format_for
from tests.recreo.generator import PLAYER_COUNTS, TARGETS, random_event
from tests.recreo.referee import REPEATERS, referee_standings, schedule, tie_breaks_used

SEEDS = range(240)


def run_cli(tmp_path: Path, event: dict[str, Any], capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event, ensure_ascii=False), encoding="utf-8")
    status = main(["recreo", "standings", str(path), *extra])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.err == ""
    return captured.out


def events() -> list[dict[str, Any]]:
    rng = random.Random(20261121)
    made = [random_event(rng) for _ in SEEDS]
    # Every format under every target at least once, whatever the dice said.
    made += [random_event(rng, players=n, target=t) for n in PLAYER_COUNTS for t in TARGETS]
    return made


EVENTS = events()


def test_the_referee_schedules_match_the_packaged_ones() -> None:
    """Two transcriptions of the same tables (the referee's by hand) must agree pair for pair."""
    for n in PLAYER_COUNTS:
        fmt = format_for(n)
        mine = [[(list(t.pair_a), list(t.pair_b)) for t in rnd.tables] for rnd in fmt.rounds]
        assert mine == schedule(n), n
        for rnd in fmt.rounds:
            repeaters = {p for t in rnd.tables for p in t.players if not t.counts(p)}
            assert repeaters == REPEATERS.get((n, rnd.number), set())


def test_cli_agrees_with_referee_on_random_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for index, event in enumerate(EVENTS):
        printed = json.loads(run_cli(tmp_path, event, capsys))
        assert printed == referee_standings(event), f"event #{index}: {json.dumps(event)}"


def test_csv_has_the_same_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for event in EVENTS[:40]:
        rows = list(csv.DictReader(io.StringIO(run_cli(tmp_path, event, capsys, "--csv"))))
        expected = referee_standings(event)["standings"]
        assert [{k: str(v) for k, v in row.items()} for row in expected] == rows


def test_the_random_events_cover_what_they_must() -> None:
    """The comparison is only worth something if the hard cases actually occur."""
    seen: set[Any] = set()
    for event in EVENTS:
        n, ends = len(event["players"]), {r.get("end", "target") for r in event["results"]}
        seen |= {("format", n), ("target", event["target"]), *(("end", e) for e in ends)}
        total_tables = sum(len(r) for r in schedule(n))
        seen.add("partial" if len(event["results"]) < total_tables else "complete")
        if event["penalties"]:
            seen.add("penalties")
        if any((n, r["round"]) in REPEATERS for r in event["results"]):
            seen.add(("non-counting", n))
        seen |= {("tie", k, event["target"] == "hands") for k in tie_breaks_used(event)}
        if event["stake"] and event["extra_payment"] and n <= 7 and len(event["results"]) == total_tables:
            seen.add("extra payment settled")
    expected = (
        {("format", n) for n in PLAYER_COUNTS}
        | {("target", t) for t in TARGETS}
        | {("end", e) for e in ("target", "suspended", "default")}
        | {"partial", "complete", "penalties", ("non-counting", 6), ("non-counting", 7)}
        | {("tie", k, hands) for k in ("h2h", "number") for hands in (False, True)}
        | {"extra payment settled"}
    )
    assert expected <= seen, expected - seen
    assert len(EVENTS) > 200


def test_the_installed_command_runs_as_a_process(tmp_path: Path) -> None:
    """A few files through a real process: exit status, stdout and stderr as a script sees them."""
    for event in EVENTS[:3]:
        path = tmp_path / "event.json"
        path.write_text(json.dumps(event), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "amigos.cli", "recreo", "standings", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == referee_standings(event)
