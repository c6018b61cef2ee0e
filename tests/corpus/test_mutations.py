"""Mutated and junk records: the engine and the referee both refuse (same hand and move, exit 2,
one line on standard error) or both accept with the same report; never a traceback."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from tests.corpus.corpus import FAMILIES, build_corpus
from tests.corpus.harness import cli_answer, disagreement, referee_answer
from tests.corpus.mutations import MUTATIONS, mutate
from tests.corpus.test_agreement import SEED

#: Random records of each family every mutation is applied to (plus the family's steered records,
#: so the rare situations get mutated too).
PER_FAMILY = 40
#: Mutations that always make a record illegal.
ALWAYS_ILLEGAL = {"duplicate-tile", "wrong-tile-count", "junk-json", "wrong-types"}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutated_records_agree(name: str, tmp_path: Path) -> None:
    rng = random.Random(zlib.crc32(name.encode()))
    applied = refused = 0
    failures = []
    for family in sorted(FAMILIES):
        for label, record, _facts in build_corpus(family, PER_FAMILY, SEED):
            text = mutate(record, name, rng)
            if text is None:
                continue
            applied += 1
            engine, referee = cli_answer(text, tmp_path), referee_answer(text)
            refused += engine.report is None
            problem = disagreement(engine, referee)
            if problem:
                failures.append(f"{label} / {name}: {problem}")
            if name in ALWAYS_ILLEGAL and referee.report is not None:
                failures.append(f"{label} / {name}: the mutation left a legal record")
    assert applied >= PER_FAMILY
    assert refused > 0
    assert not failures, f"{len(failures)} disagreements; first ones:\n" + "\n".join(failures[:5])
