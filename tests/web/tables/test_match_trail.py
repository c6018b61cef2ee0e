"""The match's own fields of the record a live table stores (docs/record-format.md, "Records of
live tables"): its mode, when it started and ended, and every card given, with its time and hand.

The server's record lacked all four while the pure table's (`amigos.table.record.to_record`) had
them: a yellow card's turn, its moment, the match's length were in the log only. They come from
the stored log, so a table rebuilt after a restart writes the same record."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.tables import registry, store
from amigos.web.tables.models import MatchRecord
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import among_people, replay_exit, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


async def test_the_stored_record_tells_the_mode_the_times_and_the_cards_even_after_a_restart(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    people, actor = await among_people(make_player, monkeypatch)
    started = fake_clock.now()
    # The first turn's time runs out: a yellow card to the seat in turn, in the first hand.
    seat = actor.game.to_move
    assert seat is not None and actor.deadline_kind == "card" and actor.deadline_at is not None
    carded = actor.deadline_at
    fake_clock.moment = carded
    await actor.fire_deadline()
    rows = await sync_to_async(store.rows_between)(actor.id, 0, actor.version)
    given = [data for _, kind, data in rows if kind == "card"]
    assert [(data["seat"], data["colour"]) for data in given] == [(seat, "yellow")]
    reason = given[0]["reason"]
    assert reason in ("timeout", "slow_single")
    # Then everyone plays in time (half a second after the card: before any next card or the
    # system's move), every seat heard from, until the match reaches its target.
    step = 0.5
    while actor.status == "playing":
        fake_clock.advance(step)
        step = 1.0
        for number in range(4):
            actor.heard_at_once(number)
        if not actor.game.in_hand:
            await actor.fire_deadline()  # the deal, after the pause between hands
            await until(lambda: actor.game.in_hand or actor.status != "playing")
            continue
        mover, hand = actor.game.to_move, actor.game.hand
        assert mover is not None and hand is not None
        action = hand.legal_actions()[0]
        user_id = people[mover].pk
        await actor.call(lambda user_id=user_id, action=action: actor.play(user_id, actor.version, action))
    ended = fake_clock.now()
    assert actor.status == "voting"
    row = await MatchRecord.objects.aget(table_id=actor.id, number=1)
    record: dict[str, Any] = row.record
    assert record["termination"] == "target"
    assert record["mode"] == "live"
    assert record["started"] == started.timestamp()
    assert record["ended"] == ended.timestamp()
    assert record["cards"] == [
        {"seat": seat, "colour": "yellow", "reason": reason, "at": carded.timestamp(), "hand": 1}
    ]
    assert record["started"] < record["cards"][0]["at"] < record["ended"]
    # `amigos replay` checks the live fields, and accepts these.
    assert replay_exit(record) == 0
    # The process stops; the table rebuilt from its stored log writes the same record.
    await registry.stop_all()
    rebuilt = await registry.get_actor(actor.id)
    assert rebuilt is not None
    # (The absent seats are the actor's presence when the match ended, not the log's: none here.)
    assert "absent" not in record
    assert json.loads(json.dumps(rebuilt.game.record())) == record
