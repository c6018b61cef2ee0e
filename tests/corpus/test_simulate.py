"""Records written by the engine's own `amigos simulate` are legal for the referee, and replay to the
same report: the engine's writer and reader are checked by a reader they do not share."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from amigos.cli import main as amigos_main
from tests.corpus.harness import cli_answer, disagreement, referee_answer
from tests.referee.rules import variant_names

TABLES = [("amigos-100", 4), ("amigos-200", 4), ("amigos-hands", 4), ("cuban-2v2", 4), ("cuban-1v1", 2)] + [
    (name, players)
    for name in variant_names()
    if not name.startswith(("amigos", "cuban"))
    for players in (2, 3, 4)
]


def _simulate(name: str, players: int, seed: int, bots: bool = False) -> str:
    out = io.StringIO()
    args = ["simulate", "--variant", name, "--seed", str(seed), *(["--bots"] if bots else [])]
    if not name.startswith(("amigos", "cuban")):
        args += ["--players", str(players)]
    with contextlib.redirect_stdout(out):
        assert amigos_main(args) == 0
    return out.getvalue()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_simulated_records_replay_alike(name: str, players: int, tmp_path: Path) -> None:
    for seed in range(4):
        text = _simulate(name, players, seed)
        referee = referee_answer(text)
        assert referee.report is not None, (
            f"seed {seed}: the referee refuses the simulated record: {referee.detail}"
        )
        assert disagreement(cli_answer(text, tmp_path), referee) is None


@pytest.mark.parametrize(("name", "players"), [("amigos-200", 4), ("cuban-2v2", 4), ("all-fives-100", 3)])
def test_matches_played_by_the_computer_players_replay_alike(name: str, players: int, tmp_path: Path) -> None:
    for seed in range(2):
        text = _simulate(name, players, seed, bots=True)
        referee = referee_answer(text)
        assert referee.report is not None and referee.report["complete"], referee.detail
        assert disagreement(cli_answer(text, tmp_path), referee) is None
