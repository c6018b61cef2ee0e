"""Invariants of the standings over random valid events, and refusal of random impossible ones."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.recreo.event import EventFileError, event_from_dict
from amigos.recreo.standings import accumulate, compute_standings, head_to_head
from tests.recreo.generator import PLAYER_COUNTS, TARGETS, random_event
from tests.recreo.referee import REPEATERS

events = st.builds(
    random_event, st.randoms(use_true_random=False), st.sampled_from(PLAYER_COUNTS), st.sampled_from(TARGETS)
)


@settings(max_examples=150, deadline=None)
@given(events)
def test_money_sums_to_zero(raw: dict[str, Any]) -> None:
    rows = compute_standings(event_from_dict(raw)).rows
    assert sum(r.bet_value for r in rows) == 0
    assert sum(r.extra_payment for r in rows) == 0
    assert sum(r.money for r in rows) == 0


@settings(max_examples=150, deadline=None)
@given(events)
def test_balance_of_tantos_without_non_counting_games(raw: dict[str, Any]) -> None:
    n = len(raw["players"])
    if any((n, r["round"]) in REPEATERS for r in raw["results"]):
        return  # the repeaters' tantos count for nobody, so nothing balances there (by design)
    rows = compute_standings(event_from_dict(raw)).rows
    assert sum(r.effectiveness + r.penalties for r in rows) == 0
    assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)
    assert sum(r.effectiveness for r in rows) == -sum(p["points"] for p in raw["penalties"])


@settings(max_examples=150, deadline=None)
@given(events)
def test_the_order_is_total_and_follows_the_keys(raw: dict[str, Any]) -> None:
    event = event_from_dict(raw)
    rows = compute_standings(event).rows
    assert [r.rank for r in rows] == list(range(1, len(raw["players"]) + 1))
    assert sorted(r.player for r in rows) == list(range(1, len(raw["players"]) + 1))

    def keys(r: Any) -> tuple[int, ...]:
        if event.target.is_points:
            return (r.points, r.games_won, r.effectiveness, r.points_for, -r.points_against)
        return (r.games_won,)

    totals = accumulate(event)
    for upper, lower in pairwise(rows):
        assert keys(upper) >= keys(lower)
        if keys(upper) == keys(lower):
            tied = [r.player for r in rows if keys(r) == keys(upper)]
            d_up, d_low = head_to_head(totals[upper.player], tied), head_to_head(totals[lower.player], tied)
            assert d_up >= d_low
            if d_up == d_low:
                assert upper.player < lower.player


@settings(max_examples=60, deadline=None)
@given(events, st.randoms(use_true_random=False))
def test_the_order_of_results_in_the_file_does_not_matter(raw: dict[str, Any], rng: random.Random) -> None:
    shuffled = json.loads(json.dumps(raw))
    rng.shuffle(shuffled["results"])
    rng.shuffle(shuffled["penalties"])
    assert compute_standings(event_from_dict(shuffled)) == compute_standings(event_from_dict(raw))


def _break(raw: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """Make one impossible change to a valid event with at least one result."""
    bad = json.loads(json.dumps(raw))
    results = bad["results"]
    victim = rng.choice(results)
    limit = 4 if bad["target"] == "hands" else bad["target"]
    kind = rng.choice(("duplicate", "no such round", "no such table", "tie", "short", "gap"))
    if kind == "duplicate":
        results.append(dict(victim))
    elif kind == "no such round":
        victim["round"] = 99
    elif kind == "no such table":
        victim["table"] = 5
    elif kind == "tie":
        victim["score"] = [limit, limit]
        victim.pop("end", None)
        victim.pop("offender", None)
    elif kind == "short":
        victim["score"] = [limit - 1, 0] if bad["target"] != "hands" else [3, 0]
        victim["end"] = "target"
        victim.pop("offender", None)
    else:
        last = max(r["round"] for r in results)
        if last == 1:
            results.append({**victim, "round": 3})
        else:
            results.remove(next(r for r in results if r["round"] == last - 1))
    return bad, kind


@settings(max_examples=200, deadline=None)
@given(events, st.randoms(use_true_random=False))
def test_impossible_events_are_refused(raw: dict[str, Any], rng: random.Random) -> None:
    if not raw["results"]:
        return
    bad, kind = _break(raw, rng)
    with pytest.raises(EventFileError):
        event_from_dict(bad)
        pytest.fail(f"accepted after {kind}")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@settings(max_examples=300, deadline=None)
@given(events, st.randoms(use_true_random=False), json_values)
def test_junk_anywhere_is_refused_or_accepted_never_a_crash(
    raw: dict[str, Any], rng: random.Random, junk: Any
) -> None:
    """Replace any one value of a valid file by arbitrary JSON: the reader either accepts the file
    or raises its own error, never anything else (the command turns that into exit status 2)."""
    paths = [p for p in _paths(raw) if p]
    path = rng.choice(paths)
    target = raw
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    try:
        event = event_from_dict(json.loads(json.dumps(raw)))
    except EventFileError:
        return
    compute_standings(event)
