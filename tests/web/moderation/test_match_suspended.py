"""A card given by a live table that reaches a suspension ends the match unfinished and closes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.tables import registry
from amigos.web.tables.models import MatchRecord, Table
from tests.web.moderation.support import START, give, table_for
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import among_people

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def fresh_registry() -> Any:
    registry.use_clock(None)
    yield
    await registry.stop_all()
    registry.use_clock(None)


async def test_the_28th_yellow_at_a_live_table_suspends_and_ends_the_match_unfinished(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    registry.use_clock(clock)
    # A table of people: at a table with computer players cards never count (issue 38, item 7).
    people, actor = await among_people(make_player, monkeypatch)
    seat = actor.game.to_move
    assert seat is not None
    user = people[seat]

    def earlier_cards() -> None:
        other = table_for(user)
        for _ in range(27):
            give(other, user, ["yellow"], START)

    await sync_to_async(earlier_cards)()
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    assert actor.clock_info is not None
    clock.advance(actor.clock_info.seconds)
    await actor.fire_deadline()  # overdue: the 28th yellow card
    await sync_to_async(user.refresh_from_db)()
    assert user.suspended_until is not None
    ended = me.events("match_ended")
    assert ended and ended[-1]["data"]["termination"] == "suspension"
    assert ended[-1]["data"]["completed"] is False
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "finished"
    record = await sync_to_async(MatchRecord.objects.get)(table=table)
    assert record.termination == "suspension" and record.ended_at is not None
    assert actor.deadline_at is None
