"""The live table follows the documented rules of time (docs/rules.md, "The turn clock" and
"Connection and absence"), driven by a fake clock: which clock a turn gets, what happens when it
runs out, a seat that goes away and comes back, the 5-minute window and its blue card, the timed
tables' computer player that holds an absent seat, "Abandono", and a correspondence turn whose
day runs out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.table import Deadline, DeadlineKind
from amigos.web.accounts.models import User
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import handover, registry, services, socket_keys
from amigos.web.tables.actor import TableActor
from amigos.web.tables.models import Card, MatchRecord, Table
from tests.web.tables.support import FakeClock, Recorder, play_of
from tests.web.tables.test_actor import against_computers, among_people, turn_in, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


def kinds(recorder: Recorder, after: int = 0) -> list[str]:
    return [event["kind"] for event in recorder.events() if event["version"] > after]


async def humans_table(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    kind: str = "live",
) -> tuple[User, User, TableActor]:
    """A started table: the organizer in seat 0, a second person opposite, computers elsewhere."""
    ana = await sync_to_async(make_player)("Ana")
    beto = await sync_to_async(make_player)("Beto")
    monkeypatch.setattr(services, "_online_ids", lambda now: {ana.pk, beto.pk})
    players = 4 if variant != "cuban-1v1" else 2
    partner = 2 if players == 4 else 1
    seats = {
        number: services.SeatChoice(user_id=beto.pk)
        if number == partner
        else services.SeatChoice(level="easy")
        for number in range(1, players)
    }
    table = await sync_to_async(services.create_table)(
        organizer=ana, name="Mesa", variant=variant, players=players, kind=kind, seats=seats
    )
    actor = await registry.get_actor(table.pk)
    assert actor is not None
    await actor.call(lambda: actor.accept(beto.pk))
    if kind == "live":  # a correspondence game starts with the last acceptance
        await actor.call(lambda: actor.start_by_organizer(ana.pk))
    assert actor.status == "playing"
    return ana, beto, actor


# -- when the clock runs out -------------------------------------------------------------------------


async def test_a_twenty_second_turn_says_there_was_no_blocking_situation_before_its_card(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "normal")
    fake_clock.advance(20)
    await actor.fire_deadline()
    assert kinds(me, version) == ["notice", "card"]
    notice = me.events("notice")[-1]["data"]
    assert notice == {"code": "no_blocking", "seat": 0}
    fake_clock.advance(5)
    await actor.fire_deadline()
    assert kinds(me, version) == ["notice", "card", "card"]  # the notice is said once
    assert [e["data"]["reason"] for e in me.events("card")] == ["timeout", "every_5s"]


async def test_a_deadline_falls_due_on_the_actors_own_timer(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """Between deadlines a table holds a timer of the event loop, not a task asleep until the time
    (every play sets a new deadline); when the time has come, the timer queues the deadline's job
    like any command: here the turn's clock ran out, which earns the card."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "normal")
    assert isinstance(actor._timer, asyncio.TimerHandle) and not actor._firing
    assert kinds(me, version) == []
    fake_clock.advance(20)

    async def rearm() -> None:
        actor._arm()  # as after any job: the deadline is now past, so the timer is due at once

    await actor.call(rearm)
    await until(lambda: kinds(me, version) == ["notice", "card"])
    await until(lambda: not actor._firing)


