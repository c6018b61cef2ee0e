"""The Cuban reshuffle as a live table writes it, without a server (the pure table and the server's
writer, `Written`): the deal voided and dealt again under its next identity, `rendering` telling
only the offered seat, and the record's game keeping the voided deal (which `amigos replay` checks
against its commitment). The rules themselves are tested on the pure table (tests/table)."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import ANY

import pytest

from amigos.engine import find_variant, parse_record, replay_record, verify_commitment
from amigos.table import Phase, TableError
from amigos.table.record import new_draft, to_record, update
from amigos.web.tables import log_codec, rendering
from amigos.web.tables.game import Game
from amigos.web.tables.log_entries import HandStarted, LogEntry
from tests.web.tables.written import Written

#: cuban-1v1 deals offering a new deal to seat 0 alone, to seat 1 alone, and to nobody.
SEAT_0 = "0000008a-0000-4000-8000-000000000000"
SEAT_1 = "0000006b-0000-4000-8000-000000000000"
PLAIN = "00000001-0000-4000-8000-000000000000"


def rows(entries: list[LogEntry]) -> list[tuple[str, dict[str, Any]]]:
    """The entries as they are stored and published."""
    return [log_codec.encode(entry) for entry in entries]


def cuban(names: tuple[str, ...] = ("Ana", "Beto"), variant: str = "cuban-1v1", table: int = 7) -> Written:
    return Written(variant, names, table_id=table)


def dealt(entries: list[LogEntry]) -> tuple[str, dict[str, Any]]:
    """The row of the deal among a step's entries."""
    return next(row for row in rows(entries) if row[0] == "hand_started")


def test_the_offer_reaches_only_the_seat_dealt_five_doubles() -> None:
    table = cuban()
    kind, data = dealt(table.deal(SEAT_0))
    assert data["reshuffle"] == [0]
    assert rendering.render(kind, data, 0)["reshuffle"] is True
    for audience in (1, None):
        assert "reshuffle" not in rendering.render(kind, data, audience)
    texts = rendering.batch_texts(7, [(1, kind, data)], [0, 1, None], "now")
    assert ['"reshuffle"' in text for text in texts] == [True, False, False]


def test_a_reshuffle_voids_the_deal_reveals_its_key_and_deals_again_under_a_new_identity() -> None:
    table = cuban()
    started = dealt(table.deal(SEAT_0))[1]
    with pytest.raises(TableError) as refused:
        table.ask_reshuffle(1)
    assert refused.value.code == "no_reshuffle"
    ((kind, voided),) = rows(table.ask_reshuffle(0))
    assert kind == "hand_voided" and voided["seat"] == 0 and voided["number"] == 1
    assert verify_commitment(voided["key"], voided["id"], started["commitment"])
    assert rendering.render(kind, voided, None)["key"] == SEAT_0  # revealed to everyone
    again = dealt(table.deal(PLAIN))[1]
    assert again["number"] == 1 and again["leader"] == started["leader"]
    assert again["id"] == f"{started['id']}:deal:2" and again["reshuffle"] == []
    assert verify_commitment(PLAIN, again["id"], again["commitment"])


def test_the_record_keeps_the_voided_deal_and_the_log_rebuilds_it() -> None:
    table = cuban()
    table.deal(SEAT_0)
    table.ask_reshuffle(0)
    table.deal(PLAIN)
    while table.in_hand:
        table.move()
    game = Game(7, find_variant("cuban-1v1"), ("Ana", "Beto"))
    game.replay(table.log)
    record = game.record()
    first_deal = next(entry for entry in table.log if isinstance(entry, HandStarted))
    (voided,) = record["hands"][0]["voided"]
    assert voided == {
        "seat": 0,
        "key": SEAT_0,
        "hand_id": "table:7:match:1:hand:1",
        "commitment": first_deal.commitment,
    }
    assert replay_record(parse_record(record)).deals_verified >= 1
    rebuilt = Game(7, find_variant("cuban-1v1"), ("Ana", "Beto"))
    rebuilt.replay(log_codec.decode(*row) for row in rows(table.log))
    assert rebuilt.record() == record
    voided["seat"] = 1  # seat 1 was not dealt five doubles: the record is refused
    with pytest.raises(Exception, match="enough doubles"):
        replay_record(parse_record(record))


def reshuffled_match(names: tuple[str, ...] = ("Ana", "Beto", "Caro", "Dani")) -> dict[str, Any]:
    """A whole cuban-2v2 match as a live table records it, whose first hand was dealt twice: seat 0
    (Ana) was dealt five doubles and asked for a new deal. Every move is the first legal one."""
    table = cuban(names, "cuban-2v2", 9)
    table.deal("0000008a-0000-4000-8000-000000000000")  # seat 0 alone is offered a new deal
    table.ask_reshuffle(0)
    keys = iter(f"{number:08x}-0000-4000-8000-000000000000" for number in range(1, 500))
    while table.state.phase in (Phase.DEALING, Phase.PLAYING):
        if table.in_hand:
            table.move()
        else:
            table.deal(next(keys))
    game = Game(9, find_variant("cuban-2v2"), names)
    game.replay(table.log)
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
    """The same cuban-2v2 hand recorded by the server (its `Game`, rebuilt from the log the server
    writes) and by the pure table's own record (`amigos.table.record`): seat 3 dealt five doubles
    asks for a new deal, the hand is dealt again and played out. The hand's record entry (deal,
    moves, key, identity, commitment, times, the system's moves, the voided deal) is the same
    text at both, while the hand is played and once it ended (docs/record-format.md). Only
    ``started``, which the server's record does not keep, is left out."""
    offering, plain = "00000048-0000-4000-8000-000000000000", "00000001-0000-4000-8000-000000000000"
    table = cuban(("ana", "beto", "caro", "dani"), "cuban-2v2", 9)
    draft = new_draft(table.state.config, table.state.opened)

    def followed(entries: list[LogEntry]) -> None:
        nonlocal draft
        draft = update(draft, table.state, table.effects)

    def first_hand(record: dict[str, Any]) -> str:
        return json.dumps({name: value for name, value in record["hands"][0].items() if name != "started"})

    def server() -> dict[str, Any]:
        game = Game(9, find_variant("cuban-2v2"), ("ana", "beto", "caro", "dani"))
        game.replay(table.log)
        return game.record()

    followed(table.deal(offering, 0))
    followed(table.ask_reshuffle(3))
    followed(table.deal(plain))
    assert first_hand(server()) == first_hand(to_record(draft).to_obj())
    while table.in_hand:
        followed(table.move())
    hand = first_hand(server())
    assert hand == first_hand(to_record(draft).to_obj())
    assert json.loads(hand)["voided"] == [
        {"seat": 3, "key": offering, "hand_id": "table:9:match:1:hand:1", "commitment": ANY}
    ]
