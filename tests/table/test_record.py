"""The record of a live match: built as the table goes, replayed by ``amigos replay``, each deal
checked against its key and commitment."""

from __future__ import annotations

import io
import json

import pytest

from amigos.cli.replay import replay_main
from amigos.engine import RecordError, Termination, parse_record, replay_record, write_record
from amigos.engine.codec import replay_json
from amigos.table import Accept, Deal, Disconnected, Move, Phase, Start, TableState, Tick, open_table
from amigos.table.record import RecordDraft, new_draft, to_record, update

from .helpers import PATIENT, config
from .test_lifecycle import KEYS

PLAYERS = ("ana", "beto", None, "dani")


class Recorded:
    def __init__(self, players: tuple[str | None, ...] = PLAYERS) -> None:
        self.state: TableState
        self.state, _ = open_table(config(players=players, timing=PATIENT), 0.0)
        self.draft: RecordDraft = new_draft(self.state.config, 0.0)

    def at(self, now: float, sent: object) -> None:
        from amigos.table import advance

        self.state, effects = advance(self.state, sent, now)  # type: ignore[arg-type]
        self.draft = update(self.draft, self.state, effects)


def played(hands_to_wait: int = 1) -> Recorded:
    """A whole match: seat 1 lets its clock run out on its first turns (cards, system plays)."""
    table = Recorded()
    table.at(0.0, Accept(1))
    table.at(0.0, Accept(3))
    table.at(0.0, Start(0))
    keys = list(KEYS)
    now = 2.0
    waited = 0
    while table.state.phase in (Phase.DEALING, Phase.PLAYING):
        if table.state.phase is Phase.DEALING:
            now = max(now, table.state.deal_at or now)  # the pause between hands
            table.at(now, Deal(keys.pop(0), 0))
            continue
        hand = table.state.hand
        assert hand is not None
        seat = hand.state.to_move
        if seat == 1 and waited < hands_to_wait * 3:
            waited += 1
            now += 26.0  # past 20 s: a notice and two yellow cards, or the single tile laid at 6 s
            table.at(now, Tick())
            continue
        now += 1.0
        table.at(now, Move(seat, hand.state.legal_actions()[0], by_computer=seat == 2))
    return table


def test_the_record_of_a_whole_match_replays_with_every_deal_verified() -> None:
    table = played()
    record = to_record(table.draft)
    text = write_record(record)
    report = replay_record(parse_record(text))
    assert report.complete and report.termination is Termination.TARGET
    assert report.deals_verified == len(record.hands) >= 1
    obj = json.loads(text)
    assert obj["format"] == "amigos-record/1"
    assert obj["termination"] == "target" and obj["table"] == "t1" and obj["mode"] == "live"
    for hand in obj["hands"]:
        assert len(hand["times"]) == len(hand["moves"]) == len(hand["system"])
        assert hand["times"] == sorted(hand["times"])
        assert {"key", "hand_id", "commitment", "started"} <= set(hand)
    systems = {reason for hand in obj["hands"] for reason in hand["system"]}
    assert "computer" in systems
    assert obj["cards"] and all(card["seat"] == 1 and card["colour"] == "yellow" for card in obj["cards"])
    # The cards are kept with the hand they fell in.
    assert obj["cards"][0]["hand"] == 1
    assert "absent" not in obj  # everyone was there to the end


def test_amigos_replay_prints_the_termination_and_the_verified_deals() -> None:
    text = write_record(to_record(played().draft))
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO(text)
    assert replay_main("-", stdin, out, err) == 0, err.getvalue()
    report = json.loads(out.getvalue())
    assert report["termination"] == "target"
    assert report["deals_verified"] == len(report["hands"])


def test_an_unfinished_record_can_be_taken_at_any_moment() -> None:
    table = Recorded()
    table.at(0.0, Accept(1))
    table.at(0.0, Accept(3))
    table.at(0.0, Start(0))
    table.at(2.0, Deal(KEYS[0], 0))
    hand = table.state.hand
    assert hand is not None
    table.at(3.0, Move(0, hand.state.legal_actions()[0]))
    record = to_record(table.draft)
    assert record.hands[0].moves and record.hands[0].extra["times"] == [3.0]
    report = replay_record(parse_record(write_record(record)))
    assert report.hands[0].end == "unfinished" and not report.complete and report.termination is None


def test_an_abandoned_match_is_recorded_as_such_with_its_blue_card() -> None:
    table = Recorded()
    table.at(0.0, Accept(1))
    table.at(0.0, Accept(3))
    table.at(0.0, Start(0))
    table.at(2.0, Deal(KEYS[0], 0))
    table.at(3.0, Disconnected(3))
    table.at(400.0, Tick())
    obj = json.loads(write_record(to_record(table.draft)))
    assert obj["termination"] == "abandonment" and obj["offender"] == 3
    # It ended when the window lapsed (303 s), not when the late tick (400 s) found it so: a late
    # tick gives the same record as a punctual one.
    assert obj["ended"] == 303.0
    assert obj["cards"] == [
        {"seat": 3, "colour": "blue", "reason": "no_reconnection", "at": 303.0, "hand": 1}
    ]
    # The seat whose absence ended the match is named absent, as the server's record names it
    # (`absent_seats`, one rule): the archive then never counts the match as that player's result.
    assert obj["absent"] == [3]
    report = replay_record(parse_record(json.dumps(obj)))
    assert report.termination is Termination.ABANDONMENT and not report.complete
    assert report.match is not None and report.match.offender == 3


def tampered(change: str) -> dict[str, object]:
    obj = json.loads(write_record(to_record(played().draft)))
    hand = obj["hands"][0]
    if change == "deal":
        hand["deal"][0][0], hand["deal"][1][0] = hand["deal"][1][0], hand["deal"][0][0]
    elif change == "key":
        hand["key"] = KEYS[-1]
    elif change == "commitment":
        hand["commitment"] = "0" * 64
    elif change == "times":
        hand["times"] = hand["times"][:-1]
    elif change == "order":
        hand["times"][0] = hand["times"][-1] + 1
    elif change == "termination":
        obj["termination"] = "abandonment"
    elif change == "system":
        hand["system"][0] = "magic"
    return obj


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("deal", "not the one its key gives"),
        ("key", "not the one its key gives"),
        ("commitment", "does not match the commitment"),
        ("times", "entries for"),
        ("order", "before the one before it"),
        ("termination", "reached its target"),
        ("system", "system must list"),
    ],
)
def test_a_tampered_live_record_is_refused(change: str, reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay_record(parse_record(tampered(change)))
    assert reason in caught.value.reason


def test_a_plain_record_replays_exactly_as_before() -> None:
    obj = json.loads(write_record(to_record(played().draft)))
    for key in ("table", "mode", "started", "ended", "termination", "offender", "cards"):
        obj.pop(key, None)
    for hand in obj["hands"]:
        for key in ("key", "hand_id", "commitment", "started", "times", "system"):
            hand.pop(key)
    report = replay_json(replay_record(parse_record(obj)))
    assert set(report) == {"variant", "hands", "complete", "winner", "score"}
