"""Hand-made records of the rules' rare situations, with results worked out by hand.

Each fixtures/NAME.record.json has NAME.expected.json beside it: the report `amigos replay` must
print, or {"error": {"hand": h, "move": m}} for a record it must refuse there. fixtures/README.md
shows the working for every one. Both the engine and the referee must give exactly that.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.corpus.harness import Answer, cli_answer, referee_answer

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = sorted(path.name.removesuffix(".record.json") for path in FIXTURES.glob("*.record.json"))


def _check(answer: Answer, expected: dict[str, object], who: str) -> None:
    if "error" in expected:
        error = expected["error"]
        assert isinstance(error, dict)
        assert answer.report is None, f"{who} accepted a record it must refuse"
        assert answer.where == (error["hand"], error["move"]), f"{who}: {answer.detail}"
    else:
        assert answer.report == expected, f"{who}: {answer.report or answer.detail}"


def test_every_fixture_has_its_expected_result_and_working() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    assert len(NAMES) >= 20
    for name in NAMES:
        assert (FIXTURES / f"{name}.expected.json").is_file(), name
        assert f"`{name}`" in readme, f"{name} is not explained in fixtures/README.md"


@pytest.mark.parametrize("name", NAMES)
def test_fixture(name: str, tmp_path: Path) -> None:
    text = (FIXTURES / f"{name}.record.json").read_text(encoding="utf-8")
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text(encoding="utf-8"))
    _check(referee_answer(text), expected, "the referee")
    _check(cli_answer(text, tmp_path), expected, "amigos replay")
