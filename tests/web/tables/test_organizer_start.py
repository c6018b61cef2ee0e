"""The organizer starts the match with a button once every seat has accepted (issue 38, item 4;
spec §2, the organizer's box): over a real socket nobody else may start it, nor the organizer
before everyone accepted, and the start is the match's; a table waiting for its organizer
survives a restart as it was (neither started nor cancelled), and when nobody presses the button
in time it is cancelled and everyone is free again. A player alone against the computer, and a
correspondence game, still start with the last acceptance."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async

from amigos.table import Timing
from amigos.web.accounts.models import User
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import registry, selectors, services
from amigos.web.tables.models import Invitation, Seat, Table
from tests.web.conftest import ServerThread, SignedIn
from tests.web.tables.support import FakeClock, Recorder, event_in
from tests.web.tables.test_actor import against_computers
from tests.web.tables.test_cancel_and_leave import inviting_table, statuses
from tests.web.tables.test_socket_tables import command, wait_online
from tests.web.test_socket import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]

#: How long a table whose seats all accepted waits for its organizer (the invitation's window).
WINDOW = Timing().invitation


def stored(table_id: int) -> tuple[str, str]:
    table = Table.objects.get(pk=table_id)
    return table.status, table.deadline_kind


async def test_over_a_socket_only_the_organizer_starts_and_only_once_everyone_accepted(
    site_server: ServerThread, sign_in: Callable[..., SignedIn]
) -> None:
    ana, beto, carla = [await sync_to_async(sign_in)(name) for name in ("Ana", "Beto", "Carla")]
    peers = {
        name: await connect(site_server, who)
        for name, who in (("Ana", ana), ("Beto", beto), ("Carla", carla))
    }
    await wait_online(peers["Ana"], 3)
    table = await sync_to_async(services.create_table)(
        organizer=ana.user,
        name="Los del parque",
        variant="amigos-100",
        seats={
            1: services.SeatChoice(user_id=carla.user.pk),
            2: services.SeatChoice(user_id=beto.user.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    start = {"table_id": table.pk}
    early = await command(peers["Ana"], "table.start", start)
    assert (early["type"], early["payload"]["code"]) == ("error", "not_all_accepted")
    accepted = await command(peers["Beto"], "table.invite.accept", start)
    assert accepted["type"] == "ack"
    for name in ("Beto", "Carla"):  # a seated player and one still invited: neither is the organizer
        refused = await command(peers[name], "table.start", start)
        assert (refused["type"], refused["payload"]["code"]) == ("error", "not_organizer")
    early = await command(peers["Ana"], "table.start", start)
    assert (early["type"], early["payload"]["code"]) == ("error", "not_all_accepted")
    accepted = await command(peers["Carla"], "table.invite.accept", start)
    assert accepted["type"] == "ack"
    # Everyone is seated, and the table waits for Ana: the last acceptance started nothing.
    assert await sync_to_async(stored)(table.pk) == ("inviting", "start")
    joined = await command(peers["Beto"], "table.join", {"table_id": table.pk, "since": None})
    assert joined["type"] == "ack"
    snapshot = await peers["Beto"].expect(lambda e: e["type"] == "table.snapshot")
    assert snapshot["payload"]["table"]["status"] == "inviting" and snapshot["payload"]["hand"] is None
    assert {entry["invitation"] for entry in snapshot["payload"]["seats"]} == {"accepted"}
    started = await command(peers["Ana"], "table.start", start)
    assert started["type"] == "ack" and started["payload"]["version"] > snapshot["payload"]["version"]
    await peers["Beto"].expect(lambda e: event_in(e, "started") is not None)
    await peers["Beto"].expect(lambda e: event_in(e, "hand_started") is not None)
    status, kind = await sync_to_async(stored)(table.pk)
    assert status == "playing" and kind != "start"
    again = await command(peers["Ana"], "table.start", start)
    assert (again["type"], again["payload"]["code"]) == ("error", "already_started")


async def test_a_waiting_table_survives_a_restart_and_its_organizer_starts_it(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    for guest in (carla, beto):
        await actor.call(lambda guest=guest: actor.accept(guest.pk))
    assert (actor.status, actor.deadline_kind) == ("inviting", "start")
    version = actor.version
    fake_clock.advance(WINDOW / 2)
    await registry.stop_all()  # the process stops, and a new one starts
    await registry.resume_all()
    again = registry.local_actor(actor.id)
    assert again is not None and again is not actor
    assert (again.status, again.version, again.deadline_kind) == ("inviting", version, "start")
    assert await sync_to_async(stored)(actor.id) == ("inviting", "start")
    assert [entry["table_id"] for entry in await sync_to_async(selectors.live_tables)()] == [actor.id]
    watcher = Recorder(beto.pk)
    await again.call(lambda: again.join(watcher, True, None))
    await again.call(lambda: again.start_by_organizer(ana.pk))
    assert again.status == "playing"
    assert [event["kind"] for event in watcher.events()][:2] == ["started", "hand_started"]
    assert await sync_to_async(statuses)(ana, beto, carla) == ["playing"] * 3


async def test_a_table_nobody_starts_in_time_is_cancelled_and_everyone_is_free(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    organizer, guest = Recorder(ana.pk), Recorder(beto.pk)
    for guest_user in (carla, beto):
        await actor.call(lambda guest_user=guest_user: actor.accept(guest_user.pk))
    await actor.call(lambda: actor.join(organizer, True, None))
    await actor.call(lambda: actor.join(guest, True, None))
    fake_clock.advance(WINDOW - 1)
    await actor.fire_deadline()
    assert actor.status == "inviting"  # still in time
    fake_clock.advance(1)
    await actor.fire_deadline()
    assert actor.status == "cancelled"
    for page in (organizer, guest):
        assert [event["data"] for event in page.events("cancelled")] == [{"reason": "not_started"}]
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert (table.status, table.deadline_at, table.deadline_kind) == ("cancelled", None, "")
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3
    assert await sync_to_async(selectors.live_tables)() == []
    with pytest.raises(CommandError) as late:
        await actor.call(lambda: actor.start_by_organizer(ana.pk))
    assert late.value.code == "already_started"


async def test_a_table_waiting_past_its_window_while_the_server_was_down_is_cancelled_at_the_start(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    for guest in (carla, beto):
        await actor.call(lambda guest=guest: actor.accept(guest.pk))
    await registry.stop_all()
    fake_clock.advance(WINDOW + 5)
    await registry.resume_all()
    again = registry.local_actor(actor.id)
    assert again is not None
    await again.fire_deadline()  # the timer's job, run now
    assert again.status == "cancelled"
    assert await sync_to_async(stored)(actor.id) == ("cancelled", "")
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3


async def test_the_organizer_can_still_cancel_a_table_that_waits_for_the_start(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, beto, carla, actor = await inviting_table(make_player, monkeypatch)
    for guest in (carla, beto):
        await actor.call(lambda guest=guest: actor.accept(guest.pk))
    await actor.call(lambda: actor.cancel(ana.pk))
    assert actor.status == "cancelled"
    assert await sync_to_async(statuses)(ana, beto, carla) == ["available"] * 3


async def test_alone_against_the_computer_the_match_starts_at_once(make_player: Callable[..., User]) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    assert actor.status == "playing"
    with pytest.raises(CommandError) as refused:
        await actor.call(lambda: actor.start_by_organizer(user.pk))
    assert refused.value.code == "already_started"


async def test_a_correspondence_game_starts_with_the_last_acceptance(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    ana, beto = [await sync_to_async(make_player)(name) for name in ("Ana", "Beto")]
    table = await sync_to_async(services.create_table)(
        organizer=ana,
        name="Por carta",
        variant="amigos-100",
        kind="correspondence",
        now=fake_clock.now(),
        seats={
            1: services.SeatChoice(level="easy"),
            2: services.SeatChoice(user_id=beto.pk),
            3: services.SeatChoice(level="easy"),
        },
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    await actor.call(lambda: actor.accept(beto.pk))
    assert actor.status == "playing"
    accepted = await sync_to_async(
        Seat.objects.filter(table_id=table.pk, invitation=Invitation.ACCEPTED).count
    )()
    assert accepted == 4