async def test_a_timer_due_first_is_kept_and_an_earlier_deadline_sets_a_new_one(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """A play mostly moves the deadline later: the timer already set, which falls due first, is
    kept (no cancelling and setting one on every play); a deadline earlier than the timer sets a
    new one; and a timer that fires before anything is due changes nothing and is set again."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "normal")
    first = actor._timer
    due = actor._model_due()
    assert first is not None and due is not None and due.at is not None

    def due_in(seconds: float) -> None:
        """The pure table's next deadline, as the timer reads it, ``seconds`` from now."""
        at = (fake_clock.now() - actor.model_origin).total_seconds() + seconds
        actor._model_due = lambda: Deadline(at, DeadlineKind.CARD, 0)  # type: ignore[method-assign]

    async def later() -> None:
        due_in(due.at - (fake_clock.now() - actor.model_origin).total_seconds() + 10)
        actor._arm()

    await actor.call(later)
    assert actor._timer is first and not first.cancelled()

    async def earlier() -> None:
        due_in(1)
        actor._arm()

    await actor.call(earlier)
    assert first.cancelled()
    second = actor._timer
    assert second is not None and second.when() <= asyncio.get_running_loop().time() + 1

    due_in(20)
    await actor.fire_deadline()  # early: nothing is due yet
    assert kinds(me, version) == []
    assert actor._timer is not None and not actor._timer.cancelled()

    actor._deadline_due()  # the timer's own callback, early: set again, no task and no job
    assert not actor._firing and actor._timer is not None and not actor._timer.cancelled()
    assert actor.version == version


@pytest.mark.parametrize(("variant", "players"), [("cuban-1v1", None), ("all-fives-100", 2), ("draw-100", 2)])
async def test_a_timed_turn_is_played_by_the_system_after_thirty_seconds_without_a_card(
    make_player: Callable[..., User], fake_clock: FakeClock, variant: str, players: int | None
) -> None:
    user, actor = await against_computers(make_player, variant, players)
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "timed")
    fake_clock.advance(29.9)
    await actor.fire_deadline()
    assert actor.version == version
    fake_clock.advance(0.1)
    await actor.fire_deadline()
    mine = [e for e in me.events() if e["version"] > version and e["data"].get("seat") == 0]
    assert mine[0]["kind"] in ("played", "passed")
    assert mine[0]["data"]["reason"] == "timeout"
    assert not me.events("card")
    assert await sync_to_async(Card.objects.filter(user=user).count)() == 0


