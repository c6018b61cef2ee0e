"""`amigos replay` agrees exactly with the independent referee on the seeded corpus.

Several hundred random legal records per variant family (complete matches, matches cut between
hands, hands cut in the middle), plus records steered into each rare situation of the rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.corpus.corpus import FAMILIES, REQUIRED, build_corpus
from tests.corpus.harness import cli_answer, disagreement, referee_answer

#: Random records per family (the steered ones come on top).
COUNT = 300
SEED = 20261122


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_corpus_reaches_every_rare_situation(family: str) -> None:
    corpus = build_corpus(family, COUNT, SEED)
    seen = frozenset().union(*(facts for _label, _record, facts in corpus))
    assert REQUIRED[family] <= seen, sorted(REQUIRED[family] - seen)
    assert len(corpus) >= COUNT
    # every variant of the family is in the corpus
    assert {record["variant"] for _label, record, _facts in corpus} == {name for name, _ in FAMILIES[family]}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_replay_agrees_with_the_referee(family: str, tmp_path: Path) -> None:
    failures = []
    for label, record, _facts in build_corpus(family, COUNT, SEED):
        text = json.dumps(record)
        referee = referee_answer(text)
        assert referee.report is not None, f"{label}: the generator wrote an illegal record: {referee.detail}"
        problem = disagreement(cli_answer(text, tmp_path), referee)
        if problem:
            failures.append(f"{label}: {problem}")
    assert not failures, f"{len(failures)} disagreements; first ones:\n" + "\n".join(failures[:5])
