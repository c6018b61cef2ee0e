"""After the match: the vote (rematch, rotate, communicate) and the next table it creates.

Every match here is played for real through the actor (the test plays the first legal tile for each
human seat; computer seats think for themselves), so the vote opens the way it does on the site.
Time is a fake clock: the vote's 60 s pass only when a test says so.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from amigos.web.accounts.models import User
from amigos.web.lobby import presence
from amigos.web.lobby.models import Presence
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import links, lobby, registry, services, socket_keys, store
from amigos.web.tables.actor import TableActor
from amigos.web.tables.models import LogRow, Seat, Table
from tests.web.tables.support import FakeClock, Recorder, play_of, stored_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_registry")]

SAFETY = 180.0


@pytest.fixture(autouse=True)
def patient_lobby(settings: Any) -> None:
    """The players here sign in once, at the real time, and then a whole match is played before
    the rematch invites them again: with the test settings' 3 s of silence before a player counts
    as gone, a busy machine made them "not online" mid-test (CI must never turn red by chance).
    Nothing here is about the lobby's silence, so it is made long."""
    settings.AMIGOS_HEARTBEAT_SECONDS = 600


async def until(condition: Callable[[], bool], what: str) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(wait(), SAFETY)
    except TimeoutError:
        pytest.fail(f"gave up after {SAFETY} s waiting for {what}")


async def players(make_player: Callable[..., User], *names: str) -> list[User]:
    """Players signed in (online), so a live table may invite them."""
    users = []
    for name in names:
        user = await sync_to_async(make_player)(name)
        await sync_to_async(presence.sign_in)(user, timezone.now())
        users.append(user)
    return users


