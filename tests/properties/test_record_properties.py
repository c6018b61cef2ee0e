"""Records: what is written replays to the same states; damaged records are refused cleanly."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amigos.cli.replay import replay_main
from amigos.engine import Variant, find_variant, tile_set
from amigos.engine.record import Record, parse_record, record_hand, write_record
from amigos.engine.replay import replay_record
from amigos.engine.simulate import simulate_match

from .strategies import start_state, variants


@settings(max_examples=60, deadline=None)
@given(variants, st.randoms())
def test_written_records_replay_to_the_same_states(variant: Variant, rng: random.Random) -> None:
    start = start_state(variant, rng)
    states, actions = [start], []
    while not states[-1].is_over:
        action = rng.choice(states[-1].legal_actions())
        actions.append(action)
        states.append(states[-1].apply(action, states[-1].to_move))
    players = tuple(f"P{seat}" for seat in range(variant.players))
    record = Record(variant=variant.name, players=players, hands=(record_hand(start, actions),))
    report = replay_record(parse_record(write_record(record)), keep_states=True)
    assert list(report.hands[0].states) == states
    assert report.hands[0].end == states[-1].outcome.end.value  # type: ignore[union-attr]


def run(text: str | bytes) -> tuple[int, str, str]:
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = replay_main("-", stdin, out, err)
    return status, out.getvalue(), err.getvalue()


def check_clean(status: int, out: str, err: str) -> None:
    assert status in (0, 2), err
    if status == 0:
        report = json.loads(out)
        assert set(report) == {"variant", "hands", "complete", "winner", "score"}
        assert err == ""
    else:
        assert out == ""
        assert err.count("\n") == 1 and "hand" in err and "move" in err


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


def mutate(obj: dict[str, Any], rng: random.Random, junk: Any) -> dict[str, Any]:
    """One random damage; a damage that no longer applies to an already damaged record is skipped."""
    damaged = copy.deepcopy(obj)
    try:
        _damage(damaged, rng, junk)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError):
        return obj
    return damaged


def _damage(obj: dict[str, Any], rng: random.Random, junk: Any) -> None:
    hands = obj["hands"]
    hand = rng.choice(hands) if hands else None
    kind = rng.randrange(10)
    tiles = [str(tile) for tile in tile_set(9)]
    if hand is None or kind == 0:
        obj[rng.choice(["format", "variant", "players", "hands"])] = junk
    elif kind == 1 and len(hand["moves"]) > 1:
        i, j = rng.sample(range(len(hand["moves"])), 2)
        hand["moves"][i], hand["moves"][j] = hand["moves"][j], hand["moves"][i]
    elif kind == 2 and hand["moves"]:
        del hand["moves"][rng.randrange(len(hand["moves"]))]
    elif kind == 3 and hand["moves"]:
        i = rng.randrange(len(hand["moves"]))
        hand["moves"][i] = rng.choice(tiles) + rng.choice(["", "@0", "@6", "@9", "@left", "@up", "@x"])
    elif kind == 4:
        seat = rng.choice(hand["deal"])
        if seat:
            seat[rng.randrange(len(seat))] = rng.choice(tiles)
    elif kind == 5:
        hand["moves"].append(rng.choice(["pass", *tiles]))
    elif kind == 6:
        hand["leader"] = rng.choice([-1, 0, 1, 3, 4, 99, 2**70, None, "0", 1.5])
    elif kind == 7:
        hand[rng.choice(["deal", "boneyard", "leader", "moves"])] = junk
    elif kind == 8:
        obj["players"] = obj["players"][: rng.randrange(len(obj["players"]) + 1)]
    else:
        hands.append(copy.deepcopy(hand))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants, st.randoms(use_true_random=False), st.randoms(), json_values)
def test_mutated_records_are_refused_or_replayed(
    variant: Variant, seed: random.Random, rng: random.Random, junk: Any
) -> None:
    record = simulate_match(variant, seed, max_hands=2)
    obj = json.loads(write_record(record))
    for _ in range(rng.randrange(1, 4)):
        obj = mutate(obj, rng, junk)
    check_clean(*run(json.dumps(obj)))


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200), json_values.map(json.dumps)))
def test_junk_input_never_raises(junk: str | bytes) -> None:
    check_clean(*run(junk))


def test_replay_subprocess() -> None:
    record = write_record(simulate_match(find_variant("amigos-100"), 1, max_hands=1))
    good = subprocess.run(
        [sys.executable, "-m", "amigos.cli", "replay", "-"],
        input=record,
        capture_output=True,
        text=True,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["variant"] == "amigos-100"
    bad = subprocess.run(
        [sys.executable, "-m", "amigos.cli", "replay", "-"],
        input='{"format": "amigos-record/1", "variant": "nope"',
        capture_output=True,
        text=True,
        check=False,
    )
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.count("\n") == 1
    assert "Traceback" not in bad.stderr
