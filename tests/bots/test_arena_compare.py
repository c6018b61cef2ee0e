"""Two arena runs compared deal by deal: how a change to a level is judged against the level before."""

from __future__ import annotations

import io
import json
import math
import statistics
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.bots.arena import DealResult, paired_difference, read_deal_log
from amigos.cli import main as amigos_main

margins = st.tuples(st.integers(-150, 150), st.integers(-150, 150))


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[DealResult], list[DealResult]]:
    """Two runs over overlapping deals: each deal is in the first, the second, or both."""
    first: list[DealResult] = []
    second: list[DealResult] = []
    for index in draw(st.lists(st.integers(0, 40), min_size=1, max_size=25, unique=True)):
        where = draw(st.sampled_from(("both", "first", "second")))
        if where != "second":
            first.append(DealResult(index, draw(margins), 2, 1))
        if where != "first":
            second.append(DealResult(index, draw(margins), 2, 1))
    return first, second


@settings(max_examples=60, deadline=None)
@given(pair=runs())
def test_the_difference_is_the_mean_of_the_common_deals_differences(
    pair: tuple[list[DealResult], list[DealResult]],
) -> None:
    first, second = pair
    by_index = {result.index: result for result in second}
    common = [(result, by_index[result.index]) for result in first if result.index in by_index]
    if not common:
        with pytest.raises(ValueError):
            paired_difference(first, second)
        return
    figures = paired_difference(first, second)
    differences = [(sum(a.margins) - sum(b.margins)) / 2 for a, b in common]
    mean = statistics.fmean(differences)
    assert figures["deals"] == len(common)
    assert figures["difference"] == pytest.approx(mean, abs=1e-3)
    assert figures["first_points_per_hand"] == pytest.approx(
        statistics.fmean(sum(a.margins) / 2 for a, _ in common), abs=1e-3
    )
    low, high = figures["ci95"]
    assert low <= figures["difference"] <= high
    if len(common) > 1:
        half = 1.96 * statistics.stdev(differences) / math.sqrt(len(common))
        assert high - low == pytest.approx(2 * half, abs=2e-3)
    # Swapping the runs negates the difference and mirrors the interval.
    swapped = paired_difference(second, first)
    assert swapped["difference"] == pytest.approx(-figures["difference"], abs=1e-3)
    assert swapped["ci95"] == pytest.approx([-high, -low], abs=2e-3)


def test_a_run_against_itself_gains_nothing() -> None:
    run = [DealResult(index, (index * 7 % 23 - 11, 5 - index), 2, 1) for index in range(12)]
    figures = paired_difference(run, run)
    assert figures["deals"] == 12
    assert figures["first_points_per_hand"] == figures["second_points_per_hand"]
    assert figures["difference"] == 0.0 and figures["ci95"] == [0.0, 0.0]


def _arena_log(tmp_path: Path, name: str, a: str, first_deal: int) -> Path:
    log = tmp_path / name
    status = amigos_main(
        [
            *("arena", a, "easy", "--deals", "3", "--seed", "4", "--first-deal", str(first_deal)),
            *("--workers", "1", "--log", str(log), "--json"),
        ]
    )
    assert status == 0
    return log


def test_the_command_compares_two_logged_runs(tmp_path: Path) -> None:
    with redirect_stdout(io.StringIO()):
        normal = _arena_log(tmp_path, "normal.jsonl", "normal", 0)
        easy = _arena_log(tmp_path, "easy.jsonl", "easy", 1)  # deals 1 to 3: two in common
    out = io.StringIO()
    with redirect_stdout(out):
        assert amigos_main(["arena-compare", str(normal), str(easy), "--json"]) == 0
    figures = json.loads(out.getvalue())
    expected = paired_difference(
        read_deal_log(normal.read_text(encoding="utf-8").splitlines()),
        read_deal_log(easy.read_text(encoding="utf-8").splitlines()),
    )
    assert figures == expected and figures["deals"] == 2
    # easy against easy nets out every deal (each seat's generator is the deal's and the seat's).
    assert expected["second_points_per_hand"] == 0.0
    out = io.StringIO()
    with redirect_stdout(out):
        assert amigos_main(["arena-compare", str(normal), str(easy)]) == 0
    assert "over 2 deals both played" in out.getvalue()


def test_missing_logs_and_runs_without_a_common_deal_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first.jsonl"
    second = tmp_path / "second.jsonl"
    first.write_text(DealResult(0, (3, -1), 2, 1).to_json() + "\n", encoding="utf-8")
    second.write_text(DealResult(1, (3, -1), 2, 1).to_json() + "\n", encoding="utf-8")
    assert amigos_main(["arena-compare", str(first), str(second)]) == 2
    assert "no deal in common" in capsys.readouterr().err
    assert amigos_main(["arena-compare", str(first), str(tmp_path / "absent.jsonl")]) == 2
    assert "absent.jsonl" in capsys.readouterr().err
