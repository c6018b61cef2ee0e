"""The live table actor and the pure table (`amigos.table.advance`) agree, move by move.

While the actor still keeps its own hand flow beside the pure model, this is what keeps the two from
drifting: one Amigos match among four people is played at the actor, with a fake clock, waits drawn
so that every kind of turn clock runs out now and then (cards, the notice of no blocking situation,
the system laying a single tile), and the very same events, at the very same moments, are given to
the pure table. After every step both must say the same: whose turn it is and on which clock,
which cards fell and why, and which moves the system made and why.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.table import (
    Accept,
    CardGiven,
    Deal,
    Effect,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Suspend,
    SystemPlay,
    TableState,
    Termination,
    Tick,
    Timing,
    advance,
    next_deadline,
    open_table,
)
from amigos.web.accounts.models import User
from amigos.web.tables import actor as actor_module
from amigos.web.tables import registry, store
from amigos.web.tables.actor import TableActor
from amigos.web.tables.actor_clock import WORDS
from tests.table.helpers import config
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import among_people, until

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds waited before a move: mostly in time, now and then past a single tile's 5 s or 6 s, an
#: open turn's 20 s (and a card or two after it) or a blocking turn's 60 s.
WAITS = (0.0, 1.0, 2.0, 3.0, 5.0, 5.5, 6.0, 21.0, 26.0, 61.0)


@pytest.fixture(autouse=True)
async def fake_clock() -> Any:
    clock = FakeClock()
    registry.use_clock(clock)
    yield clock
    await registry.stop_all()
    registry.use_clock(None)


class Mirror:
    """The pure table beside the actor: the same events at the same moments (seconds since the
    actor's start), and every effect kept. Heartbeats never lapse here: the test keeps every seat
    heard at the actor too, so presence plays no part."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        players = ("ana", "beto", "caro", "dani")
        self.state: TableState
        self.state, _ = open_table(config("amigos-100", players, timing=Timing(heartbeat_timeout=1e9)), 0.0)
        self.effects: list[Effect] = []
        for seat in (1, 2, 3):
            self.at(start, Accept(seat))

    def at(self, moment: datetime, event: Any) -> None:
        self.state, effects = advance(self.state, event, (moment - self.start).total_seconds())
        self.effects.extend(effects)

    def cards(self) -> list[tuple[int, str, str]]:
        return [
            (effect.seat, effect.colour.value, effect.reason.value)
            for effect in self.effects
            if isinstance(effect, CardGiven)
        ]

    def warnings(self) -> list[int | None]:
        return [
            effect.seat
            for effect in self.effects
            if isinstance(effect, Notice) and effect.kind is NoticeKind.NO_BLOCKING_SITUATION
        ]

    def system_moves(self) -> list[tuple[int, str]]:
        return [
            (effect.seat, effect.reason.value) for effect in self.effects if isinstance(effect, SystemPlay)
        ]


async def actor_log(actor: TableActor) -> list[tuple[str, dict[str, Any]]]:
    rows = await sync_to_async(store.events_between)(actor.id, 0, actor.version)
    return [(kind, data) for _, kind, data in rows]


def actor_cards(log: list[tuple[str, dict[str, Any]]]) -> list[tuple[int, str, str]]:
    return [(data["seat"], data["colour"], data["reason"]) for kind, data in log if kind == "card"]


def actor_system_moves(log: list[tuple[str, dict[str, Any]]]) -> list[tuple[int, str]]:
    return [
        (data["seat"], data["reason"])
        for kind, data in log
        if (kind == "played" and data["system"]) or (kind == "passed" and data["automatic"])
    ]


async def agree(actor: TableActor, mirror: Mirror) -> None:
    log = await actor_log(actor)
    assert actor_cards(log) == mirror.cards()
    assert actor_system_moves(log) == mirror.system_moves()
    warned = [data["seat"] for kind, data in log if kind == "notice" and data["code"] == "no_blocking"]
    assert warned == mirror.warnings()
    state = mirror.state
    if actor.status == "voting":
        assert state.phase is Phase.VOTING
        return
    if actor.status == "finished":
        # 28 yellow cards suspended a player's account (the ladder is the server's): the match
        # ended for suspension, which the server tells the pure table with `Suspend`.
        ended = [data for kind, data in log if kind == "match_ended"]
        assert [(data["termination"], data["seat"]) for data in ended] == [("suspension", state.offender)]
        assert state.phase is Phase.CLOSED and state.termination is Termination.SUSPENSION
        return
    if actor.game.in_hand:
        assert state.phase is Phase.PLAYING and state.hand is not None and state.clock is not None
        assert actor.game.to_move == state.hand.state.to_move == state.clock.seat
        assert actor.clock_info is not None
        assert actor.clock_info["situation"] == WORDS[state.clock.situation]
        assert actor.clock_info["seconds"] == int(state.clock.budget)
    else:
        assert state.phase is Phase.DEALING


async def deal_as_the_actor_did(actor: TableActor, mirror: Mirror, moment: datetime) -> None:
    """The actor deals the next hand by itself (its pause between hands is 0 s in tests): the
    pure table is dealt the same key, with the same first leader. And a seat the card ladder just
    suspended (the server's part) is suspended at the pure table too."""
    if actor.status == "finished" and mirror.state.phase is not Phase.CLOSED:
        log = await actor_log(actor)
        (seat,) = [data["seat"] for kind, data in log if kind == "match_ended"]
        mirror.at(moment, Suspend(seat))
        return
    await until(lambda: actor.game.in_hand or actor.status != "playing")
    if mirror.state.phase is Phase.DEALING and actor.game.in_hand:
        hand = actor.game.hands[-1]
        mirror.at(moment, Deal(hand.key, hand.start.leader))


async def both_wake_at(actor: TableActor, mirror: Mirror, fake_clock: FakeClock, moment: datetime) -> None:
    """Time passes to ``moment`` at both tables (every seat still heard from), and they agree."""
    fake_clock.moment = moment
    for seat in range(4):
        assert actor.heard_at_once(seat)
    await actor.fire_deadline()
    mirror.at(moment, Tick())
    await deal_as_the_actor_did(actor, mirror, moment)
    await agree(actor, mirror)


@pytest.mark.parametrize("seed", [1, 2])
async def test_the_actor_and_the_pure_table_agree_move_by_move(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, seed: int
) -> None:
    draw = random.Random(seed)
    # The deals and the first leader come from the seed too, so the match is the same every run.
    monkeypatch.setattr(
        actor_module, "new_deal_key", lambda: str(uuid.UUID(int=draw.getrandbits(128), version=4))
    )
    monkeypatch.setattr(actor_module, "random_seat", lambda players: draw.randrange(players))
    people, actor = await among_people(make_player, monkeypatch)
    mirror = Mirror(fake_clock.now())
    await deal_as_the_actor_did(actor, mirror, fake_clock.now())
    await agree(actor, mirror)
    for _ in range(70):
        if actor.status != "playing":
            break
        target = fake_clock.now() + timedelta(seconds=draw.choice(WAITS))
        # The actor's timer fires at each deadline on time: so does this test, the pure table's
        # next deadline telling when (a late timer would give the next seat its clock late).
        while (due := next_deadline(mirror.state)) is not None and due.at is not None:
            moment = mirror.start + timedelta(seconds=due.at)
            if moment > target:
                break
            await both_wake_at(actor, mirror, fake_clock, moment)
        await both_wake_at(actor, mirror, fake_clock, target)
        now = target
        seat = actor.game.to_move
        hand = actor.game.hand
        if actor.status != "playing" or seat is None or hand is None:
            continue
        action = draw.choice(hand.legal_actions())
        user_id = people[seat].pk
        await actor.call(lambda user_id=user_id, action=action: actor.play(user_id, actor.version, action))
        mirror.at(now, Move(seat, action))
        await deal_as_the_actor_did(actor, mirror, now)
        await agree(actor, mirror)
    # The draws made the clocks run out in every way the rules know (the seeds are fixed).
    reasons = {reason for _, _, reason in mirror.cards()} | {reason for _, reason in mirror.system_moves()}
    assert reasons >= {"timeout", "every_5s", "slow_single", "single_tile", "auto_pass"}
    assert mirror.warnings()
