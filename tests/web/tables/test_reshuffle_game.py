"""The Cuban reshuffle at a live table, without a server: `Game` voids the deal and deals the hand
again under its next identity, `rendering` tells only the offered seat, and the record keeps the
voided deal (which `amigos replay` checks against its commitment)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any
from unittest.mock import ANY

import pytest

from amigos.engine import Pass, deal_from_key, find_variant, parse_record, replay_record, verify_commitment
from amigos.table import Accept, AskReshuffle, Deal, Move, Start, advance, computer_asks_reshuffle, open_table
from amigos.table.record import new_draft, to_record, update
from amigos.web.tables import log_codec, rendering
from amigos.web.tables.game import Game, Refused, epoch
from amigos.web.tables.log_entries import HandStarted, LogEntry, MatchStarted
from tests.table.helpers import PATIENT, config

#: cuban-1v1 deals offering a new deal to seat 0 alone, to seat 1 alone, and to nobody.
SEAT_0 = "0000008a-0000-4000-8000-000000000000"
SEAT_1 = "0000006b-0000-4000-8000-000000000000"
PLAIN = "00000001-0000-4000-8000-000000000000"


def rows(entries: list[LogEntry]) -> list[tuple[str, dict[str, Any]]]:
    """The entries as they are stored and published."""
    return [log_codec.encode(entry) for entry in entries]


def cuban() -> Game:
    game = Game(7, find_variant("cuban-1v1"), ("Ana", "Beto"))
    game.start_match(0)
    return game


def test_the_offer_reaches_only_the_seat_dealt_five_doubles() -> None:
    game = cuban()
    ((kind, data),) = rows(game.deal(SEAT_0))
    assert data["reshuffle"] == [0]
    assert rendering.render(kind, data, 0)["reshuffle"] is True
    for audience in (1, None):
        assert "reshuffle" not in rendering.render(kind, data, audience)
    texts = rendering.batch_texts(7, [(1, kind, data)], [0, 1, None], "now")
    assert ['"reshuffle"' in text for text in texts] == [True, False, False]
    assert game.reshuffle_open(0) and not game.reshuffle_open(1)


def test_a_reshuffle_voids_the_deal_reveals_its_key_and_deals_again_under_a_new_identity() -> None:
    game = cuban()
    started = rows(game.deal(SEAT_0))[0][1]
    with pytest.raises(Refused) as refused:
        game.reshuffle(1)
    assert refused.value.code == "no_reshuffle"
    ((kind, voided),) = rows(game.reshuffle(0))
    assert kind == "hand_voided" and voided["seat"] == 0 and voided["number"] == 1
    assert verify_commitment(voided["key"], voided["id"], started["commitment"])
    assert rendering.render(kind, voided, None)["key"] == SEAT_0  # revealed to everyone
    assert not game.in_hand and not game.reshuffle_open(0)
    again = rows(game.deal(PLAIN))[0][1]
    assert again["number"] == 1 and again["leader"] == started["leader"]
    assert again["id"] == f"{started['id']}:deal:2" and again["reshuffle"] == []
    assert verify_commitment(PLAIN, again["id"], again["commitment"])


def test_no_reshuffle_after_the_first_move() -> None:
    game = cuban()
    game.deal(SEAT_0)
    assert game.hand is not None
    game.act(0, game.hand.legal_actions()[0], at="2026-01-01T00:00:00.000Z")
    with pytest.raises(Refused) as refused:
        game.reshuffle(0)
    assert refused.value.code == "no_reshuffle" and not game.reshuffle_open(0)


def test_the_record_keeps_the_voided_deal_and_the_log_rebuilds_it() -> None:
    game = cuban()
    log: list[LogEntry] = [MatchStarted(1, ("Ana", "Beto"), 0)]
    log += game.deal(SEAT_0) + game.reshuffle(0) + game.deal(PLAIN)
    at = "2026-01-01T00:00:00.000Z"
    while game.in_hand:
        assert game.hand is not None and game.to_move is not None
        actions = game.hand.legal_actions()
        log += game.act(game.to_move, actions[0] if actions else Pass(), at=at)
    record = game.record()
    first_deal = log[1]
    assert isinstance(first_deal, HandStarted)
    (voided,) = record["hands"][0]["voided"]
    assert voided == {
        "seat": 0,
        "key": SEAT_0,
        "hand_id": "table:7:match:1:hand:1",
        "commitment": first_deal.commitment,
    }
    assert replay_record(parse_record(record)).deals_verified >= 1
    rebuilt = Game(7, find_variant("cuban-1v1"), ("Ana", "Beto"))
    rebuilt.replay(log)
    assert rebuilt.record() == record
    voided["seat"] = 1  # seat 1 was not dealt five doubles: the record is refused
    with pytest.raises(Exception, match="enough doubles"):
        replay_record(parse_record(record))


def test_a_computer_player_asks_whenever_it_is_offered_a_new_deal() -> None:
    variant = find_variant("cuban-1v1")
    hands = deal_from_key(SEAT_1, variant).hands
    assert computer_asks_reshuffle(hands[1]) and not computer_asks_reshuffle(hands[0])
    game = cuban()
    game.deal(SEAT_1)
    assert game.computer_reshuffle([1]) == 1
    assert game.computer_reshuffle([0]) is None


def reshuffled_match(names: tuple[str, ...] = ("Ana", "Beto", "Caro", "Dani")) -> dict[str, Any]:
    """A whole cuban-2v2 match as a live table records it, whose first hand was dealt twice: seat 0
    (Ana) was dealt five doubles and asked for a new deal. Every move is the first legal one."""
    game = Game(9, find_variant("cuban-2v2"), names)
    game.start_match(0)
    game.deal("0000008a-0000-4000-8000-000000000000")  # seat 0 alone is offered a new deal
    game.reshuffle(0)
    keys = iter(f"{number:08x}-0000-4000-8000-000000000000" for number in range(1, 500))
    game.deal(next(keys))
    while game.termination != "target":
        if not game.in_hand:
            game.deal(next(keys))
            continue
        assert game.hand is not None and game.to_move is not None
        game.act(game.to_move, game.hand.legal_actions()[0], at="2026-01-01T00:00:00.000Z")
    return game.record()


def test_amigos_replay_shows_the_voided_deal(capsys: pytest.CaptureFixture[str]) -> None:
    import tempfile

    from amigos.cli import main

    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(reshuffled_match(), file)
        file.flush()
        assert main(["replay", file.name]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["voided"] == [
        {
            "hand": 1,
            "seat": 0,
            "key": "0000008a-0000-4000-8000-000000000000",
            "hand_id": "table:9:match:1:hand:1",
        }
    ]
    assert shown["termination"] == "target"


def test_the_server_and_the_pure_table_record_a_reshuffled_hand_byte_for_byte() -> None:
    """The same cuban-2v2 hand at `Game` (the server's) and at the pure table: seat 3 dealt five
    doubles asks for a new deal, the hand is dealt again and played out. Both build the voided
    deal with `amigos.table.hand.void_deal`, and the hand's record entry (deal, moves, key,
    identity, commitment, times, the system's moves, the voided deal) is the same text at both,
    while the hand is played and once it ended (docs/record-format.md). Only ``started``, which the
    server's record does not keep, is left out."""
    offering, plain = "00000048-0000-4000-8000-000000000000", "00000001-0000-4000-8000-000000000000"
    at = "2026-01-01T00:00:00.000Z"
    now = epoch(at)
    game = Game(9, find_variant("cuban-2v2"), ("ana", "beto", "caro", "dani"))
    game.start_match(0)
    table = replace(config("cuban-2v2", timing=PATIENT), table_id="table:9:match:1")
    state, _ = open_table(table, now)
    for seat in (1, 2, 3):
        state, _ = advance(state, Accept(seat), now)
    state, _ = advance(state, Start(0), now)
    draft = new_draft(table, now)

    def pure(given: object) -> None:
        nonlocal state, draft
        state, effects = advance(state, given, now)  # type: ignore[arg-type]
        draft = update(draft, state, effects)

    def first_hand(record: dict[str, Any]) -> str:
        return json.dumps({name: value for name, value in record["hands"][0].items() if name != "started"})

    game.deal(offering)
    pure(Deal(offering, 0))
    game.reshuffle(3)
    pure(AskReshuffle(3))
    game.deal(plain)
    pure(Deal(plain, None))
    assert first_hand(game.record()) == first_hand(to_record(draft).to_obj())
    while game.in_hand:
        assert game.hand is not None and game.to_move is not None
        if game.forced_pass():  # the pure table passes by itself (`must_pass`), as the actor does
            game.act(game.to_move, Pass(), at=at, system=True)
            continue
        seat, action = game.to_move, game.hand.legal_actions()[0]
        game.act(seat, action, at=at)
        pure(Move(seat, action))
    hand = first_hand(game.record())
    assert hand == first_hand(to_record(draft).to_obj())
    assert json.loads(hand)["voided"] == [
        {"seat": 3, "key": offering, "hand_id": "table:9:match:1:hand:1", "commitment": ANY}
    ]