async def test_the_turn_clock_is_public_only_when_the_table_alone_decides_it(
    make_player: Callable[..., User],
) -> None:
    """Everyone sees a timed table's 30 s; at an Amigos table the others never learn the length."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    watcher = await sync_to_async(make_player)("Eva")
    spectator = Recorder(watcher.pk)
    await actor.call(lambda: actor.join(spectator, False, None))
    await turn_in(me, actor, "timed")
    turns = [e["data"] for e in spectator.events("clock")]
    turns += [
        payload["turn"]
        for kind, payload in spectator.received
        if kind == "table.snapshot" and payload["turn"]
    ]
    seen = [turn for turn in turns if turn["seat"] == 0]
    assert seen and all(d["situation"] == "timed" and d["seconds"] == 30 for d in seen)
    assert all(d["legal"] == [] for d in seen)


# -- away and back -----------------------------------------------------------------------------------


async def test_an_absent_amigos_player_stops_the_clock_and_gets_a_fresh_one_on_return(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    _version, legal = await turn_in(me, actor, "any")
    await actor.call(lambda: actor.detach(socket_keys.key_of(me), 0))
    away = me.events("disconnected")[-1]
    assert away["data"]["seat"] == 0 and away["data"]["abandon"] is False
    assert away["data"]["reconnect_deadline"] == "2026-11-22T20:05:00.000Z"
    assert actor.paused and actor.deadline_at is None
    with pytest.raises(CommandError) as refused:
        await actor.call(lambda: actor.play(user.pk, actor.version, play_of(legal[0])))
    assert refused.value.code == "table_paused"
    fake_clock.advance(299)
    await actor.fire_deadline()
    assert not me.events("card") and actor.status == "playing"  # no clock ran while away
    back = Recorder(user.pk)
    await actor.call(lambda: actor.join(back, True, None))
    assert kinds(back)[:2] == ["reconnected", "clock"]
    clock = back.events("clock")[-1]["data"]
    assert clock["seat"] == 0 and clock["deadline"] is not None
    assert not actor.paused and actor.deadline_at is not None
    assert actor.deadline_at == fake_clock.now() + timing_delta(clock["seconds"])


def timing_delta(seconds: int) -> Any:

    return timedelta(seconds=seconds)


async def test_not_back_in_five_minutes_gives_a_blue_card_and_ends_the_match_by_abandonment(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    await actor.call(lambda: actor.detach(socket_keys.key_of(me), 0))
    watcher = Recorder(-1)
    await actor.call(lambda: actor.join(watcher, False, None))
    fake_clock.advance(300)
    await actor.fire_deadline()
    card = watcher.events("card")[-1]["data"]
    assert (card["seat"], card["colour"], card["reason"]) == (0, "blue", "no_reconnection")
    ended = watcher.events("match_ended")[-1]["data"]
    assert (ended["termination"], ended["seat"], ended["completed"]) == ("abandonment", 0, False)
    assert actor.status == "finished"
    table = await sync_to_async(Table.objects.get)(pk=actor.id)
    assert table.status == "finished"
    assert await handover.settled()  # the archive takes the match on its own thread
    record = await sync_to_async(MatchRecord.objects.get)(table_id=actor.id)
    assert record.termination == "abandonment"
    assert record.record["offender"] == 0
    assert record.record["absent"] == [0]  # away at the end: never counted as their result
    assert record.archived  # the archive accepted the unfinished match (it names its offender)
    # A table against the computer is practice (issue 38, item 7): the blue card is shown and ends
    # the match, yet never counts toward a suspension.
    assert card["practice"] is True
    assert await sync_to_async(Card.objects.filter(user=user).count)() == 0


async def test_at_a_table_of_people_the_cards_count(
    make_player: Callable[..., User], fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    people, actor = await among_people(make_player, monkeypatch)
    recorders = [Recorder(user.pk) for user in people]
    for recorder in recorders:
        await actor.call(lambda recorder=recorder: actor.join(recorder, True, None))
    seat = actor.game.to_move
    assert seat is not None
    fake_clock.advance(70)  # past any Amigos turn's time
    await actor.fire_deadline()
    card = recorders[0].events("card")[-1]["data"]
    assert card["seat"] == seat and "practice" not in card
    assert await sync_to_async(Card.objects.filter(user=people[seat]).count)() >= 1


async def test_a_seat_unheard_for_thirty_seconds_is_away(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    fake_clock.advance(29)
    await actor.call(lambda: actor.heard(0))
    await actor.fire_deadline()
    assert not me.events("disconnected")
    fake_clock.advance(29.9)
    await actor.fire_deadline()
    assert not me.events("disconnected")
    fake_clock.advance(0.1)
    await actor.fire_deadline()
    away = me.events("disconnected")
    assert len(away) == 1 and away[0]["data"]["since"] == "2026-11-22T20:00:59.000Z"


async def test_a_heartbeat_of_a_present_seat_is_taken_at_once_and_counts_as_being_heard(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """`heard_at_once` (what a seated socket's heartbeat calls, without a job in the actor's queue)
    moves the seat's silence as `heard` does; an away seat's heartbeat is left to `heard`."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    fake_clock.advance(29)
    assert actor.heard_at_once(0)
    assert actor.heard_at_once(1)  # a computer player's seat: nothing to do, nothing to queue
    await actor.fire_deadline()
    fake_clock.advance(29.9)
    await actor.fire_deadline()
    assert not me.events("disconnected")
    fake_clock.advance(0.1)
    await actor.fire_deadline()
    assert len(me.events("disconnected")) == 1
    assert not actor.heard_at_once(0)  # away: coming back is stored and told, in the actor
    await actor.call(lambda: actor.heard(0))
    assert len(me.events("reconnected")) == 1