async def seated_table(
    organizer: User, variant: str, seats: dict[int, services.SeatChoice]
) -> tuple[TableActor, Recorder]:
    """A live table whose invited players all accept and whose organizer starts it, and a spectator."""
    table = await sync_to_async(services.create_table)(
        organizer=organizer, name="Los de siempre", variant=variant, seats=seats
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    for choice in seats.values():
        if choice.user_id is not None:
            await actor.call(lambda user_id=choice.user_id: actor.accept(user_id))
    await actor.call(lambda: actor.start_by_organizer(organizer.pk))
    assert actor.status == "playing"
    watcher = Recorder(-1)
    await actor.call(lambda: actor.join(watcher, False, None))
    return actor, watcher


async def play_out(actor: TableActor) -> None:
    """Play the match to its end: the first legal tile whenever a human seat is in turn."""
    while actor.status == "playing":

        def human_turn() -> bool:
            info = actor.clock_info
            return actor.status != "playing" or (
                info is not None
                and info.seat == actor.game.to_move
                and actor.seats[info.seat].user_id is not None
            )

        await until(human_turn, "a human seat's turn or the end of the match")
        if actor.status != "playing":
            break
        info = actor.clock_info
        assert info is not None
        user_id = actor.seats[info.seat].user_id
        assert user_id is not None
        try:
            await actor.call(
                lambda u=user_id, legal=info.legal: actor.play(u, actor.version, play_of(legal[0]))
            )
        except CommandError as refusal:
            if refusal.code not in ("stale_version", "not_your_turn"):
                raise
    assert actor.status == "voting", actor.status


async def four_at_the_vote(make_player: Callable[..., User]) -> tuple[list[User], TableActor, Recorder]:
    """Ana (organizer), Beto right, Carla partner and Dani left, their Amigos match played out: the
    vote is open. The four players, the table's actor and a spectator."""
    four = await players(make_player, "Ana", "Beto", "Carla", "Dani")
    actor, watcher = await seated_table(
        four[0], "amigos-100", {n: services.SeatChoice(user_id=u.pk) for n, u in enumerate(four) if n}
    )
    await play_out(actor)
    return four, actor, watcher


async def assert_back_to_the_meeting_room(actor: TableActor) -> None:
    """The stored table is finished and made no next table."""
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "finished" and table.next_table_id is None


async def vote(actor: TableActor, user: User, choice: str) -> None:
    await actor.call(lambda: actor.vote(user.pk, actor.version, choice))


def closed(watcher: Recorder) -> list[dict[str, Any]]:
    return [event["data"] for event in watcher.events("votes_closed")]


def seating(table_id: int) -> list[tuple[int | None, str, str]]:
    """(user id, computer level, invitation) of each seat, in seat order."""
    return [
        (row.user_id, row.level, row.invitation)
        for row in Seat.objects.filter(table_id=table_id).order_by("number")
    ]


async def next_table_started(old: TableActor, new_id: int) -> TableActor:
    """The new table's actor runs and has started its match without anyone pressing anything."""
    table = await sync_to_async(Table.objects.get)(pk=old.id)
    assert table.next_table_id == new_id and table.status == "finished"
    new = registry.local_actor(new_id)
    assert new is not None, "the next table was not woken"
    assert new.status == "playing" and new.game.match_number == 1 and new.game.in_hand
    stored = await sync_to_async(Table.objects.get)(pk=new_id)
    assert stored.status == "playing" and stored.started_at is not None
    assert (stored.name, stored.variant, stored.players, stored.target, stored.kind) == (
        table.name,
        table.variant,
        table.players,
        table.target,
        table.kind,
    )
    kinds = await sync_to_async(
        lambda: list(LogRow.objects.filter(table_id=new_id).values_list("kind", flat=True)[:2])
    )()
    assert kinds == ["started", "hand_started"]
    return new


async def test_a_unanimous_rematch_swaps_organizer_and_partner_and_plays_at_once(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    (ana, beto, carla, dani), actor, watcher = await four_at_the_vote(make_player)
    tables_before = await sync_to_async(Table.objects.count)()
    for user in (ana, beto, carla):
        await vote(actor, user, "rematch")
    assert actor.status == "voting" and not closed(watcher)  # Dani has not chosen yet
    assert await sync_to_async(Table.objects.count)() == tables_before
    await vote(actor, dani, "rematch")
    [result] = closed(watcher)
    assert result["result"] == "rematch" and isinstance(result["next_table_id"], int)
    new_id = result["next_table_id"]
    assert await sync_to_async(Table.objects.count)() == tables_before + 1
    await next_table_started(actor, new_id)
    # the organizer (Ana, seat 0) and her partner (Carla, seat 2) swap; right and left stay
    assert await sync_to_async(seating)(new_id) == [
        (carla.pk, "", "accepted"),
        (beto.pk, "", "accepted"),
        (ana.pk, "", "accepted"),
        (dani.pk, "", "accepted"),
    ]
    stored = await sync_to_async(Table.objects.get)(pk=new_id)
    assert stored.organizer_id == ana.pk  # the player now at the organizer's seat (seat 2)
    # positions are told from the organizer's new seat: Carla, in seat 0, is her partner now
    following = await registry.get_actor(new_id)
    assert following is not None
    places = {entry["user_id"]: entry["position"] for entry in following.snapshot(None)["seats"]}
    assert places == {ana.pk: "organizer", dani.pk: "right", carla.pk: "partner", beto.pk: "left"}
    # the vote's result is in the old table's log, next table and all
    logged = await sync_to_async(
        lambda: LogRow.objects.filter(table_id=actor.id, kind="votes_closed").get().data
    )()
    assert logged == {"result": "rematch", "next_table_id": new_id}


def statuses_of(users: list[User]) -> list[str]:
    return [str(Presence.objects.get(user_id=user.pk).status) for user in users]


async def test_players_who_go_on_at_the_next_table_stay_playing_and_those_sent_back_are_free(
    make_player: Callable[..., User], fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The online list: a rematch never shows its players free (regression: the vote wrote
    "playing", its close "available", the next table "playing" again); a vote that sends everyone
    to the meeting room frees them."""
    written: list[tuple[int, str]] = []
    real = lobby._set_statuses

    def recorded(changes: list[tuple[int, str]]) -> None:
        written.extend(changes)
        real(changes)

    monkeypatch.setattr(lobby, "_set_statuses", recorded)
    four, actor, watcher = await four_at_the_vote(make_player)
    assert await sync_to_async(statuses_of)(four) == ["playing"] * 4
    written.clear()
    for user in four:
        await vote(actor, user, "rematch")
    [result] = closed(watcher)
    following = await next_table_started(actor, result["next_table_id"])
    assert written and {status for _, status in written} == {"playing"}
    assert await sync_to_async(statuses_of)(four) == ["playing"] * 4
    await play_out(following)
    written.clear()
    await vote(following, four[0], "rematch")
    await vote(following, four[1], "communicate")  # one such vote sends everyone back at once
    assert closed(watcher) == [result]  # the spectator watched the first table only
    assert {status for _, status in written} == {"available"}
    assert await sync_to_async(statuses_of)(four) == ["available"] * 4


async def test_a_unanimous_rotation_moves_partner_left_left_right_and_right_across(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    (ana, beto, carla, dani), actor, watcher = await four_at_the_vote(make_player)
    for user in (dani, carla, beto, ana):
        await vote(actor, user, "rotate")
    [result] = closed(watcher)
    assert result["result"] == "rotate"
    await next_table_started(actor, result["next_table_id"])
    # Ana keeps her seat; Dani (left) goes right, Beto (right) becomes partner, Carla (partner) left
    assert await sync_to_async(seating)(result["next_table_id"]) == [
        (ana.pk, "", "accepted"),
        (dani.pk, "", "accepted"),
        (beto.pk, "", "accepted"),
        (carla.pk, "", "accepted"),
    ]
    stored = await sync_to_async(Table.objects.get)(pk=result["next_table_id"])
    assert stored.organizer_id == ana.pk


@pytest.mark.parametrize(
    ("choice", "expected"),
    [("rotate", ("beto", "ana")), ("rematch", ("ana", "beto"))],
)
async def test_two_seats_rotate_moves_everyone_one_seat_on_and_rematch_keeps_them(
    make_player: Callable[..., User], fake_clock: FakeClock, choice: str, expected: tuple[str, str]
) -> None:
    ana, beto = await players(make_player, "Ana", "Beto")
    actor, watcher = await seated_table(ana, "cuban-1v1", {1: services.SeatChoice(user_id=beto.pk)})
    await play_out(actor)
    await vote(actor, beto, choice)
    await vote(actor, ana, choice)
    [result] = closed(watcher)
    assert result["result"] == choice
    await next_table_started(actor, result["next_table_id"])
    ids = {"ana": ana.pk, "beto": beto.pk}
    assert await sync_to_async(seating)(result["next_table_id"]) == [
        (ids[name], "", "accepted") for name in expected
    ]
    stored = await sync_to_async(Table.objects.get)(pk=result["next_table_id"])
    assert stored.organizer_id == ana.pk


async def test_only_humans_vote_and_computer_seats_move_with_their_level(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    ana, beto = await players(make_player, "Ana", "Beto")
    actor, watcher = await seated_table(
        ana,
        "amigos-100",
        {
            1: services.SeatChoice(user_id=beto.pk),
            2: services.SeatChoice(level="hard"),
            3: services.SeatChoice(level="easy"),
        },
    )
    await play_out(actor)
    await vote(actor, beto, "rotate")
    assert not closed(watcher)
    await vote(actor, ana, "rotate")  # the two humans are everyone who votes
    [result] = closed(watcher)
    assert result["result"] == "rotate"
    new = await next_table_started(actor, result["next_table_id"])
    # rotation: the left (easy) goes right, Beto (right) becomes partner, the partner (hard) left
    assert await sync_to_async(seating)(result["next_table_id"]) == [
        (ana.pk, "", "accepted"),
        (None, "easy", "accepted"),
        (beto.pk, "", "accepted"),
        (None, "hard", "accepted"),
    ]
    assert [seat.level for seat in new.seats] == ["", "easy", "", "hard"]
    # the computer seats play the new match by themselves (a human's turn is left unplayed)
    eyes = Recorder(-2)
    await new.call(lambda: new.join(eyes, False, None))
    await play_out_until_a_computer_moved(new, eyes)


async def play_out_until_a_computer_moved(actor: TableActor, eyes: Recorder) -> None:
    def computer_moved() -> bool:
        return any(
            event["data"]["seat"] in (1, 3) and event["data"].get("system") is not True
            for kind in ("played", "passed")
            for event in eyes.events(kind)
        )

    async def keep_playing() -> None:
        while not computer_moved():
            info = actor.clock_info
            if info is not None and actor.seats[info.seat].user_id is not None:
                user_id = actor.seats[info.seat].user_id
                with contextlib.suppress(CommandError):
                    await actor.call(
                        lambda u=user_id, legal=info.legal: actor.play(u, actor.version, play_of(legal[0]))
                    )
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(keep_playing(), SAFETY)
    except TimeoutError:
        pytest.fail("no computer seat moved at the next table")


async def test_split_votes_send_everyone_back_and_create_nothing(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    (ana, beto, carla, dani), actor, watcher = await four_at_the_vote(make_player)
    tables_before = await sync_to_async(Table.objects.count)()
    for user, choice in ((ana, "rematch"), (beto, "rematch")):
        await vote(actor, user, choice)
    assert actor.status == "voting"
    # One player presses another button: everyone goes back at once, without waiting for Dani.
    await vote(actor, carla, "rotate")
    assert closed(watcher) == [{"result": "communicate", "next_table_id": None}]
    assert actor.status == "finished"
    with pytest.raises(CommandError) as refused:
        await vote(actor, dani, "rematch")
    assert refused.value.code == "not_voting"
    assert await sync_to_async(Table.objects.count)() == tables_before
    await assert_back_to_the_meeting_room(actor)


async def test_one_communicate_sends_everyone_back_at_once_and_a_lone_voter_may_change_their_mind(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    (ana, beto, carla, _dani), actor, watcher = await four_at_the_vote(make_player)
    await vote(actor, ana, "rematch")
    await vote(actor, ana, "rotate")  # while nobody else chose, a choice can still change
    await vote(actor, beto, "rotate")
    assert actor.status == "voting" and not closed(watcher)
    await vote(actor, carla, "communicate")
    assert closed(watcher) == [{"result": "communicate", "next_table_id": None}]
    await assert_back_to_the_meeting_room(actor)


async def test_a_player_who_leaves_during_the_vote_sends_everyone_back_and_a_reload_does_not(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    ana, beto = await players(make_player, "Ana", "Beto")
    actor, watcher = await seated_table(ana, "cuban-1v1", {1: services.SeatChoice(user_id=beto.pk)})
    pages = {user.pk: Recorder(user.pk) for user in (ana, beto)}
    for page in pages.values():
        await actor.call(lambda page=page: actor.join(page, True, None))
    await play_out(actor)
    await vote(actor, ana, "rematch")
    # Beto reloads his page: it closes and opens again within the grace, and nothing happens.
    beto_seat = actor.seat_of(beto.pk)
    assert beto_seat is not None
    key = socket_keys.key_of(pages[beto.pk])
    await actor.call(lambda: actor.detach(key, beto_seat))
    fake_clock.advance(9)
    await actor.fire_deadline()
    await actor.call(lambda: actor.join(pages[beto.pk], True, None))
    fake_clock.advance(30)
    await actor.fire_deadline()
    assert actor.status == "voting" and not closed(watcher)
    # Then he closes it for good: 10 s later he has left, which is a choice for the meeting room.
    await actor.call(lambda: actor.detach(key, beto_seat))
    fake_clock.advance(9.9)
    await actor.fire_deadline()
    assert actor.status == "voting"
    fake_clock.advance(0.1)
    await actor.fire_deadline()
    assert closed(watcher) == [{"result": "communicate", "next_table_id": None}]
    [left] = [event["data"] for event in watcher.events("vote") if event["data"].get("left")]
    assert left == {"seat": beto_seat, "choice": "communicate", "left": True}
    await assert_back_to_the_meeting_room(actor)


async def test_when_the_60_seconds_pass_nobody_plays_again(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    (ana, beto, carla, dani), actor, watcher = await four_at_the_vote(make_player)
    tables_before = await sync_to_async(Table.objects.count)()
    for user in (ana, beto, carla):
        await vote(actor, user, "rematch")
    fake_clock.advance(59.9)
    await actor.fire_deadline()
    assert actor.status == "voting" and not closed(watcher)
    fake_clock.advance(0.1)
    await actor.fire_deadline()
    assert closed(watcher) == [{"result": "communicate", "next_table_id": None}]
    assert await sync_to_async(Table.objects.count)() == tables_before
    await assert_back_to_the_meeting_room(actor)
    # Dani's rematch comes too late
    with pytest.raises(CommandError) as refused:
        await vote(actor, dani, "rematch")
    assert refused.value.code == "not_voting"
    assert await sync_to_async(Table.objects.count)() == tables_before


async def test_a_vote_after_the_table_finished_is_refused_and_changes_nothing(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    ana, beto = await players(make_player, "Ana", "Beto")
    actor, watcher = await seated_table(ana, "cuban-1v1", {1: services.SeatChoice(user_id=beto.pk)})
    await play_out(actor)
    await vote(actor, ana, "rotate")
    await vote(actor, beto, "rotate")
    [result] = closed(watcher)
    version = actor.version
    tables = await sync_to_async(Table.objects.count)()
    for user, choice in ((ana, "rematch"), (beto, "rotate"), (ana, "communicate")):
        with pytest.raises(CommandError) as refused:
            await vote(actor, user, choice)
        assert refused.value.code == "not_voting"
    assert actor.version == version
    assert await sync_to_async(LogRow.objects.filter(table_id=actor.id).count)() == version
    assert await sync_to_async(Table.objects.count)() == tables
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.next_table_id == result["next_table_id"] and table.status == "finished"
    assert len(closed(watcher)) == 1


@pytest.mark.parametrize("choice", ["rematch", "rotate"])
def test_the_next_table_made_is_what_loading_it_reads(make_player: Callable[..., User], choice: str) -> None:
    """The next table's actor is built from what `make_next_table` holds (`store.made`), not from
    the rows read back: it must be exactly what `store.load` reads, the seats moved (a rotation),
    the players' names and the computer's level included. Asked again, it holds nothing (the table
    was made before) and gives the same table."""
    ana, beto, carla = make_player("Ana"), make_player("Beto"), make_player("Carla")
    table = stored_table([ana, beto, None, carla], timezone.now())
    next_id, loaded = services.make_next_table(table.pk, choice)
    assert loaded is not None and loaded == store.load(next_id)
    assert [seat.name for seat in loaded.seats if seat.user_id is not None]
    assert services.make_next_table(table.pk, choice) == (next_id, None)


def count_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the tables `store.load` reads from now on (it still reads them)."""
    loads: list[int] = []
    real_load = store.load

    def counted(table_id: int) -> store.Loaded | None:
        loads.append(table_id)
        return real_load(table_id)

    monkeypatch.setattr(store, "load", counted)
    return loads


async def test_an_actor_its_maker_wakes_is_built_from_what_it_holds_and_reads_nothing(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`registry.preload`, then the maker's `links.wake`: the actor of a table just made is built
    from what its maker holds, without `store.load`, and the wake leaves nothing behind; once
    used, the table is read as always."""
    ana, beto = await players(make_player, "Ana", "Beto")
    old = await sync_to_async(stored_table)([ana, beto, None, None], timezone.now())
    next_id, loaded = await sync_to_async(services.make_next_table)(old.pk, "rematch")
    assert loaded is not None
    loads = count_loads(monkeypatch)
    registry.preload(loaded)
    await links.wake(next_id)
    actor = registry.local_actor(next_id)
    assert isinstance(actor, TableActor) and actor.id == next_id and next_id not in loads
    assert [seat.name for seat in actor.seats] == [seat.name for seat in loaded.seats]
    assert not registry._actors().preloads  # nothing left behind
    await registry.stop_all()
    again = await registry.locate(next_id)
    assert isinstance(again, TableActor) and loads.count(next_id) == 1


async def test_a_page_that_joins_the_next_table_before_its_maker_wakes_it_reads_nothing(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the players' pages join the next table as soon as the vote's close names it,
    often before the old table's actor wakes it, and each rematch was read back from the database
    all the same. What the maker holds now stands in from the moment the table is made
    (`links.make_next_table`), once, and only for `registry.PRELOAD_SECONDS`."""
    ana, beto = await players(make_player, "Ana", "Beto")
    old = await sync_to_async(stored_table)([ana, beto, None, None], timezone.now())
    later = await sync_to_async(stored_table)([ana, beto, None, None], timezone.now())
    loads = count_loads(monkeypatch)
    next_id = await links.make_next_table(old.pk, "rematch")
    actor = await registry.locate(next_id)  # a page's join, before any wake
    assert isinstance(actor, TableActor) and actor.id == next_id and next_id not in loads
    assert not registry._actors().preloads  # used once
    # A copy older than PRELOAD_SECONDS is not used: the table is read as always. The copy's
    # time is moved back rather than the clock forward: `time.monotonic` is the event loop's
    # clock too, and moving it woke the lease keeper, which adopted `old` (a flaky failure).
    stale_id = await links.make_next_table(later.pk, "rematch")
    preloads = registry._actors().preloads
    assert preloads.keys() == {stale_id}
    copy, until = preloads[stale_id]
    preloads[stale_id] = (copy, until - registry.PRELOAD_SECONDS)
    rebuilt = await registry.locate(stale_id)
    assert isinstance(rebuilt, TableActor) and loads.count(stale_id) == 1
    await registry.stop_all()


def test_the_next_table_is_made_once(make_player: Callable[..., User]) -> None:
    """Asked twice for the same finished table (a retry after a failed write), the service gives
    the table it already made."""
    ana = make_player("Ana")
    table = services.play_against_computer(user=ana, variant="cuban-1v1", level="hard")
    first, _ = services.make_next_table(table.pk, "rotate")
    assert services.make_next_table(table.pk, "rematch") == (first, None)
    assert Table.objects.count() == 2
    assert seating(first) == [(None, "hard", "accepted"), (ana.pk, "", "accepted")]
    assert Table.objects.get(pk=first).organizer_id == ana.pk
    with pytest.raises(services.TableRefused):
        services.make_next_table(table.pk, "lobby")
