"""The actor runs the pure table (`actor_model`, `actor_decide`): its hand and score are the model's
move by move, a table rebuilt from what was stored is the table that ran, a deadline the timer
reaches late is carried out at the moment it fell due, and a heartbeat taken outside any job
reaches the model at its next step.

These check the actor's I/O around the model; the rules themselves are tested on the pure table
(tests/table).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from amigos.engine.evolve import evolve
from amigos.table import Phase, TableState, Tick, presence_deadline
from amigos.web.accounts.models import User
from amigos.web.tables import restore, socket_keys, store
from amigos.web.tables.actor import TableActor
from tests.web.tables.support import FakeClock, Recorder, play_of
from tests.web.tables.test_actor import against_computers, turn_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


async def same_hand(actor: TableActor) -> None:
    """Inside the actor (a job: the computer players' moves are jobs too), the record's game holds
    the hand and the score the model holds."""
    state = actor.model_state
    assert state.phase is Phase.PLAYING
    assert actor.game.hand is not None and state.hand is not None
    assert state.hand.state == actor.game.hand
    assert actor.game.match is not None and state.match is not None
    assert actor.game.match.score == state.match.score


def the_same_table(running: TableState, rebuilt: TableState) -> None:
    """What a table rebuilt from the database must hold of the running one: its phase and
    whether it waits, the hand in play and its moves, the score, the turn's clock (by whom and on
    which situation), and each seat's invitation, absence, computer holding, vote and cards."""
    assert rebuilt.phase is running.phase and rebuilt.paused == running.paused
    assert (rebuilt.hand is None) == (running.hand is None)
    if running.hand is not None and rebuilt.hand is not None:
        assert rebuilt.hand.state == running.hand.state
        assert [(m.seat, m.action) for m in rebuilt.hand.moves] == [
            (m.seat, m.action) for m in running.hand.moves
        ]
    if running.match is not None and rebuilt.match is not None:
        assert rebuilt.match.score == running.match.score
    assert (rebuilt.clock is None) == (running.clock is None)
    if running.clock is not None and rebuilt.clock is not None:
        assert (rebuilt.clock.seat, rebuilt.clock.situation) == (running.clock.seat, running.clock.situation)
    for mine, theirs in zip(running.seats, rebuilt.seats, strict=True):
        assert theirs.invitation is mine.invitation
        assert (theirs.away_since is None) == (mine.away_since is None)
        assert theirs.held_by_computer == mine.held_by_computer
        assert theirs.vote == mine.vote
        assert (theirs.yellow, theirs.blue, theirs.red) == (mine.yellow, mine.blue, mine.red)


async def read_back_is_the_same(actor: TableActor) -> None:
    """The table read back from the database, as a process taking it over would, is the table
    running. Compared inside the actor (a job), so that no other job (a computer player's move)
    comes between the reading and the comparison."""

    async def compare() -> None:
        loaded = await database_sync_to_async(store.load)(actor.id)
        assert loaded is not None
        now = actor.clock.now()
        the_same_table(actor.model_state, restore.table_state(loaded, actor.timing, now, actor.model_origin))

    await actor.call(compare)


async def test_the_model_is_the_table_through_plays(make_player: Callable[..., User]) -> None:
    """Each play is the pure table's step: the record's game follows it, move by move, and what
    was stored rebuilds the same table."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    for _ in range(3):
        version, legal = await turn_in(me, actor, "any")
        await actor.call(lambda v=version, e=legal[0]: actor.play(user.pk, v, play_of(e)))
        await actor.call(lambda: same_hand(actor))
    await read_back_is_the_same(actor)


async def test_a_seat_away_is_stored_as_the_model_holds_it(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """A page closing is the pure table's to judge (`Disconnected`): the seat is away, the table
    waits, and a table rebuilt from the database says so too; the page back, both agree again."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    key = socket_keys.key_of(me)
    await actor.call(lambda: actor.detach(key, 0))
    assert 0 in actor.away_since and actor.paused and me.events("disconnected")
    await read_back_is_the_same(actor)
    fake_clock.advance(5)
    await actor.call(lambda: actor.attach(key, 0))
    assert 0 not in actor.away_since and not actor.paused and me.events("reconnected")
    await read_back_is_the_same(actor)


async def test_a_deadline_reached_late_is_carried_out_when_it_fell_due(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """The clock jumps past the turn's deadline and its cards without the timer firing: when it
    fires, the pure table carries out each deadline at the moment it fell due, one write each,
    and the table stored is the one that ran."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "any")
    fake_clock.advance(90)
    assert actor.heard_at_once(0)
    await actor.fire_deadline()
    assert actor.version > version
    await actor.call(lambda: same_hand(actor))
    await read_back_is_the_same(actor)


def not_a_whole_microsecond(near: float) -> float:
    """A moment just after ``near`` that the actor's clock cannot hold exactly: read back from a
    datetime (whole microseconds) it comes out a hair earlier than itself."""
    moment = near
    while timedelta(seconds=moment).total_seconds() >= moment:
        moment = math.nextafter(moment + 1e-7, math.inf)
    return moment


async def test_a_deadline_between_two_microseconds_is_carried_out_once(
    make_player: Callable[..., User], fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (the chaos run across hosts, a host silent for 30 s): the timer fed the model
    its deadline as a datetime, and a deadline between two microseconds came back a hair early;
    the model found nothing due yet, the timer found it due still, and fed it again, without
    ever letting the event loop run, until a seat's silence changed the table 30 s later. The
    deadline is now handed over in the model's own seconds: one step carries it out."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, _ = await turn_in(me, actor, "any")
    state = actor.model_state
    assert state.clock is not None and state.clock.card_at is not None
    card_at = not_a_whole_microsecond(state.clock.card_at)
    actor.model_state = evolve(state, clock=replace(state.clock, card_at=card_at))
    fed: list[object] = []
    feed = actor._feed

    def counted(given: object, *args: object, **kwargs: object) -> object:
        fed.append(given)
        assert len(fed) < 50, "the timer fed the same deadline again and again"
        return feed(given, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(actor, "_feed", counted)
    fake_clock.advance(card_at - state.now + 0.5)
    await actor.fire_deadline()
    assert actor.version > version and me.events("card")
    assert actor.model_state.seats[0].yellow == 1


async def test_a_heartbeat_taken_at_once_reaches_the_model_at_its_next_step(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """A present player's heartbeat is taken outside any job (`heard_at_once`): kept aside, the
    timer already counting it, and handed to the model with its next input."""
    user, actor = await against_computers(make_player, "cuban-1v1")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    heard = actor.model_state.seats[0].last_seen
    before = presence_deadline(actor.model_state)
    fake_clock.advance(10)
    assert actor.heard_at_once(0)
    assert actor.heard_at == {0: pytest.approx(heard + 10)}
    assert actor.model_state.seats[0].last_seen == heard  # not a step: the model is as it was
    after = presence_deadline(actor._with_heartbeats())  # what the timer reads
    assert before is not None and after is not None and before.at is not None and after.at is not None
    assert after.at == pytest.approx(before.at + 10)
    await actor.call(lambda: actor._decided(Tick(), quiet=True))  # the next step: nothing due
    assert actor.heard_at == {}
    assert actor.model_state.seats[0].last_seen == pytest.approx(heard + 10)
