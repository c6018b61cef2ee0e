"""The rating worked by hand on small examples, then every refusal of RATING-FORMAT.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amigos.cli import main
from amigos.rating import RatedMatch, match_changes, quintile
from tests.rating.cli import run_rating

FORMAT_EXAMPLE: dict[str, Any] = {
    "format": "amigos-rating/1",
    "players": ["ana", "beto", "caro", "dani", "eva"],
    "matches": [
        {"variant": "amigos-100", "teams": [["ana", "caro"], ["beto", "dani"]], "score": [104, 37]},
        {"variant": "amigos-hands", "teams": [["eva", "beto"], ["caro", "dani"]], "score": [2, 4]},
        {
            "variant": "amigos-200",
            "teams": [["ana", "beto"], ["caro", "eva"]],
            "score": [150, 90],
            "complete": False,
        },
    ],
}


def standings(data: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    status, out, err = run_rating(data)
    assert status == 0, err
    assert err == ""
    return {p["name"]: (p["pr"], p["quintile"], p["matches"]) for p in json.loads(out)["players"]}


def test_the_format_example_worked_by_hand() -> None:
    # Match 1: everybody at 0, all in Q1. d = 100 - 37 = 63 > 50: winners 1 + 3 + 1 + 1 = 6,
    # losers 1 - 2 + 0 + 0 = -1.
    # Match 2, quintiles before (N = 5): ana, caro 6 (rank 0, Q1); eva 0 (rank 2, Q3); beto, dani -1
    # (rank 3, Q4). caro and dani win juegos ganados (PP 0).
    #   caro: 1 + PT(eva: 1-3 -> +1) + PT(beto: 1-4 -> +1) = +3 -> 9
    #   dani: 1 + PT(eva: 4-3 = 1 -> +2) + PT(beto: 0 -> +1) = +4 -> 3
    #   eva (loses): 1 + PT(caro: 3-1 = 2 -> 0) + PT(dani: 3-4 = -1 -> -1) = 0 -> 0
    #   beto (loses): 1 + 0 + 0 = +1 -> 0
    # Match 3 is incomplete: nothing changes. Final ranks: caro 0 (Q1), ana 1 (Q2), dani 2 (Q3),
    # beto and eva 3 (floor(15/5) + 1 = Q4).
    assert standings(FORMAT_EXAMPLE) == {
        "ana": (6, 2, 1),
        "beto": (0, 4, 2),
        "caro": (9, 1, 2),
        "dani": (3, 3, 2),
        "eva": (0, 4, 1),
    }


def test_q5_beating_q1_worked_by_hand() -> None:
    data = {
        "format": "amigos-rating/1",
        "players": ["a", "b", "c", "d", "e"],
        "matches": [
            # d = 5: winners 1 + 1 + 1 + 1 = 4; losers 1 + 0 = 1. Then a, b Q1; c, d Q3; e Q5.
            {"variant": "amigos-100", "teams": [["a", "b"], ["c", "d"]], "score": [100, 95]},
            # e (Q5) and c (Q3) beat a (Q1) and d (Q3) at juegos ganados 4-0:
            #   e: 1 + (5-1 = 4 -> +5) + (5-3 = 2 -> +3) = 9;  c: 1 + (3-1 -> +3) + (0 -> +1) = 5 -> 6
            #   a: 1 + (1-5 = -4) + (1-3 = -2) = -5 -> -1;      d: 1 + (3-5 = -2) + 0 = -1 -> 0
            {"variant": "amigos-hands", "teams": [["e", "c"], ["a", "d"]], "score": [4, 0]},
        ],
    }
    assert standings(data) == {
        "a": (-1, 5, 2),
        "b": (4, 3, 1),
        "c": (6, 2, 2),
        "d": (0, 4, 2),
        "e": (9, 1, 1),
    }


@pytest.mark.parametrize(
    ("score", "winners", "losers"),
    [
        ([100, 91], 1 + 1 + 2, 1 + 0),  # d = 9
        ([100, 90], 1 + 2 + 2, 1 - 1),  # d = 10
        ([130, 50], 1 + 2 + 2, 1 - 1),  # d = 50 (the winners count 100, not 130)
        ([100, 49], 1 + 3 + 2, 1 - 2),  # d = 51
        ([0, 100], 1 + 3 + 2, 1 - 2),  # zapato
    ],
)
def test_pp_boundaries(score: list[int], winners: int, losers: int) -> None:
    match = RatedMatch("amigos-100", (("a", "b"), ("c", "d")), (score[0], score[1]))
    changes = match_changes(match, dict.fromkeys("abcd", 3))
    won, lost = ("ab", "cd") if score[0] >= 100 else ("cd", "ab")
    assert {changes[p] for p in won} == {winners}
    assert {changes[p] for p in lost} == {losers}


def test_pt_for_every_difference_of_quintiles() -> None:
    match = RatedMatch("amigos-hands", (("w1", "w2"), ("l1", "l2")), (4, 2))
    for own in range(1, 6):
        for other in range(1, 6):
            changes = match_changes(match, {"w1": own, "w2": own, "l1": other, "l2": other})
            up = own - other
            assert changes["w1"] == 1 + 2 * (up + 1 if up >= 1 else 1)
            assert changes["l1"] == 1 + 2 * (-up if up >= 1 else 0)


def test_quintiles_are_fifths_of_all_players() -> None:
    assert [quintile(rank, 10) for rank in range(10)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert [quintile(rank, 4) for rank in range(4)] == [1, 2, 3, 4]
    assert [quintile(rank, 7) for rank in range(7)] == [1, 1, 2, 3, 3, 4, 5]


def good(**match: Any) -> dict[str, Any]:
    base = {"variant": "amigos-100", "teams": [["a", "b"], ["c", "d"]], "score": [100, 20]}
    base.update(match)
    return {"format": "amigos-rating/1", "players": ["a", "b", "c", "d", "e"], "matches": [base]}


REFUSED: list[tuple[Any, str]] = [
    ("{not json", "not JSON"),
    ({**good(), "format": "amigos-rating/2"}, "format"),
    ({**good(), "players": ["a", "b", "a", "c", "d"]}, "twice"),
    ({**good(), "players": ["a", "b", "", "c", "d"]}, "non-empty"),
    ({**good(), "players": ["a", "b", 3, "c", "d"]}, "non-empty"),
    ({**good(), "players": "abcd"}, "players"),
    ({**good(), "matches": {}}, "matches"),
    (good(variant="cuban-2v2"), "match 1: unknown variant"),
    (good(variant="amigos-150"), "match 1: unknown variant"),
    (good(teams=[["a", "b"], ["c", "zoe"]]), "match 1: 'zoe' is not a registered player"),
    (good(teams=[["a", "b"], ["c"]]), "match 1: a team must be two players"),
    (good(teams=[["a", "b"], ["c", "d"], ["e", "a"]]), "match 1: teams"),
    (good(teams=[["a", "b"], ["c", "a"]]), "match 1: a player appears twice"),
    (good(teams=[["a", "a"], ["c", "d"]]), "match 1: a player appears twice"),
    (good(score=[100]), "match 1: score"),
    (good(score=[100, -1]), "match 1: score"),
    (good(score=[100, 2.5]), "match 1: score"),
    (good(score=[100, "20"]), "match 1: score"),
    (good(score=[True, 20]), "match 1: score"),
    (good(score=[99, 20]), "match 1: "),  # nobody reached the target
    (good(score=[100, 100]), "match 1: "),  # both did
    (good(variant="amigos-200", score=[150, 90]), "match 1: "),
    (good(variant="amigos-hands", score=[3, 1]), "match 1: "),
    (good(variant="amigos-hands", score=[4, 3]), "match 1: "),
    (good(variant="amigos-hands", score=[5, 2]), "match 1: "),
    (good(variant="amigos-hands", score=[6, 3]), "match 1: "),
    (good(complete="yes"), "match 1: complete"),
    (good(complete=1), "match 1: complete"),
    ({**good(), "matches": [good()["matches"][0], 7]}, "match 2: "),
]


@pytest.mark.parametrize(("data", "reason"), REFUSED)
def test_every_refusal_exits_2_with_one_line(data: Any, reason: str) -> None:
    status, out, err = run_rating(data)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("amigos rating: ")
    assert reason in err


@pytest.mark.parametrize(
    ("variant", "score"),
    [
        ("amigos-hands", [4, 0]),
        ("amigos-hands", [2, 4]),
        ("amigos-hands", [5, 3]),
        ("amigos-hands", [9, 11]),
        ("amigos-200", [200, 199]),
        ("amigos-200", [12, 231]),
    ],
)
def test_finished_matches_are_accepted(variant: str, score: list[int]) -> None:
    status, _, err = run_rating(good(variant=variant, score=score))
    assert status == 0, err


def test_an_incomplete_match_need_not_be_finished_and_changes_nothing() -> None:
    data = good(score=[40, 20], complete=False)
    assert standings(data) == {name: (0, 1, 0) for name in "abcde"}


def test_reads_a_file_through_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rating.json"
    path.write_text(json.dumps(FORMAT_EXAMPLE), encoding="utf-8")
    assert main(["rating", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0] == {
        "name": "ana",
        "pr": 6,
        "quintile": 2,
        "matches": 1,
    }
    assert main(["rating", str(tmp_path / "missing.json")]) == 2
