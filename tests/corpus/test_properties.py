"""Property tests: whatever record hypothesis comes up with, `amigos replay` and the referee agree,
and the command keeps its contract (exit 0 with a report, or exit 2 with one located line)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.corpus.harness import cli_answer, disagreement, referee_answer
from tests.referee.generate import POLICIES, generate_record, truncate
from tests.referee.rules import variant_names

TABLES = [("amigos-100", 4), ("amigos-200", 4), ("amigos-hands", 4), ("cuban-2v2", 4), ("cuban-1v1", 2)] + [
    (name, players)
    for name in variant_names()
    if not name.startswith(("amigos", "cuban"))
    for players in (2, 3, 4)
]

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 60) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# A generated record is a whole match of choices drawn from st.randoms(): its smallest example is
# large by nature (every play is a choice), which is what lets hypothesis shrink the match itself.
RECORD_SETTINGS = settings(
    PROPERTY_SETTINGS,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.large_base_example],
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("records")


def _agree(text: str, workdir: Path) -> None:
    problem = disagreement(cli_answer(text, workdir), referee_answer(text))
    assert problem is None, problem


@RECORD_SETTINGS
@given(st.sampled_from(TABLES), st.sampled_from(sorted(POLICIES)), st.randoms(), st.booleans())
def test_generated_records_agree(
    workdir: Path, table: tuple[str, int], policy: str, rng: random.Random, cut: bool
) -> None:
    record = generate_record(table[0], table[1], rng, policy, max_hands=8)
    if cut:
        record = truncate(record, rng)
    _agree(json.dumps(record), workdir)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path inside the record (objects and lists included, so whole parts can be replaced)."""
    paths = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            paths += _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            paths += _leaves(value, (*path, index))
    return paths


@RECORD_SETTINGS
@given(st.sampled_from(TABLES), st.randoms(), st.data())
def test_any_part_replaced_by_any_json_value(
    workdir: Path, table: tuple[str, int], rng: random.Random, data: st.DataObject
) -> None:
    record: Any = generate_record(table[0], table[1], rng, max_hands=2)
    paths = _leaves(record)[1:]
    path = data.draw(st.sampled_from(paths))
    node = record
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = data.draw(JSON_VALUES)
    _agree(json.dumps(record), workdir)


@PROPERTY_SETTINGS
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_are_refused_alike(workdir: Path, blob: bytes) -> None:
    engine, referee = cli_answer(blob, workdir), referee_answer(blob)
    assert engine.report is None and referee.report is None
    assert disagreement(engine, referee) is None
