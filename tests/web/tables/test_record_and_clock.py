"""The record the table server writes, the hand-over of a refused one, and the turn clock each
audience is shown. No sockets and no clock: the game and the rendering are driven directly."""

from __future__ import annotations

import logging
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import find_variant, new_deal_key, parse_record, replay_record
from amigos.engine.deal import deal_from_key
from amigos.engine.record import record_hand
from amigos.table import Phase, needs_first_leader
from amigos.web.archive.errors import ArchiveError
from amigos.web.tables import handover, log_codec, rendering
from amigos.web.tables.entry_writing import match_ended_entry
from amigos.web.tables.game import Game
from amigos.web.tables.log_entries import CardGiven, HandStarted, LogEntry, MatchStarted
from tests.web.tables.written import Written


def played_game(variant_name: str, players: int | None, moves: int) -> Game:
    """A game of ``variant_name`` with ``moves`` moves made, as the server writes them (`Written`):
    seat 1 a computer player, whose moves the record marks."""
    variant = find_variant(variant_name, players)
    people: list[str | None] = [f"p{seat}" for seat in range(variant.players)]
    people[1] = None
    table = Written(variant_name, people)
    # A Cuban deal that gives a seat 5 or more doubles (about 1 in 45 in 1v1) is voided at once by
    # the computer player at seat 1, before anyone moves: the record would hold no hand to read.
    key = new_deal_key()
    while variant.reshuffle_seats(deal_from_key(key, variant).hands):
        key = new_deal_key()
    table.deal(key, 0 if needs_first_leader(variant) else None)
    for _ in range(moves):
        if not table.in_hand:
            break
        table.move()
    return replayed(table)


def replayed(table: Written, mode: str | None = None) -> Game:
    """The record's game rebuilt from ``table``'s log, each entry through its stored row and back."""
    game = Game(table_id=table.table_id, variant=table.state.variant, names=table.names, mode=mode)
    game.replay(log_codec.decode(*log_codec.encode(entry)) for entry in table.log)
    return game


@pytest.mark.parametrize(("variant", "players"), [("amigos-100", None), ("draw-100", 2), ("cuban-1v1", None)])
def test_the_server_writes_a_record_the_engine_accepts(variant: str, players: int | None) -> None:
    """The live fields are the documented ones (hand_id, epoch times, one system mark per move):
    a record with the server's old names and units was refused by replay and by the archive."""
    record = played_game(variant, players, 6).record()
    replay_record(parse_record(record))
    hand = record["hands"][0]
    assert set(hand) >= {"key", "hand_id", "commitment", "times", "system"} and "id" not in hand
    assert len(hand["times"]) == len(hand["system"]) == len(hand["moves"])
    assert all(isinstance(at, float) for at in hand["times"])
    # A person's moves carry no mark; the computer player's at seat 1, and the passes the
    # table makes by itself, do.
    assert set(hand["system"]) <= {None, "computer", "auto_pass"} and "computer" in hand["system"]


def test_a_computer_move_is_marked_as_one_in_the_record_even_after_a_restart() -> None:
    table = Written("amigos-100", (None, None, None, "d"))
    table.deal(new_deal_key(), 0)
    table.move()  # seat 0's computer player
    game = replayed(table)
    assert game.record()["hands"][0]["system"][0] == "computer"
    assert replayed(table).record() == game.record()


