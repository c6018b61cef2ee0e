"""The codec of a table's log (`log_codec`): every entry survives a trip through its stored row,
rows of older versions still read, and no kind's name is spelt anywhere but in the codec.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import amigos.web
from amigos.web import jsontext
from amigos.web.tables import log_codec, log_entries
from amigos.web.tables.log_entries import (
    CardGiven,
    Disconnected,
    HandStarted,
    MatchEnded,
    Passed,
    Played,
    TableCancelled,
    Unrecognized,
    VoteCast,
)

WEB = Path(amigos.web.__file__).resolve().parent

#: Every typed entry class (the union `LogEntry` names them all but `Unrecognized`).
CLASSES = sorted(log_codec.KIND, key=lambda kind: kind.__name__)

# -- values to build entries from ---------------------------------------------------------------

_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-:0123456789", max_size=12)
_seat = st.integers(min_value=0, max_value=3)
_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), _words)
#: A JSON value as the engine's codec writes them (objects with text keys, lists, leaves).
_json = st.recursive(
    _json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_words, inner, max_size=3)),
    max_leaves=8,
)
_tile = st.builds(lambda a, b: f"{a}-{b}", st.integers(0, 9), st.integers(0, 9))


def _value(draw: st.DrawFn, name: str, annotation: str) -> Any:
    """A value for one field of an entry, by its annotation (the entries' fields are few kinds)."""
    if name == "seat" and annotation == "Json":
        return draw(st.dictionaries(_words, _json_leaf, max_size=4))
    table: dict[str, st.SearchStrategy[Any]] = {
        "int": st.integers(-5, 10_000),
        "int | None": st.none() | st.integers(-5, 10_000),
        "str": _words,
        "str | None": st.none() | _words,
        "bool": st.booleans(),
        "Json": _json,
        "dict[str, int]": st.dictionaries(_words, st.integers(0, 30), max_size=4),
        "tuple[str, ...]": st.tuples(_words, _words) | st.just(()),
        "tuple[int, ...]": st.lists(st.integers(0, 9), max_size=4).map(tuple),
        "tuple[tuple[str, ...], ...]": st.lists(st.lists(_tile, max_size=4).map(tuple), max_size=4).map(
            tuple
        ),
        "tuple[tuple[int, str], ...] | None": st.none()
        | st.lists(st.tuples(_seat, _tile), min_size=1, max_size=4).map(tuple),
    }
    return draw(table[annotation])


def _entry(draw: st.DrawFn, kind: type[Any]) -> Any:
    return kind(**{field.name: _value(draw, field.name, str(field.type)) for field in fields(kind)})


@given(st.data())
def test_every_entry_comes_back_from_its_stored_row(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(CLASSES))
    entry = _entry(data.draw, kind)
    name, stored = log_codec.encode(entry)
    assert name == log_codec.KIND[kind]
    # As the database keeps it: JSON text, read back.
    again = json.loads(jsontext.dumps(stored))
    assert log_codec.decode(name, again) == entry
    # And the row of the entry read back is the same row, byte for byte.
    assert jsontext.dumps(log_codec.encode(log_codec.decode(name, again))[1]) == jsontext.dumps(stored)


def test_every_kind_has_its_class_and_its_name_once() -> None:
    names = list(log_codec.KIND.values())
    assert len(set(names)) == len(names)
    declared = {
        value
        for value in vars(log_entries).values()
        if isinstance(value, type) and value.__module__ == log_entries.__name__
    }
    assert declared == set(log_codec.KIND) | {Unrecognized}
    for kind in declared:
        assert kind.__dataclass_params__.frozen, kind  # type: ignore[attr-defined]
        assert "__slots__" in vars(kind), kind


@pytest.mark.parametrize(
    ("kind", "data", "expected"),
    [
        # A play and a pass stored before the system's reason was.
        (
            "played",
            {
                "seat": 1,
                "tile": "6-4",
                "arm": None,
                "lead_left": None,
                "ends": {"up": 6},
                "placement": {},
                "points": 0,
                "system": True,
                "hand_sizes": [6, 7],
                "at": "2026-01-01T00:00:00.000Z",
            },
            lambda entry: isinstance(entry, Played) and entry.system and entry.reason is None,
        ),
        (
            "passed",
            {"seat": 2, "ends": [6, 4], "automatic": True},
            lambda entry: (
                isinstance(entry, Passed) and entry.automatic and entry.reason is None and entry.at == ""
            ),
        ),
        # A deal stored before Cuban reshuffles and the draw for the lead.
        (
            "hand_started",
            {
                "number": 1,
                "id": "h",
                "commitment": "c",
                "leader": 0,
                "key": "k",
                "hands": [["6-6"], ["5-5"]],
                "hand_sizes": [1, 1],
                "boneyard_size": 0,
            },
            lambda entry: (
                isinstance(entry, HandStarted) and entry.reshuffle == () and entry.lead_draw is None
            ),
        ),
        # A match's end stored before it named its offender; an absence before "Abandono".
        (
            "match_ended",
            {"termination": "abandonment", "winner": None, "sheet": {}, "completed": False},
            lambda entry: isinstance(entry, MatchEnded) and entry.offender is None,
        ),
        (
            "disconnected",
            {"seat": 3, "since": "2026-01-01T00:00:00.000Z", "reconnect_deadline": None},
            lambda entry: isinstance(entry, Disconnected) and not entry.abandon,
        ),
        (
            "card",
            {"seat": 0, "user_id": 4, "colour": "yellow", "reason": "timeout", "cards": {"yellow": 1}},
            lambda entry: isinstance(entry, CardGiven) and not entry.practice,
        ),
        ("vote", {"seat": 0, "choice": "rematch"}, lambda entry: entry == VoteCast(0, "rematch")),
        ("cancelled", {"reason": "invitations"}, lambda entry: entry == TableCancelled("invitations")),
        # A kind no version writes any more comes back as it is, and is written back unchanged.
        ("seat_moved", {"x": 1}, lambda entry: entry == Unrecognized("seat_moved", {"x": 1})),
    ],
)
def test_rows_of_older_versions_still_read(
    kind: str, data: dict[str, Any], expected: Callable[[Any], bool]
) -> None:
    entry = log_codec.decode(kind, data)
    assert expected(entry), entry
    if isinstance(entry, Unrecognized):
        assert log_codec.encode(entry) == (kind, data)


def test_a_row_a_reader_cannot_read_is_skipped_not_fatal() -> None:
    assert log_codec.read("clock", {"deadline": None}) is None
    with pytest.raises(KeyError):
        log_codec.decode("clock", {"deadline": None})


# -- one name per kind, in the codec only ---------------------------------------------------------

#: Modules that spell a kind's name for something else: (path under amigos/web, the words, why).
HOMONYMS: dict[str, tuple[set[str], str]] = {
    "tables/labels.py": (
        set(log_codec.KIND.values()),
        "the table script's words, each under the name of what it says (the script is out of scope)",
    ),
    "tables/models.py": ({"cancelled", "card"}, "a table's status; the Card model's verbose name"),
    "tables/registry.py": ({"cancelled"}, "a table's status"),
    "tables/lobby.py": ({"cancelled"}, "a table's status"),
    "tables/actor_gathering.py": ({"cancelled"}, "a table's status and a closed invitation's reason"),
    "tables/effect_writes.py": ({"cancelled"}, "a table's status"),
    "tables/actor_clock.py": ({"card"}, "the stored deadline of a turn's card"),
    "lobby/views.py": ({"disconnected"}, "a word of the lobby's script"),
    "realtime/limits.py": ({"clock"}, "an attribute's name"),
    "realtime/protocol.py": ({"disconnected"}, "a slot's name (uvicorn's attribute)"),
    "tables/actor.py": ({"clock"}, "a slot's name"),
    "events/selectors.py": ({"started"}, "a Recreo match's start"),
    "archive/academy.py": ({"played"}, "a position's moves played"),
    "archive/review.py": ({"played"}, "a position's moves played"),
    "archive/replay_views.py": ({"played"}, "a replay's moves played"),
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_kind_is_spelt_outside_the_codec() -> None:
    """A kind's name written as a string anywhere in the web layer but the codec (and the
    migrations, which are history) is a second definition of it: name the entry's class, and ask
    `log_codec.KIND` where a query needs the name."""
    kinds = set(log_codec.KIND.values())
    found = []
    for path in sorted(WEB.rglob("*.py")):
        relative = path.relative_to(WEB).as_posix()
        if relative == "tables/log_codec.py" or "/migrations/" in relative:
            continue
        allowed = HOMONYMS.get(relative, (set(), ""))[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in kinds - allowed
                and id(node) not in skip
            ):
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
    assert not found, "kinds spelt outside log_codec:\n" + "\n".join(found)


def test_the_scan_finds_a_kind_spelt_outside_the_codec() -> None:
    tree = ast.parse('kind = "played"')
    assert any(isinstance(node, ast.Constant) and node.value == "played" for node in ast.walk(tree))
