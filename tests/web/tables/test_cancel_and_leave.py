"""Tables end instead of living for ever (docs/rules.md, "Creating a table and starting" and
"Connection and absence"): an invitation refused or not answered cancels the table (the protocol's
`cancelled`), frees every seat's status and takes it off the lobby's list; a server that starts
cancels the inviting tables that lapsed meanwhile without rebuilding them; and a timed table whose
people have all left ends unfinished instead of being played out by computer players."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.web.accounts.models import User
from amigos.web.archive.models import ArchivedMatch, MatchSeat
from amigos.web.lobby import presence
from amigos.web.lobby.models import Presence
from amigos.web.lobby.models import Status as PresenceStatus
from amigos.web.realtime.hub import get_hub
from amigos.web.tables import handover, registry, rendering, selectors, services, socket_keys
from amigos.web.tables.actor import TableActor
from amigos.web.tables.models import Invitation, LogRow, MatchRecord, Seat, Table
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import against_computers, turn_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


def statuses(*users: User) -> list[str]:
    found = dict(Presence.objects.filter(user__in=users).values_list("user_id", "status"))
    return [found.get(user.pk, "") for user in users]


def online(*users: User) -> None:
    for user in users:
        presence.sign_in(user, FakeClock().now())


async def inviting_table(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> tuple[User, User, User, TableActor]:
    """Ana's Amigos table: Carla on her right and Beto opposite are invited, a computer on her left."""
    ana, beto, carla = [await sync_to_async(make_player)(name) for name in ("Ana", "Beto", "Carla")]
    await sync_to_async(online)(ana, beto, carla)
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk, carla.pk})
    table = await sync_to_async(services.create_table)(
        organizer=ana,
        name="Mesa",
        variant="amigos-100",
        now=FakeClock().now(),  # the tests' fake clock starts there
        seats={
            1: services.SeatChoice(user_id=carla.pk),
            2: services.SeatChoice(user_id=beto.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    await actor.links.wake(actor.id)  # sends the invitations: both "invited"
    assert await sync_to_async(statuses)(beto, carla) == ["invited", "invited"]
    return ana, beto, carla, actor


async def test_a_refused_invitation_cancels_the_table_and_everyone_goes_back(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    organizer, first, second = Recorder(ana.pk), Recorder(beto.pk), Recorder(carla.pk)
    await actor.call(lambda: actor.join(organizer, True, None))
    await first.join(rendering.user_topic(beto.pk))
    await second.join(rendering.user_topic(carla.pk))
    assert [entry["table_id"] for entry in await sync_to_async(selectors.live_tables)()] == [actor.id]
    await actor.call(lambda: actor.refuse(beto.pk))
    kinds = [(event["kind"], event["data"]) for event in organizer.events()]
    assert kinds[-2][0] == "invitation_refused" and kinds[-2][1]["reason"] == "refused"
    assert kinds[-1] == ("cancelled", {"reason": "invitations"})
    assert actor.status == "cancelled"
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert (table.status, table.deadline_at, table.version) == ("cancelled", None, actor.version)
    assert table.ended_at is not None
    # The one who refused is told so, the other invited player that the table is gone.
    assert ("table.invitation_closed", {"table_id": actor.id, "reason": "refused"}) in first.received
    assert ("table.invitation_closed", {"table_id": actor.id, "reason": "cancelled"}) in second.received
    # Nobody stays "invited"; the table leaves the lobby's list and nobody's open invitations.
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3
    assert await sync_to_async(selectors.live_tables)() == []
    assert await sync_to_async(selectors.open_invitations)(carla.pk) == []
    # A late answer finds nothing open.
    with pytest.raises(Exception) as late:
        await actor.call(lambda: actor.accept(carla.pk))
    assert getattr(late.value, "code", None) == "not_invited"


async def test_an_unanswered_invitation_expires_and_cancels_the_table(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    organizer = Recorder(ana.pk)
    await actor.call(lambda: actor.join(organizer, True, None))
    await actor.call(lambda: actor.accept(carla.pk))  # Carla sits down; Beto never answers
    fake_clock.advance(29)
    await actor.fire_deadline()
    assert actor.status == "inviting"
    fake_clock.advance(1)
    await actor.fire_deadline()
    refused = organizer.events("invitation_refused")
    assert [(event["data"]["user_id"], event["data"]["reason"]) for event in refused] == [
        (beto.pk, "expired")
    ]
    assert [event["data"] for event in organizer.events("cancelled")] == [{"reason": "invitations"}]
    assert actor.status == "cancelled"
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3
    assert await sync_to_async(selectors.live_tables)() == []
    # Nothing is left to fire: the table has no deadline, and no timer spins.
    assert actor.deadline_at is None


async def test_lapsed_inviting_tables_are_cancelled_at_start_without_being_rebuilt(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """The probe left 400 tables inviting for ever; each start rebuilt them all (7 s)."""
    ana, beto, carla = [await sync_to_async(make_player)(name) for name in ("Ana", "Beto", "Carla")]
    now = fake_clock.now()

    def stored(invitation: str, until: Any, *, invited: User = beto, status: str = "inviting") -> Table:
        table = Table.objects.create(
            name="Vieja", variant="cuban-1v1", players=2, organizer=ana, created_at=now, status=status
        )
        Seat.objects.create(table=table, number=0, user=ana, invitation=Invitation.ACCEPTED)
        Seat.objects.create(table=table, number=1, user=invited, invitation=invitation, invited_until=until)
        return table

    lapsed = await sync_to_async(stored)(Invitation.PENDING, now - timedelta(seconds=1))
    refused_long_ago = await sync_to_async(stored)(Invitation.REFUSED, None)
    fresh = await sync_to_async(stored)(Invitation.PENDING, now + timedelta(seconds=20), invited=carla)
    await sync_to_async(online)(ana, beto, carla)
    await sync_to_async(presence.set_statuses)([beto.pk, carla.pk], PresenceStatus.INVITED)
    watcher = Recorder(-1)
    await get_hub().join(rendering.watch_topic(lapsed.pk), watcher)
    await get_hub().join(rendering.user_topic(beto.pk), watcher)

    await registry.resume_all()

    for table in (lapsed, refused_long_ago):
        assert registry.local_actor(table.pk) is None  # not rebuilt
        stored_now = await sync_to_async(Table.objects.get)(pk=table.pk)
        assert (stored_now.status, stored_now.version, stored_now.deadline_at) == ("cancelled", 1, None)
        events = await sync_to_async(list)(
            LogRow.objects.filter(table=table).values_list("version", "kind", "data")
        )
        assert events == [(1, "cancelled", {"reason": "invitations"})]
    assert await sync_to_async(Seat.objects.filter(table=lapsed, invitation="pending").count)() == 0
    assert [event["kind"] for event in watcher.events()] == ["cancelled"]
    assert ("table.invitation_closed", {"table_id": lapsed.pk, "reason": "expired"}) in watcher.received
    # The invitation still open is rebuilt and keeps its time; its player stays invited.
    assert registry.local_actor(fresh.pk) is not None
    assert (await sync_to_async(Table.objects.get)(pk=fresh.pk)).status == "inviting"
    assert await sync_to_async(statuses)(beto, carla) == ["available", "invited"]
    assert [entry["table_id"] for entry in await sync_to_async(selectors.live_tables)()] == [fresh.pk]


async def test_a_timed_table_everyone_left_ends_instead_of_being_played_by_computers(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """Against the computer the probe's tables played on alone for ever once their creator left."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "timed")
    watcher = Recorder(-1)
    await actor.call(lambda: actor.join(watcher, False, None))
    await actor.call(lambda: actor.detach(socket_keys.key_of(me), 0))
    fake_clock.advance(119)
    await actor.fire_deadline()
    assert actor.status == "playing" and actor.paused
    fake_clock.advance(1)
    await actor.fire_deadline()
    assert not watcher.events("computer_holds")
    ended = watcher.events("match_ended")[-1]["data"]
    assert (ended["termination"], ended["seat"], ended["winner"], ended["completed"]) == (
        "abandonment",
        0,
        None,
        False,
    )
    assert not watcher.events("card")  # timed tables give no cards
    assert actor.status == "finished"
    assert (await sync_to_async(Table.objects.get)(pk=actor.id)).status == "finished"
    # Not a win for anyone, the absent player least: the archive keeps it unfinished.
    assert await handover.settled()
    record = await sync_to_async(MatchRecord.objects.get)(table_id=actor.id)
    assert record.termination == "abandonment"
    archived = await sync_to_async(ArchivedMatch.objects.get)(source=f"table:{actor.id}:match:1")
    assert (archived.complete, archived.winner, archived.rating_sequence) == (False, None, None)
    results = await sync_to_async(list)(
        MatchSeat.objects.filter(match=archived).values_list("result", flat=True)
    )
    assert set(results) == {"unfinished"}


async def test_a_computer_table_whose_page_was_never_opened_ends_after_the_windows(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    _user, actor = await against_computers(make_player, "draw-100", players=4)
    watcher = Recorder(-1)
    await actor.call(lambda: actor.join(watcher, False, None))
    fake_clock.advance(30)  # unheard for 30 s: away
    await actor.fire_deadline()
    assert watcher.events("disconnected")
    fake_clock.advance(120)
    await actor.fire_deadline()
    assert actor.status == "finished"
    assert watcher.events("match_ended")[-1]["data"]["termination"] == "abandonment"
    assert not watcher.events("computer_holds")


async def test_a_computer_holds_a_seat_while_another_person_plays_on_and_the_table_ends_when_they_go(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto = await sync_to_async(make_player)("Ana"), await sync_to_async(make_player)("Beto")
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk})
    table = await sync_to_async(services.create_table)(
        organizer=ana,
        name="Mesa",
        variant="cuban-2v2",
        seats={
            1: services.SeatChoice(level="easy"),
            2: services.SeatChoice(user_id=beto.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    await actor.call(lambda: actor.accept(beto.pk))
    await actor.call(lambda: actor.start_by_organizer(ana.pk))
    first, second = Recorder(ana.pk), Recorder(beto.pk)
    await actor.call(lambda: actor.join(first, True, None))
    await actor.call(lambda: actor.join(second, True, None))
    await actor.call(lambda: actor.detach(socket_keys.key_of(first), 0))
    for _ in range(6):  # Beto's page beats every 20 s
        fake_clock.advance(20)
        assert actor.heard_at_once(2)
        await actor.fire_deadline()
    assert [event["data"]["seat"] for event in second.events("computer_holds")] == [0]
    assert actor.status == "playing"
    await actor.call(lambda: actor.detach(socket_keys.key_of(second), 2))
    fake_clock.advance(120)
    await actor.fire_deadline()
    ended = second.events("match_ended")[-1]["data"]
    assert (ended["termination"], ended["seat"], ended["completed"]) == ("abandonment", 2, False)
    assert actor.status == "finished"
