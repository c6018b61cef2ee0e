"""A log of inputs: every input survives JSON exactly, and a table rebuilt from its log is the table."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import Arm, Pass, Play, Tile
from amigos.table import (
    Accept,
    AskReshuffle,
    Cancel,
    CommandHeard,
    Deal,
    Disconnected,
    Heartbeat,
    Leave,
    Mode,
    Move,
    Phase,
    Reconnected,
    RedCard,
    Refuse,
    Start,
    Suspend,
    TableError,
    TableInput,
    TakeOver,
    Tick,
    Vote,
    VoteChoice,
    advance,
    open_table,
    rebuild,
)
from amigos.table.codec import input_from_json, input_to_json

from .helpers import OPEN, Table, config, playing
from .test_lifecycle import KEYS

seats = st.integers(0, 3)
tiles = st.builds(Tile.of, st.integers(0, 6), st.integers(0, 6))
actions = st.one_of(
    st.just(Pass()),
    st.builds(
        Play, tiles, st.one_of(st.none(), st.sampled_from(Arm)), st.one_of(st.none(), st.integers(0, 6))
    ),
)
table_inputs = st.one_of(
    *(
        st.builds(cls, seats)
        for cls in (Accept, Refuse, Start, Cancel, Heartbeat, CommandHeard, Disconnected, Reconnected, Leave)
    ),
    st.builds(Suspend, seats),
    st.builds(RedCard, seats),
    st.builds(AskReshuffle, seats),
    st.builds(Deal, st.uuids(version=4).map(str), st.one_of(st.none(), seats)),
    st.builds(Move, seats, actions, st.booleans()),
    st.builds(Vote, seats, st.sampled_from(VoteChoice)),
    st.just(TakeOver()),
    st.just(Tick()),
)


@given(table_inputs)
def test_every_input_survives_json(sent: TableInput) -> None:
    assert input_from_json(json.loads(json.dumps(input_to_json(sent)))) == sent


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        {"type": "nope", "seat": 0},
        {"type": "accept"},
        {"type": "accept", "seat": True},
        {"type": "move", "seat": 0, "action": {"tile": "6-x"}},
        {"type": "move", "seat": 0, "action": {"tile": "6-4", "arm": "sideways"}},
        {"type": "move", "seat": 0, "action": "pass"},
        {"type": "move", "seat": 0, "action": {"pass": True}, "by_computer": "yes"},
        {"type": "deal", "key": 5},
    ],
)
def test_malformed_inputs_are_refused_with_a_code(obj: object) -> None:
    with pytest.raises(TableError) as caught:
        input_from_json(obj)
    assert caught.value.code == "bad_input"


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_a_table_rebuilt_from_its_log_is_the_same_table(data: st.DataObject) -> None:
    cfg = config(players=("ana", "beto", None, "dani"))
    state, _ = open_table(cfg, 0.0)
    log: list[tuple[TableInput, float]] = []
    now = 0.0
    script: list[TableInput] = [Accept(1), Accept(3), Start(0), Deal(KEYS[0], 0)]
    for step in range(60):
        now += data.draw(st.sampled_from([0.5, 3.0, 7.0, 21.0]))
        if script:
            sent: TableInput = script.pop(0)
        elif state.phase is Phase.DEALING:
            sent = Deal(KEYS[step], None)
        elif state.phase is Phase.PLAYING and state.hand is not None:
            hand = state.hand.state
            seat = hand.to_move
            sent = Move(seat, data.draw(st.sampled_from(hand.legal_actions())), seat == 2)
        else:
            break
        if data.draw(st.booleans()):
            sent = Heartbeat(data.draw(st.sampled_from([0, 1, 3])))
        try:
            state, _ = advance(state, sent, now)
        except TableError:
            continue
        log.append((input_from_json(json.loads(json.dumps(input_to_json(sent)))), now))
    assert rebuild(cfg, 0.0, log) == state


def test_a_takeover_gives_no_fresh_day_at_a_correspondence_table() -> None:
    table = Table(playing(OPEN, config(mode=Mode.CORRESPONDENCE)))
    assert table.at(50_000.0, TakeOver()) == []
    assert table.state.clock is not None and table.state.clock.started == 0.0