async def test_a_heartbeat_taken_while_the_silence_is_judged_keeps_the_seat_present(
    make_player: Callable[..., User], fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a seat found silent is away only after its account is looked up (a suspended
    account ends the match instead); a heartbeat taken at once during that lookup means the
    player is there, and the seat does not go away."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    looked_up: list[int] = []

    async def not_suspended(seat: int) -> bool:
        looked_up.append(seat)
        assert actor.heard_at_once(seat)  # the page's heartbeat arrives meanwhile
        return False

    monkeypatch.setattr(actor, "_suspended", not_suspended)
    fake_clock.advance(30)
    await actor.fire_deadline()
    assert looked_up == [0]
    assert not me.events("disconnected")
    assert 0 not in actor.away_since


@pytest.mark.parametrize("sign", ["join", "heartbeat"])
async def test_a_page_heard_after_its_silence_fell_due_but_before_the_timer_is_away_then_back(
    make_player: Callable[..., User], fake_clock: FakeClock, sign: str
) -> None:
    """Regression (seen at 1,000 tables across three hosts, where timers ran late): the seat's
    silence fell due at 30 s, and its page joined again (or beat) at 31 s before the actor's timer
    fired. One step of the pure table then found the seat away and heard it back, and writing the
    step's rows read when the absence began off the table after the step, where the seat was no
    longer away: an AssertionError, the join refused, and the step's rows never stored. Both rows
    are stored now, the absence from the moment it fell due, and a rebuild from the log agrees."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    start = fake_clock.now()
    fake_clock.advance(31)  # the silence fell due at 30 s; no timer has fired
    if sign == "join":
        await actor.call(lambda: actor.join(Recorder(user.pk), True, None))
    else:
        await actor.call(lambda: actor.heard(0))
    away, back = me.events("disconnected"), me.events("reconnected")
    assert len(away) == 1 and len(back) == 1
    assert away[0]["data"]["since"] == "2026-11-22T20:00:30.000Z"
    assert away[0]["version"] < back[0]["version"]
    assert 0 not in actor.away_since and fake_clock.now() == start + timedelta(seconds=31)
    await registry.stop_all()
    rebuilt = await registry.get_actor(actor.id)
    assert rebuilt is not None and rebuilt is not actor
    assert rebuilt.away_since == {} and not rebuilt.paused


async def test_at_a_timed_table_a_computer_holds_the_seat_after_two_minutes_until_the_return(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """While another person plays on (Beto, whose page beats every 20 s): a table everyone has
    left ends instead (test_cancel_and_leave.py)."""
    ana, beto, actor = await humans_table(make_player, monkeypatch, "cuban-1v1")
    me, other = Recorder(ana.pk), Recorder(beto.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await actor.call(lambda: actor.join(other, True, None))

    async def beat(seconds: float) -> None:
        fake_clock.advance(seconds)
        assert actor.heard_at_once(1)
        await actor.fire_deadline()

    await actor.call(lambda: actor.detach(socket_keys.key_of(me), 0))
    for _ in range(5):
        await beat(20)
    await beat(19)
    assert not me.events("computer_holds") and actor.paused
    await beat(1)
    holds = me.events("computer_holds")[-1]["data"]
    assert holds == {"seat": 0, "level": "normal"}
    assert not actor.paused
    # Were the match to end now, the record would name Ana's seat as away: not her result.
    assert actor.game.record(absent=actor._absent_seats())["absent"] == [0]
    # The computer player plays the absent player's turn (no card: nobody is punished); Beto's
    # own turns are played by the system when his 30 s run out.

    def computer_played() -> bool:
        return any(e["data"].get("reason") == "computer" and e["data"].get("seat") == 0 for e in me.events())

    for _ in range(200):
        if computer_played() or actor.status != "playing":
            break
        if actor.game.to_move == 1:
            await beat(15)
            await beat(15)
        else:
            await asyncio.sleep(0.01)
    assert computer_played()
    assert not me.events("card")
    back = Recorder(ana.pk)
    await actor.call(lambda: actor.join(back, True, None))
    assert kinds(back)[:2] == ["reconnected", "seat_returned"]
    assert not actor.seats[0].held_by_computer
    assert actor._absent_seats() == ()
    if actor.status == "playing" and actor.game.to_move == 0:
        await until(lambda: actor.clock_info is not None)
        assert actor.clock_info is not None and actor.clock_info.situation == "timed"


async def test_a_player_who_leaves_while_the_table_waits_is_marked_abandono(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, beto, actor = await humans_table(make_player, monkeypatch, "amigos-100")
    first, second = Recorder(ana.pk), Recorder(beto.pk)
    await actor.call(lambda: actor.join(first, True, None))
    await actor.call(lambda: actor.join(second, True, None))
    await actor.call(lambda: actor.detach(socket_keys.key_of(first), 0))
    fake_clock.advance(60)
    await actor.call(lambda: actor.detach(socket_keys.key_of(second), 2))
    marks = [(e["data"]["seat"], e["data"]["abandon"]) for e in second.events("disconnected")]
    assert marks == [(0, False), (2, True)]
    # Ana's window lapses first: the match ends by her abandonment, with her blue card only.
    fake_clock.advance(240)
    await actor.fire_deadline()
    ended = second.events("match_ended")[-1]["data"]
    assert (ended["termination"], ended["seat"]) == ("abandonment", 0)
    blue = [(e["data"]["seat"], e["data"]["practice"]) for e in second.events("card")]
    assert blue == [(0, True)]
    # computer players sit here too: practice, so the card is never stored toward a suspension
    assert await sync_to_async(Card.objects.count)() == 0


async def test_a_correspondence_turn_whose_day_runs_out_ends_the_match_by_abandonment(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    ana, _beto, actor = await humans_table(make_player, monkeypatch, "amigos-100", kind="correspondence")
    watcher = Recorder(ana.pk)
    await actor.call(lambda: actor.join(watcher, True, None))
    await actor.call(lambda: actor.detach(socket_keys.key_of(watcher), 0))
    assert not watcher.events("disconnected")  # a day per move is the whole rule: no absence
    await until(lambda: actor.game.to_move in (0, 2))
    to_move = actor.game.to_move
    fake_clock.advance(86_399)
    await actor.fire_deadline()
    assert actor.status == "playing"
    fake_clock.advance(1)
    await actor.fire_deadline()
    ended = [e["data"] for e in watcher.events("match_ended")]
    assert [(d["termination"], d["seat"]) for d in ended] == [("abandonment", to_move)]
    assert actor.status == "finished"
    assert await sync_to_async(Card.objects.count)() == 0


async def test_presence_survives_a_rebuild_from_the_log(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    await actor.call(lambda: actor.detach(socket_keys.key_of(me), 0))
    since = actor.away_since[0]
    await registry.stop_all()
    fake_clock.advance(10)
    rebuilt = await registry.get_actor(actor.id)
    assert rebuilt is not None and rebuilt is not actor
    assert rebuilt.away_since == {0: since} and rebuilt.paused
    assert rebuilt.snapshot(None)["seats"][0]["reconnect_deadline"] == "2026-11-22T20:05:00.000Z"


async def judged_silent(actor: TableActor, seat: int) -> None:
    """The seat's page went quiet (its heartbeats late on a slow network, the page still joined):
    the pure table last heard it 31 s ago, and the timer finds it away."""

    async def quiet() -> None:
        state = actor.model_state
        seats = list(state.seats)
        heard = (actor.clock.now() - actor.model_origin).total_seconds() - 31
        seats[seat] = replace(seats[seat], last_seen=heard)
        actor.model_state = replace(state, seats=tuple(seats))

    await actor.call(quiet)
    await actor.fire_deadline()
    assert seat in actor.away_since and actor.model_state.seats[seat].page_open


async def test_a_player_counted_away_who_plays_is_back_and_the_play_stands(
    make_player: Callable[..., User],
) -> None:
    """Regression: a seat judged away (say, its heartbeats were late on a slow network) whose play
    then arrived was refused with table_paused, although the play itself shows the player is there."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    _, legal = await turn_in(me, actor, "any")
    await judged_silent(actor, 0)
    assert actor.paused and me.events("disconnected")
    before = actor.version
    await actor.call(lambda: actor.play(user.pk, before, play_of(legal[0])))
    after = kinds(me, before)
    assert after[0] == "reconnected" and "played" in after
    assert not actor.paused and 0 not in actor.away_since


async def test_a_stale_play_from_a_player_counted_away_brings_them_back_though_refused(
    make_player: Callable[..., User],
) -> None:
    """A play sent before the page saw the table's last change is refused (``stale_version``),
    but it came from the player's page all the same (`command_heard`, docs/rules.md): a seat
    judged away for a silence is back, and the table goes on. One from a player with no seat
    here changes nothing."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    _, legal = await turn_in(me, actor, "any")
    await judged_silent(actor, 0)
    stranger = await sync_to_async(make_player)("Nadie")
    before = actor.version
    for sender, code in ((stranger.pk, "not_seated"), (user.pk, "stale_version")):
        with pytest.raises(CommandError) as refused:
            await actor.call(lambda sender=sender: actor.play(sender, before - 1, play_of(legal[0])))
        assert refused.value.code == code
    assert kinds(me, before) == ["reconnected", "clock"]
    assert not actor.paused and 0 not in actor.away_since
