"""A suspension ends a match under way unfinished and closes the table: one that a card given by a
live table reaches, and one imposed away from the table (an administrator, the desk), which
moderation tells the player's tables of, a correspondence game included."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.test import Client

from amigos.web.accounts.models import User
from amigos.web.lobby import chat
from amigos.web.lobby.models import ChatMessage, ChatReport
from amigos.web.lobby.models import ReportStatus as ChatReportStatus
from amigos.web.moderation import admin as moderation_admin
from amigos.web.moderation import services as moderation
from amigos.web.moderation.models import Decision, Suspension
from amigos.web.tables import forwarding, registry, selectors, store
from amigos.web.tables.models import MatchRecord, Table
from tests.web.moderation.support import START, give, table_for
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import among_people, invited_table, until
from tests.web.tables.test_time_and_presence import humans_table

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


@pytest.mark.parametrize("by", ["administrator", "desk"])
async def test_a_suspension_from_outside_ends_a_correspondence_match_at_once(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """Regression: a suspension imposed away from the table (an administrator's, from the players'
    list; the desk's block on a report, a red card) reached a table only when the player's
    sockets closed or went silent, so never a correspondence game, which watches neither. Now
    moderation tells the player's tables once the suspension is stored, and the match ends by
    suspension with that seat as its offender, at once, nobody's socket having closed."""
    clock = FakeClock()
    registry.use_clock(clock)
    ana, beto, actor = await humans_table(make_player, monkeypatch, "amigos-100", kind="correspondence")
    assert actor.status == "playing" and actor.kind == "correspondence"
    seat = actor.seat_of(beto.pk)
    assert seat is not None
    watcher = Recorder(ana.pk)
    await actor.call(lambda: actor.join(watcher, True, None))
    admin = await sync_to_async(make_player)("Admin", is_staff=True, is_superuser=True)

    def suspend() -> None:
        now = clock.now()
        if by == "administrator":
            moderation.suspend_by_administrator(user=beto, days=7, by=admin, now=now, reason="insultos")
            return
        report = moderation.report(
            reporter=ana, reported_id=beto.pk, comment="insultos", now=now, table_id=actor.id
        )
        moderation.decide(report=report, action="block", by=admin, now=now, reason="insultos")

    await sync_to_async(suspend)()
    await until(lambda: bool(watcher.events("match_ended")))
    ended = [event["data"] for event in watcher.events("match_ended")]
    assert [(data["termination"], data["seat"], data["completed"]) for data in ended] == [
        ("suspension", seat, False)
    ]
    assert not watcher.events("disconnected")  # ended at once, nobody away
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "finished"
    record = await sync_to_async(MatchRecord.objects.get)(table=table)
    assert record.termination == "suspension"


async def test_a_suspension_at_no_table_tells_no_table_and_one_rolled_back_tells_none(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The news goes only after the suspension is stored: a transaction that rolls back tells no
    table, and the match goes on."""
    clock = FakeClock()
    registry.use_clock(clock)
    _ana, beto, actor = await humans_table(make_player, monkeypatch, "amigos-100", kind="correspondence")
    admin = await sync_to_async(make_player)("Admin", is_staff=True, is_superuser=True)
    told: list[tuple[int, int]] = []
    monkeypatch.setattr(
        forwarding, "tell_suspended_soon", lambda table_id, user_id: told.append((table_id, user_id))
    )

    def suspend_then_roll_back() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            moderation.suspend_by_administrator(user=beto, days=7, by=admin, now=clock.now(), reason="x")
            raise RuntimeError("rolled back")
        stranger = make_player("Nadie")
        moderation.suspend_by_administrator(user=stranger, days=7, by=admin, now=clock.now(), reason="x")

    await sync_to_async(suspend_then_roll_back)()
    assert told == [] and actor.status == "playing"
    await sync_to_async(moderation.suspend_by_administrator)(
        user=beto, days=7, by=admin, now=clock.now(), reason="x"
    )
    assert told == [(actor.id, beto.pk)]


async def test_a_block_from_the_lobbys_chat_reports_is_stored_and_ends_a_correspondence_match(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the block action of the lobby's old chat reports suspended the account
    directly (`accounts.suspend`): no suspension row, no decision kept, and no table told, so a
    correspondence match of the player's went on. It now goes through moderation's service (its
    admin registers the action): the row and the decision are stored and the match ends by
    suspension at once."""
    clock = FakeClock()
    registry.use_clock(clock)
    monkeypatch.setattr(moderation_admin, "timezone", SimpleNamespace(now=clock.now))
    ana, beto, actor = await humans_table(make_player, monkeypatch, "amigos-100", kind="correspondence")
    seat = actor.seat_of(beto.pk)
    assert seat is not None
    watcher = Recorder(ana.pk)
    await actor.call(lambda: actor.join(watcher, True, None))

    def block() -> int:
        admin = make_player("Admin", is_staff=True, is_superuser=True)
        line = chat.post(beto, "palabrota", clock.now())
        filed = ChatReport.objects.create(
            message_id=line.id, reporter=ana, comment="x", created_at=clock.now()
        )
        client = Client()
        client.force_login(admin)
        page = client.post(
            "/admin/lobby/chatreport/",
            {"action": "block", "_selected_action": [filed.pk], "confirmed": "yes"},
        )
        assert page.status_code == 302
        filed.refresh_from_db()
        assert filed.status == ChatReportStatus.BLOCKED
        assert ChatMessage.objects.get(pk=line.id).hidden
        assert Decision.objects.filter(player=beto, action="block", decided_by=admin).count() == 1
        return Suspension.objects.filter(user=beto, cause="admin").count()

    assert await sync_to_async(block)() == 1
    await until(lambda: bool(watcher.events("match_ended")))
    ended = [event["data"] for event in watcher.events("match_ended")]
    assert [(data["termination"], data["seat"]) for data in ended] == [("suspension", seat)]
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "finished"


async def test_a_suspension_of_an_invited_player_cancels_the_inviting_table(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: moderation told only tables in a match being played, and an inviting table's
    actor ignored the news, so a suspended player's table kept waiting for them. Now the table is
    cancelled (reason ``suspension``), every invitation closed and the table gone from the lobby's
    list."""
    clock = FakeClock()
    registry.use_clock(clock)
    people, actor = await invited_table(make_player, monkeypatch)
    await actor.call(lambda: actor.accept(people[1].pk))
    admin = await sync_to_async(make_player)("Admin", is_staff=True, is_superuser=True)
    assert actor.id in [row["table_id"] for row in await sync_to_async(selectors.live_tables)()]
    await sync_to_async(moderation.suspend_by_administrator)(
        user=people[2], days=7, by=admin, now=clock.now(), reason="insultos"
    )
    await until(lambda: actor.status == "cancelled")

    async def settled() -> None:
        """A job queued behind the cancellation: it runs once that one is stored and told."""

    await actor.call(settled)
    rows = await sync_to_async(store.rows_between)(actor.id, 0, actor.version)
    assert [data.get("reason") for _, kind, data in rows if kind == "cancelled"] == ["suspension"]
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "cancelled"
    assert all(seat.invitation != "pending" for seat in actor.seats)
    assert actor.id not in [row["table_id"] for row in await sync_to_async(selectors.live_tables)()]
