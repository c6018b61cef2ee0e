"""The referee on its own: variants, refusals, and the records its generator writes."""

from __future__ import annotations

import json
import random
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.referee.generate import POLICIES, generate_record, truncate
from tests.referee.replay import RefereeError, referee_replay, replay_with_facts
from tests.referee.rules import UnknownVariantError, full_set, rules_for, variant_names

ALL_TABLES = [
    (name, players)
    for name in variant_names()
    for players in (2, 3, 4)
    if not (name.startswith(("amigos", "cuban-2v2")) and players != 4)
    and not (name == "cuban-1v1" and players != 2)
]


def test_variant_table() -> None:
    assert len(variant_names()) == 5 + 12
    assert rules_for("cuban-2v2", 4).pile_size == 15
    assert rules_for("cuban-1v1", 2).pile_size == 35
    assert rules_for("draw-100", 2).hand_size == 7 and rules_for("all-fives-500", 3).hand_size == 5
    assert rules_for("amigos-hands", 4).target is None
    assert len(full_set(9)) == 55 and len(full_set(6)) == 28
    for name, players in (("amigos-100", 3), ("cuban-1v1", 4), ("draw-100", 5), ("draw-300", 2), ("x", 4)):
        with pytest.raises(UnknownVariantError):
            rules_for(name, players)


@pytest.mark.parametrize(("name", "players"), ALL_TABLES)
def test_generated_matches_are_complete_and_legal(name: str, players: int) -> None:
    record = generate_record(name, players, random.Random(zlib.crc32(f"{name}/{players}".encode())))
    report = referee_replay(json.loads(json.dumps(record)))
    assert report["complete"] is True and report["winner"] is not None
    rules = rules_for(name, players)
    if rules.target is not None:
        assert max(report["score"]) >= rules.target
        assert report["score"].count(max(report["score"])) == 1
    else:
        high, low = sorted(report["score"], reverse=True)
        assert high >= 4 and high - low >= 2
    # the totals are the running sum the hands report
    assert report["score"] == report["hands"][-1]["score"]


def test_generation_is_deterministic() -> None:
    first = generate_record("all-fives-250", 3, random.Random(4), "scoring")
    second = generate_record("all-fives-250", 3, random.Random(4), "scoring")
    assert first == second


# A record is a match of choices drawn from st.randoms(): its smallest example is large by nature.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(
    st.sampled_from(ALL_TABLES),
    st.sampled_from(sorted(POLICIES)),
    st.randoms(),
)
def test_prefixes_of_a_record_are_unfinished_and_agree_with_it(
    table: tuple[str, int], policy: str, rng: random.Random
) -> None:
    record = generate_record(table[0], table[1], rng, policy, max_hands=6)
    full = referee_replay(record)
    cut = truncate(record, rng)
    partial, facts = replay_with_facts(cut)
    assert not partial["complete"]
    assert facts & {"unfinished-hand", "unfinished-match"}
    finished = [hand for hand in partial["hands"] if hand["end"] != "unfinished"]
    assert finished == full["hands"][: len(finished)]


def test_refusals_name_hand_and_move() -> None:
    record = generate_record("amigos-100", 4, random.Random(1), max_hands=1)
    moves = record["hands"][0]["moves"]
    moves.append(moves[0])
    with pytest.raises(RefereeError) as caught:
        referee_replay(record)
    assert (caught.value.hand, caught.value.move) == (1, len(moves))
    with pytest.raises(RefereeError) as caught:
        referee_replay("[1, 2]")
    assert (caught.value.hand, caught.value.move) == (0, 0)


def test_a_one_hand_record_is_always_cut_inside_its_hand() -> None:
    """Regression: a one-hand match kept whole was returned unchanged, so the "prefix" was complete."""
    rng = random.Random(608)
    record = generate_record("fives-and-threes-100", 2, rng, "blocking", max_hands=6)
    for seed in range(200):
        cut = truncate(record, random.Random(seed))
        assert not referee_replay(cut)["complete"]
