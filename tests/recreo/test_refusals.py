"""Every refusal of the event format: exit status 2, nothing on stdout, one line saying what and where."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amigos.cli import main
from amigos.recreo.event import event_to_dict, parse_event
from tests.recreo.helpers import event_dict

GOOD = event_dict(5, [(1, 1, 112, 37), (2, 1, 100, 64)])


def refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, *extra: str) -> str:
    path = tmp_path / "event.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    status = main(["recreo", "standings", str(path), *extra])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith(f"{path}: ")
    return err


def changed(**fields: Any) -> str:
    return json.dumps({**GOOD, **fields})


def with_results(*results: Any) -> str:
    return changed(results=[{"round": r[0], "table": r[1], "score": [r[2], r[3]]} for r in results])


CASES: list[tuple[str, str, str]] = [
    # The refusals EVENT-FORMAT lists.
    ("unknown format", changed(format="amigos-event/2"), "'format': unknown format"),
    ("missing format", json.dumps({k: v for k, v in GOOD.items() if k != "format"}), "unknown format null"),
    ("unknown player count", changed(players=["a", "b", "c"]), "unknown player count 3"),
    ("nine players", changed(players=[str(i) for i in range(9)]), "unknown player count 9"),
    (
        "round that does not exist",
        with_results((1, 1, 100, 0), (2, 1, 100, 0), (6, 1, 100, 0)),
        "results[2] (round 6, table 1): round 6 does not exist",
    ),
    (
        "table that does not exist",
        with_results((1, 2, 100, 0)),
        "results[0] (round 1, table 2): table 2 does not exist",
    ),
    (
        "twice the same table",
        with_results((1, 1, 100, 0), (1, 1, 100, 20)),
        "results[1] (round 1, table 1): a second result for this table (the first is results[0])",
    ),
    ("tied score", with_results((1, 1, 100, 100)), "results[0] (round 1, table 1): tied score 100-100"),
    (
        "below target",
        with_results((1, 1, 99, 20)),
        "results[0] (round 1, table 1): score 99-20 did not reach",
    ),
    (
        "round k+1 before k",
        with_results((2, 1, 100, 0)),
        "results[0] (round 2, table 1): round 1 is incomplete (no result for table 1)",
    ),
    (
        "gap in a later round",
        with_results((1, 1, 100, 0), (3, 1, 100, 0)),
        "results[1] (round 3, table 1): round 2 is incomplete",
    ),
    # Junk and malformed input.
    ("not JSON", "{not json", "not valid JSON"),
    ("empty file", "", "not valid JSON"),
    ("a list", "[]", "must hold a JSON object"),
    ("NaN stake", changed().replace('"stake": 0', '"stake": NaN'), "NaN is not a number"),
    ("players not a list", changed(players="Ana"), "'players' must be a list"),
    ("empty name", changed(players=["", "b", "c", "d", "e"]), "players[0]"),
    ("number as name", changed(players=[1, "b", "c", "d", "e"]), "players[0]"),
    ("unknown target", changed(target=150), "'target' must be 100, 200"),
    ("boolean target", changed(target=True), "'target' must be"),
    ("string stake", changed(stake="10"), "'stake' must be a number"),
    ("negative stake", changed(stake=-1), "'stake' must be a number from 0 to 9999999.99, got -1"),
    ("extra payment not boolean", changed(extra_payment="yes"), "'extra_payment' must be true or false"),
    ("bad date", changed(date="21/11/2026"), "'date' must be a date"),
    ("name not a string", changed(name=5), "'name' must be a string"),
    ("results not a list", changed(results={}), "'results' must be a list"),
    (
        "missing results",
        json.dumps({k: v for k, v in GOOD.items() if k != "results"}),
        "'results' must be a list",
    ),
    ("result not an object", changed(results=[7]), "results[0]: 'results' must be an object"),
    (
        "round as string",
        changed(results=[{"round": "1", "table": 1, "score": [100, 0]}]),
        "'round' must be an integer",
    ),
    (
        "round zero",
        changed(results=[{"round": 0, "table": 1, "score": [100, 0]}]),
        "'round' must be from 1 to 2147483647, got 0",
    ),
    ("missing table", changed(results=[{"round": 1, "score": [100, 0]}]), "'table' must be an integer"),
    (
        "three scores",
        changed(results=[{"round": 1, "table": 1, "score": [100, 0, 3]}]),
        "'score' must be two",
    ),
    (
        "negative score",
        changed(results=[{"round": 1, "table": 1, "score": [100, -5]}]),
        "'score' must be two",
    ),
    ("float score", changed(results=[{"round": 1, "table": 1, "score": [100.0, 5]}]), "'score' must be two"),
    (
        "unknown end",
        changed(results=[{"round": 1, "table": 1, "score": [100, 5], "end": "rain"}]),
        "'end' must be",
    ),
    (
        "default without offender",
        changed(results=[{"round": 1, "table": 1, "score": [10, 5], "end": "default"}]),
        "default needs 'offender'",
    ),
    (
        "offender without default",
        changed(results=[{"round": 1, "table": 1, "score": [100, 5], "offender": "a"}]),
        "'offender' is only meaningful",
    ),
    (
        "suspended at target",
        changed(results=[{"round": 1, "table": 1, "score": [100, 5], "end": "suspended"}]),
        "not suspended",
    ),
    (
        "suspended tie",
        changed(results=[{"round": 1, "table": 1, "score": [50, 50], "end": "suspended"}]),
        "tied score 50-50",
    ),
    (
        "default after the end",
        changed(results=[{"round": 1, "table": 1, "score": [100, 5], "end": "default", "offender": "b"}]),
        "nothing left to forfeit",
    ),
    ("both over target", with_results((1, 1, 130, 100)), "both pairs reached the target 100"),
    (
        "hands already over",
        changed(target="hands", results=[{"round": 1, "table": 1, "score": [6, 1]}]),
        "already over at 5-1",
    ),
    (
        "hands short",
        changed(target="hands", results=[{"round": 1, "table": 1, "score": [4, 3]}]),
        "did not reach",
    ),
    ("penalties not a list", changed(penalties={}), "'penalties' must be a list"),
    ("penalty not an object", changed(penalties=[3]), "penalties[0]: 'penalties' must be an object"),
    (
        "penalty unknown player",
        changed(penalties=[{"round": 1, "player": 6, "points": 5}]),
        "player 6 does not exist",
    ),
    (
        "penalty unknown round",
        changed(penalties=[{"round": 9, "player": 1, "points": 5}]),
        "round 9 does not exist",
    ),
    (
        "penalty of 2**31 tantos",
        changed(penalties=[{"round": 1, "player": 1, "points": 2**31}]),
        "'points' must be from 0 to 168, got 2147483648",
    ),
    (
        "round of 2**31",
        changed(results=[{"round": 2**31, "table": 1, "score": [100, 0]}]),
        "'round' must be from 1 to 2147483647",
    ),
    (
        "score of 2**31",
        changed(results=[{"round": 1, "table": 1, "score": [2**31, 0]}]),
        "'score' must be two integers from 0 to 267",
    ),
    (
        "a score no hand can reach",
        changed(results=[{"round": 1, "table": 1, "score": [999, 0]}]),
        "'score' must be two integers from 0 to 267, got [999, 0]",
    ),
    ("stake of 10**7", changed(stake=10**7), "'stake' must be a number from 0 to 9999999.99"),
    ("stake with a tenth of a cent", changed(stake=0.001), "'stake' must be a number from 0"),
    (
        "negative penalty",
        changed(penalties=[{"round": 1, "player": 1, "points": -5}]),
        "'points' must be from 0 to 168, got -5",
    ),
]


@pytest.mark.parametrize(("content", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str) -> None:
    assert message in refuse(tmp_path, capsys, content)
    assert message in refuse(tmp_path, capsys, content, "--csv")


def test_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "not UTF-8" in refuse(tmp_path, capsys, b'{"format": "\xff"}')


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["recreo", "standings", str(tmp_path / "nope.json")])
    out, err = capsys.readouterr()
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert "cannot read the file" in err


def test_deeply_nested_junk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "not valid JSON" in refuse(tmp_path, capsys, "[" * 100_000 + "]" * 100_000)


def test_the_good_file_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    assert main(["recreo", "standings", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["rounds_complete"] == 2
    assert list(printed["standings"][0]) == [
        "rank", "player", "name", "points", "games_won", "effectiveness", "points_for", "points_against",
        "penalties", "bet_value", "extra_payment", "money",
    ]  # fmt: skip


def test_optional_fields_have_defaults_and_unknown_fields_are_kept_out_of_the_way() -> None:
    minimal = {
        "format": "amigos-event/1",
        "players": list("abcd"),
        "target": 200,
        "results": [],
        "notes": "x",
    }
    event = parse_event(json.dumps(minimal))
    assert (event.stake, event.extra_payment, event.penalties, event.name) == (0, False, (), "")


def test_export_then_import_gives_the_same_event() -> None:
    raw = {**GOOD, "stake": 2.5, "results": [
        {"round": 1, "table": 1, "score": [30, 60], "end": "default", "offender": "b"},
        {"round": 2, "table": 1, "score": [87, 64], "end": "suspended"},
    ], "penalties": [{"round": 2, "player": 3, "points": 10}]}  # fmt: skip
    event = parse_event(json.dumps(raw))
    again = parse_event(json.dumps(event_to_dict(event)))
    assert again == event


def test_castigos_under_the_hands_target_are_reported_but_rank_nobody() -> None:
    """The site offers no castigos under juegos ganados, but a file may carry them: they are listed
    and subtracted from the (otherwise zero) eficiencia, which the hands ranking never looks at."""
    from amigos.recreo.standings import compute_standings

    raw = {**GOOD, "target": "hands", "results": [{"round": 1, "table": 1, "score": [1, 4]}],
           "penalties": [{"round": 1, "player": 3, "points": 5}]}  # fmt: skip
    rows = {r.player: r for r in compute_standings(parse_event(json.dumps(raw))).rows}
    assert (rows[3].penalties, rows[3].effectiveness, rows[3].rank) == (5, -5, 1)


def test_an_integer_too_long_to_convert_is_refused_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "not valid JSON" in refuse(tmp_path, capsys, '{"stake": ' + "1" * 5000 + "}")


def test_a_name_that_is_not_text_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = changed().replace('"P1"', '"\\ud800"')
    assert "players[0]: the name is not valid Unicode text" in refuse(tmp_path, capsys, content, "--csv")


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "event.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    assert main(["recreo", "standings", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["rounds_complete"] == 2