@pytest.mark.django_db(transaction=True)
async def test_a_refused_hand_over_is_logged_with_its_code(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(*args: Any, **options: Any) -> None:
        raise ArchiveError("record-invalid", "hand 1: times must be a list of times")

    monkeypatch.setattr(handover, "_archive", refuse)
    actor: Any = SimpleNamespace(id=3, seats=[], game=SimpleNamespace(match_number=2), name="t")
    with caplog.at_level(logging.ERROR, logger="amigos.tables"):
        await handover.hand_over(actor)
        assert await handover.settled()
    assert [record.levelno for record in caplog.records] == [logging.ERROR]
    message = caplog.records[0].getMessage()
    assert "record-invalid" in message and "match 2" in message


def clock(situation: str, seconds: int) -> dict[str, Any]:
    return {
        "seat": 1,
        "deadline": "2026-11-23T00:00:20.000Z",
        "seconds": seconds,
        "situation": situation,
        "legal": [{"tile": "6-4", "arms": [], "lead_left": None}],
    }


@pytest.mark.parametrize(("situation", "seconds"), [("single", 5), ("blocking", 60), ("normal", 20)])
def test_only_the_seat_in_turn_learns_how_long_its_turn_is(situation: str, seconds: int) -> None:
    data = clock(situation, seconds)
    assert rendering.render("clock", data, 1) == data
    for audience in (0, 2, None):
        shown = rendering.render("clock", data, audience)
        assert shown == {"seat": 1, "deadline": None, "seconds": None, "situation": None, "legal": []}


@pytest.mark.parametrize(
    ("situation", "seconds"), [("timed", 30), ("computer", 20), ("correspondence", 86400)]
)
def test_a_clock_the_table_alone_decides_is_public(situation: str, seconds: int) -> None:
    shown = rendering.render("clock", clock(situation, seconds), None)
    assert (shown["situation"], shown["seconds"], shown["legal"]) == (situation, seconds, [])


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_record_built_along_the_match_equals_one_built_from_its_log(data: st.DataObject) -> None:
    """Each hand's part of the record is kept between builds and rebuilt only when the hand gained
    moves: whenever it is asked for (mid-hand, between hands, in a new match), it must equal the
    record of a fresh game that replays the same log; and its moves, written one by one as they
    were made, must be those the engine writes by playing the hand's actions again."""
    name, players = data.draw(
        st.sampled_from([("amigos-100", None), ("draw-100", 3), ("cuban-1v1", None)]), label="variant"
    )
    variant = find_variant(name, players)
    names = tuple(f"p{seat}" for seat in range(variant.players))
    game = Game(table_id=7, variant=variant, names=names)
    log: list[LogEntry] = []
    for number in range(1, data.draw(st.integers(1, 2), label="matches") + 1):
        table = Written(name, names, match_number=number)
        for _hand in range(data.draw(st.integers(1, 3), label="hands")):
            if table.state.phase is not Phase.DEALING:
                break  # the match reached its target
            leader = 0 if needs_first_leader(variant) else None
            entries = table.deal(str(data.draw(st.uuids(version=4), label="deal key")), leader)
            while True:
                game.replay(entries)
                log += entries
                if not table.in_hand:
                    break
                hand = table.state.hand
                assert hand is not None
                action = data.draw(st.sampled_from(hand.state.legal_actions()), label="action")
                entries = table.move(action)
                if data.draw(st.integers(0, 9), label="ask") == 0:
                    assert game.record() == _replayed(variant, log).record()
            assert game.record() == _replayed(variant, log).record()
            # the moves written as they were made read as the engine writes them from the actions
            assert [list(record_hand(hand.start, hand.actions).moves) for hand in game.hands] == [
                hand["moves"] for hand in game.record()["hands"]
            ]


def _replayed(variant: Any, log: list[LogEntry], mode: str | None = None) -> Game:
    """A fresh game replaying ``log`` as it is stored: each entry through its row and back."""
    names = tuple(f"p{seat}" for seat in range(variant.players))
    fresh = Game(table_id=7, variant=variant, names=names, mode=mode)
    fresh.replay(log_codec.decode(*log_codec.encode(entry)) for entry in log)
    return fresh


def test_the_system_clock_tells_the_time_as_django_does() -> None:
    """`SystemClock` skips Django's `timezone.now` (it read the setting on every call): with the
    site's ``USE_TZ`` both give the aware UTC time."""
    from datetime import UTC

    from django.conf import settings as django_settings
    from django.utils import timezone

    from amigos.web.tables.actor_types import SystemClock

    assert django_settings.USE_TZ
    before = timezone.now()
    now = SystemClock().now()
    after = timezone.now()
    assert now.tzinfo is UTC and before <= now <= after


def test_a_card_counts_the_hand_in_play_and_zero_between_hands_even_after_a_restart() -> None:
    """A card's ``hand`` is the number of the hand in play when it was given, 0 before the first
    deal and after a hand's end (docs/record-format.md); the game rebuilt from the log says so too."""
    table = Written("amigos-100", ("p0", "p1", "p2", "p3"))
    started, dealt = table.deal(new_deal_key(), 0)[:2]
    assert isinstance(started, MatchStarted) and isinstance(dealt, HandStarted)
    start = 1_795_392_000.0  # 2026-11-23T00:00:00Z, the writer's second 0
    log: list[LogEntry] = [
        replace(started, at="2026-11-23T00:00:00.000Z"),
        CardGiven(0, 1, "yellow", "timeout", {"yellow": 1}, False, "2026-11-23T00:00:00.500Z"),
        dealt,
        CardGiven(1, 2, "yellow", "every_5s", {"yellow": 1}, True, "2026-11-23T00:00:01.000Z"),
    ]
    while table.in_hand:
        log += table.move()
    log.append(CardGiven(2, 3, "blue", "no_reconnection", {"blue": 1}, False, "2026-11-23T00:00:03.000Z"))
    game = Game(table_id=7, variant=table.state.variant, names=table.names, mode="live")
    game.replay(log)
    assert game.match is not None
    log.append(match_ended_entry("abandonment", game.match, offender=2, at="2026-11-23T00:00:03.000Z"))
    game.replay(log[-1:])
    record = game.record()
    assert (record["mode"], record["started"], record["ended"]) == ("live", start, start + 3.0)
    assert [(card["seat"], card["hand"], card["at"]) for card in record["cards"]] == [
        (0, 0, start + 0.5),
        (1, 1, start + 1.0),  # a practice card is in the record too, as the pure table's
        (2, 0, start + 3.0),
    ]
    replay_record(parse_record(record))
    assert _replayed(table.state.variant, log, mode="live").record() == record


def test_a_log_stored_before_the_match_times_were_kept_still_rebuilds_its_record() -> None:
    """Rows of a match's start and end and of a card written before they held their ``at`` read
    back with none: the record then leaves the match's times and those cards out, rather than
    failing to rebuild the table."""
    table = Written("amigos-100", ("p0", "p1", "p2", "p3"))
    log = table.deal(new_deal_key(), 0)
    log.append(CardGiven(1, 2, "yellow", "timeout", {"yellow": 1}, False, "2026-11-23T00:00:01.000Z"))
    game = Game(table_id=7, variant=table.state.variant, names=table.names, mode="live")
    game.replay(log)
    assert game.match is not None
    log.append(match_ended_entry("suspension", game.match, offender=1, at="2026-11-23T00:00:02.000Z"))
    old: list[LogEntry] = []
    for entry in log:
        kind, data = log_codec.encode(entry)
        if kind in ("started", "match_ended", "card"):
            del data["at"]
        old.append(log_codec.decode(kind, data))
    fresh = Game(table_id=7, variant=table.state.variant, names=table.names, mode="live")
    fresh.replay(old)
    record = fresh.record()
    assert "started" not in record and "ended" not in record and "cards" not in record
    assert (record["mode"], record["termination"], record["offender"]) == ("live", "suspension", 1)
