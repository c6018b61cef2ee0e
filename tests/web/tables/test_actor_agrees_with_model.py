"""The live table actor and the pure table (`amigos.table.advance`) agree, move by move.

While the actor still keeps its own hand flow beside the pure model, this is what keeps the two from
drifting: one Amigos match among four people is played at the actor, with a fake clock, waits drawn
so that every kind of turn clock runs out now and then (cards, the notice of no blocking situation,
the system laying a single tile), and the very same events, at the very same moments, are given to
the pure table. After every step both must say the same: whose turn it is and on which clock,
which cards fell and why, and which moves the system made and why. A second set of matches also
closes and reopens the players' pages: who is away, "Abandono", the table waiting without a clock,
the return with fresh time, and the blue card and abandonment when a window runs out. And before
the match: the wait for the organizer's button, the presses both refuse, and the start or the
cancellation when nobody presses it in time.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as site_settings

from amigos.engine import find_variant
from amigos.engine.variants.cuban import reshuffle_seats
from amigos.table import (
    Accept,
    Cancel,
    CardGiven,
    Deal,
    Disconnected,
    Effect,
    Heartbeat,
    MatchEnded,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Reconnected,
    Refuse,
    Situation,
    Start,
    Suspend,
    SystemPlay,
    TableCancelled,
    TableError,
    TableReady,
    TableState,
    TakeOver,
    Termination,
    Tick,
    Timing,
    Vote,
    VoteCast,
    VoteChoice,
    VoteResult,
    advance,
    first_lead_draw,
    next_deadline,
    open_table,
)
from amigos.table.record import RecordDraft, new_draft, to_record, update
from amigos.web.accounts.models import User
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import actor as actor_module
from amigos.web.tables import registry, services, store, suspensions
from amigos.web.tables.actor import TableActor
from amigos.web.tables.actor_clock import WORDS
from amigos.web.tables.models import MatchRecord
from tests.table.helpers import config, find_key
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import against_computers, among_people, deal_keys, invited_table, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]

#: Seconds waited before a move: mostly in time, now and then past a single tile's 5 s or 6 s, an
#: open turn's 20 s (and a card or two after it) or a blocking turn's 60 s.
WAITS = (0.0, 1.0, 2.0, 3.0, 5.0, 5.5, 6.0, 21.0, 26.0, 61.0)


class Mirror:
    """The pure table beside the actor: the same events at the same moments (seconds since the
    actor's start), and every effect kept. Heartbeats never lapse here: the test keeps every seat
    heard at the actor too, so presence plays no part."""

    def __init__(self, start: datetime, started: bool = True, heartbeat_timeout: float = 1e9) -> None:
        self.start = start
        players = ("ana", "beto", "caro", "dani")
        self.state: TableState
        # The pause between hands is the site's setting, as the actor's (`TableActor.timing`).
        timing = Timing(
            heartbeat_timeout=heartbeat_timeout,
            hand_pause=float(site_settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS),
        )
        self.state, _ = open_table(config("amigos-100", players, timing=timing), 0.0)
        self.effects: list[Effect] = []
        self.refused: list[str] = []  # the codes of the plays both refused
        # The pure table's record of the match, from its start (`amigos.table.record`).
        self.draft: RecordDraft | None = None
        if not started:
            return  # the invitations are out
        for seat in (1, 2, 3):
            self.at(start, Accept(seat))
        self.at(start, Start(0))  # the organizer's button, as `among_people` presses it

    def at(self, moment: datetime, event: Any) -> None:
        now = (moment - self.start).total_seconds()
        self.state, effects = advance(self.state, event, now)
        self.effects.extend(effects)
        if any(isinstance(effect, TableReady) for effect in effects):
            self.draft = new_draft(self.state.config, now)
        if self.draft is not None:
            self.draft = update(self.draft, self.state, effects)

    def record_trail(self) -> dict[str, Any]:
        """The match's own fields of the pure table's record (`match_trail`), its times read as
        the actor's: seconds since the epoch, where the pure table counts from the test's start."""
        assert self.draft is not None
        return match_trail(to_record(self.draft).to_obj(), self.start.timestamp())

    def cards(self) -> list[tuple[int, str, str]]:
        return [
            (effect.seat, effect.colour.value, effect.reason.value)
            for effect in self.effects
            if isinstance(effect, CardGiven)
        ]

    def warnings(self, kind: NoticeKind = NoticeKind.NO_BLOCKING_SITUATION) -> list[int | None]:
        return [effect.seat for effect in self.effects if isinstance(effect, Notice) and effect.kind is kind]

    def votes(self) -> list[tuple[int, str, bool]]:
        """Each choice cast, in the protocol's words, and whether the seat left."""
        words = {VoteChoice.REMATCH: "rematch", VoteChoice.ROTATE: "rotate", VoteChoice.LOBBY: "communicate"}
        return [
            (effect.seat, words[effect.choice], effect.left)
            for effect in self.effects
            if isinstance(effect, VoteCast)
        ]

    def presence(self) -> list[tuple[str, int | None, bool]]:
        said = {
            NoticeKind.PLAYER_AWAY: ("disconnected", False),
            NoticeKind.ABANDON: ("disconnected", True),
            NoticeKind.PLAYER_BACK: ("reconnected", False),
        }
        return [
            (*said[effect.kind][:1], effect.seat, said[effect.kind][1])
            for effect in self.effects
            if isinstance(effect, Notice) and effect.kind in said
        ]

    def system_moves(self) -> list[tuple[int, str]]:
        return [
            (effect.seat, effect.reason.value) for effect in self.effects if isinstance(effect, SystemPlay)
        ]


#: The record's fields about the match itself (docs/record-format.md, "Records of live tables"),
#: which both tables must write alike; ``table`` names the table each its own way.
MATCH_FIELDS = ("mode", "started", "ended", "termination", "offender", "cards", "absent")


def match_trail(record: dict[str, Any], offset: float = 0.0) -> dict[str, Any]:
    """``record``'s match fields, its times moved by ``offset`` seconds (rounded to the
    millisecond, as the actor's log keeps a moment)."""
    trail = {name: record[name] for name in MATCH_FIELDS if name in record}
    for name in ("started", "ended"):
        if name in trail:
            trail[name] = round(trail[name] + offset, 3)
    trail["cards"] = [{**card, "at": round(card["at"] + offset, 3)} for card in trail.get("cards", [])]
    return trail


async def records_agree(actor: TableActor, mirror: Mirror) -> None:
    """The record the actor would store now (and, once the match is over, the one it stored)
    tells the match as the pure table's does: mode, times, how it ended, cards, absent seats."""
    assert mirror.draft is not None
    if actor.status == "playing":
        record = actor.game.record()
    else:
        row = await MatchRecord.objects.aget(table_id=actor.id, number=actor.game.match_number)
        record = row.record
    assert match_trail(record) == mirror.record_trail()


async def actor_log(actor: TableActor) -> list[tuple[str, dict[str, Any]]]:
    rows = await sync_to_async(store.rows_between)(actor.id, 0, actor.version)
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
    fresh = [data["seat"] for kind, data in log if kind == "notice" and data["code"] == "fresh_time"]
    assert fresh == mirror.warnings(NoticeKind.FRESH_TIME)
    presence = [
        (kind, data["seat"], bool(data.get("abandon")))
        for kind, data in log
        if kind in ("disconnected", "reconnected")
    ]
    assert presence == mirror.presence()
    state = mirror.state
    if actor.status == "voting":
        assert state.phase is Phase.VOTING
        return
    if actor.status == "finished":
        # By abandonment (an absent player's window ran out) or for suspension (28 yellow cards:
        # the ladder is the server's, which tells the pure table with `Suspend`).
        ended = [data for kind, data in log if kind == "match_ended"]
        assert state.phase is Phase.CLOSED and state.termination is not None
        assert [(data["termination"], data["seat"]) for data in ended] == [
            (state.termination.value, state.offender)
        ]
        return
    assert actor.paused == state.paused
    if actor.game.in_hand and state.paused:
        # The table waits for an absent player: no clock runs.
        assert state.phase is Phase.PLAYING and state.hand is not None and state.clock is None
        assert actor.game.to_move == state.hand.state.to_move and actor.clock_info is None
    elif actor.game.in_hand:
        assert state.phase is Phase.PLAYING and state.hand is not None and state.clock is not None
        assert actor.game.to_move == state.hand.state.to_move == state.clock.seat
        assert actor.clock_info is not None
        assert actor.clock_info.situation == WORDS[state.clock.situation]
        assert actor.clock_info.seconds == int(state.clock.budget)
    else:
        assert state.phase is Phase.DEALING
        if state.deal_at is not None and not state.paused:
            # Between two hands: both deal when the same pause is over.
            assert actor.deadline_kind == "deal" and actor.deadline_at is not None
            assert (actor.deadline_at - mirror.start).total_seconds() == pytest.approx(state.deal_at)


async def deal_as_the_actor_did(actor: TableActor, mirror: Mirror, moment: datetime) -> None:
    """The actor deals the next hand by itself (its pause between hands is 0 s in tests): the
    pure table is dealt the same key, with the same first leader. And a seat the card ladder just
    suspended (the server's part) is suspended at the pure table too."""
    if actor.status == "finished" and mirror.state.phase is not Phase.CLOSED:
        log = await actor_log(actor)
        suspended = [
            data["seat"]
            for kind, data in log
            if kind == "match_ended" and data["termination"] == "suspension"
        ]
        if suspended:
            mirror.at(moment, Suspend(suspended[0]))
        return
    # Nobody deals while the table waits for an absent player: the deal follows the return; nor
    # before the pause between hands is over (the pure table's DEAL deadline).
    deal_at = mirror.state.deal_at
    if deal_at is not None and mirror.start + timedelta(seconds=deal_at) > moment:
        return
    await until(lambda: actor.game.in_hand or actor.status != "playing" or actor.paused)
    if mirror.state.phase is Phase.DEALING and actor.game.in_hand:
        hand = actor.game.hands[-1]
        mirror.at(moment, Deal(hand.key, hand.start.leader))


#: A further check after the two tables agreed (another test's: the log read back, the rows).
Then = Callable[[TableActor, Mirror], Awaitable[None]]


async def both_wake_at(
    actor: TableActor,
    mirror: Mirror,
    fake_clock: FakeClock,
    moment: datetime,
    away: set[int],
    then: Then | None = None,
) -> None:
    """Time passes to ``moment`` at both tables (every seat but the ``away`` ones still heard
    from), and they agree (and ``then`` holds)."""
    fake_clock.moment = moment
    for seat in range(4):
        if seat not in away:
            assert actor.heard_at_once(seat)
    await actor.fire_deadline()
    mirror.at(moment, Tick())
    await deal_as_the_actor_did(actor, mirror, moment)
    await agree(actor, mirror)
    if then is not None:
        await then(actor, mirror)


async def seated_table(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, draw: random.Random | None = None
) -> tuple[list[User], TableActor, dict[int, object]]:
    """Four people at an invited table, each with one page joined to their seat. With ``draw``, the
    deals and the first leader come from it (so a seeded match is the same every run)."""
    if draw is not None:
        monkeypatch.setattr(
            actor_module, "new_deal_key", lambda: str(uuid.UUID(int=draw.getrandbits(128), version=4))
        )
        monkeypatch.setattr(actor_module, "random_seat", lambda players: draw.randrange(players))
    people, actor = await among_people(make_player, monkeypatch)
    sockets = {seat: object() for seat in range(4)}
    for seat, key in sockets.items():
        await actor.call(lambda seat=seat, key=key: actor.attach(key, seat))
    return people, actor, sockets


async def dealt_with_heartbeats(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> tuple[list[User], TableActor, dict[int, object], datetime, Mirror]:
    """`seated_table` (seeded), dealt at both tables whose silences last 30 s, checked alike: the
    start of the presence tests (people, actor, their sockets, the start, the pure table)."""
    people, actor, sockets = await seated_table(make_player, monkeypatch, random.Random(11))
    start = fake_clock.now()
    mirror = Mirror(start, heartbeat_timeout=30.0)
    await deal_as_the_actor_did(actor, mirror, start)
    await agree(actor, mirror)
    return people, actor, sockets, start, mirror


async def play_side_by_side(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    seed: int,
    absences: bool,
    *,
    prepare: Callable[[Mirror, TableActor, list[User]], None] | None = None,
    then: Then | None = None,
) -> Mirror:
    """A seeded match at the actor and at the pure table, checked after every step; with
    ``absences``, players also lose their page (their one socket closes) and come back.
    ``prepare`` adjusts the pure table before the first deal, and ``then`` is a further check
    after every step and every deadline (the tests of other bricks of the same match use them)."""
    draw = random.Random(seed)
    people, actor, sockets = await seated_table(make_player, monkeypatch, draw)
    mirror = Mirror(fake_clock.now())
    if prepare is not None:
        prepare(mirror, actor, people)

    async def agreed() -> None:
        await agree(actor, mirror)
        if then is not None:
            await then(actor, mirror)

    await deal_as_the_actor_did(actor, mirror, fake_clock.now())
    await agreed()
    away: set[int] = set()
    for _ in range(70):
        if actor.status != "playing":
            break
        # Long waits while someone is away, so that windows run out now and then.
        waits = (*WAITS, 130.0, 301.0) if away else WAITS
        target = fake_clock.now() + timedelta(seconds=draw.choice(waits))
        # The actor's timer fires at each deadline on time: so does this test, the pure table's
        # next deadline telling when (a late timer would give the next seat its clock late).
        while (due := next_deadline(mirror.state)) is not None and due.at is not None:
            moment = mirror.start + timedelta(seconds=due.at)
            if moment > target:
                break
            await both_wake_at(actor, mirror, fake_clock, moment, away, then)
        await both_wake_at(actor, mirror, fake_clock, target, away, then)
        if actor.status != "playing":
            break
        now = target
        roll = draw.random()
        if absences and roll < 0.15 and len(away) < 2:
            seat = draw.choice(sorted(set(range(4)) - away))
            away.add(seat)
            await actor.call(lambda seat=seat, actor=actor: actor.detach(sockets[seat], seat))
            mirror.at(now, Disconnected(seat))
        elif absences and roll < 0.3 and away:
            seat = draw.choice(sorted(away))
            away.discard(seat)
            await actor.call(lambda seat=seat, actor=actor: actor.attach(sockets[seat], seat))
            mirror.at(now, Reconnected(seat))
        elif absences and roll < 0.36:
            # The process stops; the table is rebuilt from its stored log and taken over (the
            # seat in turn gets fresh time), and the present players' pages join it again.
            await registry.stop_all()
            rebuilt = await registry.get_actor(actor.id)
            assert rebuilt is not None
            actor = rebuilt
            mirror.at(now, TakeOver())
            for seat in sorted(set(range(4)) - away):
                await actor.call(lambda seat=seat, actor=actor: actor.attach(sockets[seat], seat))
        else:
            seat = actor.game.to_move
            hand = actor.game.hand
            if seat is not None and hand is not None and actor.paused and seat not in away:
                # The player in turn tries while the table waits: both refuse alike (`play_refusal`).
                await play_refused_alike(actor, mirror, people[seat].pk, seat, hand.legal_actions()[0], now)
            if seat is None or hand is None or actor.paused:
                continue
            action = draw.choice(hand.legal_actions())
            user_id = people[seat].pk
            await actor.call(
                lambda user_id=user_id, action=action, actor=actor: actor.play(user_id, actor.version, action)
            )
            mirror.at(now, Move(seat, action))
        await deal_as_the_actor_did(actor, mirror, now)
        await agreed()
    await records_agree(actor, mirror)
    return mirror


async def play_refused_alike(
    actor: TableActor, mirror: Mirror, user_id: int, seat: int, action: Any, moment: datetime
) -> None:
    """A play the actor and the pure table both refuse, with the same code, each keeping only the
    sign of life it was (`refused_alike_at`)."""
    code = await refused_alike_at(
        actor, mirror, moment, lambda: actor.play(user_id, actor.version, action), Move(seat, action)
    )
    mirror.refused.append(code)


@pytest.mark.parametrize(("seed", "pause"), [(1, 0), (2, 0), (2, 5)])
async def test_the_actor_and_the_pure_table_agree_move_by_move(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    settings: Any,
    seed: int,
    pause: int,
) -> None:
    """With a pause between hands (``pause`` seconds, the site's setting) too: both deal the next
    hand when it is over, not before."""
    settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS = pause
    mirror = await play_side_by_side(make_player, monkeypatch, fake_clock, seed, absences=False)
    # The draws made the clocks run out in every way the rules know (the seeds are fixed).
    reasons = {reason for _, _, reason in mirror.cards()} | {reason for _, reason in mirror.system_moves()}
    assert reasons >= {"timeout", "every_5s", "slow_single", "single_tile", "auto_pass"}
    assert mirror.warnings()


@pytest.mark.parametrize(("seed", "fresh_time"), [(3, False), (4, True), (5, True)])
async def test_the_actor_and_the_pure_table_agree_on_absences(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    seed: int,
    fresh_time: bool,
) -> None:
    """Pages lost and found: the table waits (no clock), "Abandono" for a second absence, fresh
    time on the return, the blue card and abandonment when the 5 minutes run out; and the server
    restarting now and then, the table rebuilt from its log and taken over."""
    mirror = await play_side_by_side(make_player, monkeypatch, fake_clock, seed, absences=True)
    # The draws (fixed seeds) went through all of it: away, back, "Abandono", and a window run out.
    presence = mirror.presence()
    assert ("reconnected", presence[0][1], False) in presence
    assert any(abandon for _, _, abandon in presence)
    assert mirror.state.termination is Termination.ABANDONMENT
    assert [colour for _, colour, _ in mirror.cards()].count("blue") == 1
    # Seeds 4 and 5 restart the server while a clock runs (seed 3 never does).
    assert bool(mirror.warnings(NoticeKind.FRESH_TIME)) is fresh_time
    # Plays tried while the table waited were refused alike (seed 3 tries some).
    assert set(mirror.refused) <= {"table_paused"} and (seed != 3 or mirror.refused)


async def refused_alike(actor: TableActor, user: User, mirror: Mirror, seat: int, moment: datetime) -> str:
    """The organizer's button pressed by ``user`` (at ``seat``): the actor and the pure table refuse it
    with the same code, and neither changes."""
    version, before = actor.version, mirror.state
    with pytest.raises(CommandError) as served:
        await actor.call(lambda: actor.start_by_organizer(user.pk))
    with pytest.raises(TableError) as modelled:
        mirror.at(moment, Start(seat))
    assert served.value.code == modelled.value.code
    assert actor.version == version and mirror.state is before
    return served.value.code


@pytest.mark.parametrize("pressed", [True, False])
async def test_the_actor_and_the_pure_table_agree_on_the_organizers_start(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, pressed: bool
) -> None:
    """Every seat accepted: both wait for the organizer's button for the same window, refuse the
    same presses with the same codes, and either start the match when the organizer presses it or
    cancel the table (reason ``not_started``) when the window runs out."""
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Mirror(start, started=False)
    assert await refused_alike(actor, people[0], mirror, 0, start) == "not_all_accepted"
    for seat in (1, 2):
        await actor.call(lambda seat=seat: actor.accept(people[seat].pk))
        mirror.at(start, Accept(seat))
    assert await refused_alike(actor, people[1], mirror, 1, start) == "not_organizer"
    fake_clock.advance(4)
    await actor.call(lambda: actor.accept(people[3].pk))
    mirror.at(fake_clock.now(), Accept(3))
    # Both wait for the organizer, until the same moment, also once the table is rebuilt and taken
    # over (`on_restart`: the button's window runs on).
    await registry.stop_all()
    rebuilt = await registry.get_actor(actor.id)
    assert rebuilt is not None
    actor = rebuilt
    mirror.at(fake_clock.now(), TakeOver())
    assert actor.status == "inviting" and mirror.state.awaits_start
    assert actor.deadline_at is not None and mirror.state.start_until is not None
    assert (actor.deadline_at - start).total_seconds() == mirror.state.start_until
    due = next_deadline(mirror.state)
    assert due is not None and due.at == mirror.state.start_until
    assert await refused_alike(actor, people[2], mirror, 2, fake_clock.now()) == "not_organizer"
    if pressed:
        fake_clock.advance(10)
        await actor.call(lambda: actor.start_by_organizer(people[0].pk))
        mirror.at(fake_clock.now(), Start(0))
        assert actor.status == "playing" and mirror.state.phase is Phase.DEALING
        assert await refused_alike(actor, people[0], mirror, 0, fake_clock.now()) == "already_started"
        return
    fake_clock.moment = start + timedelta(seconds=mirror.state.start_until - 0.5)
    await actor.fire_deadline()
    mirror.at(fake_clock.now(), Tick())
    assert actor.status == "inviting" and mirror.state.awaits_start  # still in time, both
    fake_clock.moment = start + timedelta(seconds=mirror.state.start_until)
    await actor.fire_deadline()
    mirror.at(fake_clock.now(), Tick())
    log = await actor_log(actor)
    reasons = [data["reason"] for kind, data in log if kind == "cancelled"]
    cancelled = [effect.reason.value for effect in mirror.effects if isinstance(effect, TableCancelled)]
    assert reasons == cancelled == ["not_started"]
    assert actor.status == "cancelled" and mirror.state.phase is Phase.CLOSED
    assert await refused_alike(actor, people[0], mirror, 0, fake_clock.now()) == "already_started"


async def test_the_actor_and_the_pure_table_agree_on_calling_a_table_off(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """The organizer's `table.cancel`: both refuse another player's with the same code, call the
    table off for the organizer (reason ``organizer``), and then refuse it as already started."""
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Mirror(start, started=False)
    await actor.call(lambda: actor.accept(people[1].pk))
    mirror.at(start, Accept(1))

    async def refused(seat: int) -> str:
        version, before = actor.version, mirror.state
        with pytest.raises(CommandError) as served:
            await actor.call(lambda: actor.cancel(people[seat].pk))
        with pytest.raises(TableError) as modelled:
            mirror.at(fake_clock.now(), Cancel(seat))
        assert served.value.code == modelled.value.code
        assert actor.version == version and mirror.state is before
        return served.value.code

    assert await refused(1) == await refused(2) == "not_organizer"
    await actor.call(lambda: actor.cancel(people[0].pk))
    mirror.at(fake_clock.now(), Cancel(0))
    log = await actor_log(actor)
    reasons = [data["reason"] for kind, data in log if kind == "cancelled"]
    cancelled = [effect.reason.value for effect in mirror.effects if isinstance(effect, TableCancelled)]
    assert reasons == cancelled == ["organizer"]
    assert actor.status == "cancelled" and mirror.state.phase is Phase.CLOSED
    assert await refused(0) == "already_started"


async def refused_alike_at(
    actor: TableActor, mirror: Mirror, moment: datetime, served: Callable[[], Any], modelled: Any
) -> str:
    """A command the actor (``served``) and the pure table (``modelled``, at ``moment``) both refuse
    with the same code, neither changing, but for what the refusal still did: a person's refused
    play is a sign of life (`command_heard`), which the actor keeps (storing a return) and the pure
    table's refusal carries (`TableError.heard`, kept here as a caller keeps it)."""
    version, before = actor.version, mirror.state
    with pytest.raises(CommandError) as refused:
        await actor.call(served)
    with pytest.raises(TableError) as modelled_refusal:
        mirror.at(moment, modelled)
    assert refused.value.code == modelled_refusal.value.code
    heard = modelled_refusal.value.heard
    if heard is None:
        assert actor.version == version and mirror.state is before
    else:
        mirror.state, effects = heard
        mirror.effects.extend(effects)
        back = [effect for effect in effects if isinstance(effect, Notice)]
        returned = any(effect.kind is NoticeKind.PLAYER_BACK for effect in back)
        assert (actor.version != version) is returned  # the actor stores a return, nothing else
    return refused.value.code


async def test_the_actor_and_the_pure_table_agree_on_a_late_acceptance(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """An acceptance at its invitation's moment is late at both (`answer_refusal`), even before
    the deadline's timer fires, and a player with no open invitation is refused alike."""
    # The invitations' moments are the fake clock's, as the pure table's are.
    monkeypatch.setattr(services, "timezone", SimpleNamespace(now=fake_clock.now))
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Mirror(start, started=False)
    await actor.call(lambda: actor.accept(people[1].pk))
    mirror.at(start, Accept(1))
    fake_clock.advance(mirror.state.config.timing.invitation)
    moment = fake_clock.now()
    code = await refused_alike_at(actor, mirror, moment, lambda: actor.accept(people[2].pk), Accept(2))
    assert code == "invitation_expired"
    # A refusal as late is refused alike: the lapse, not the refusal, cancels the table.
    code = await refused_alike_at(actor, mirror, moment, lambda: actor.refuse(people[3].pk), Refuse(3))
    assert code == "invitation_expired"
    code = await refused_alike_at(actor, mirror, moment, lambda: actor.accept(people[1].pk), Accept(1))
    assert code == "not_invited"
    # Then the lapse runs at both: the table is cancelled, and an answer finds no invitation.
    await actor.fire_deadline()
    mirror.at(moment, Tick())
    assert actor.status == "cancelled" and mirror.state.phase is Phase.CLOSED
    log = await actor_log(actor)
    assert [data["reason"] for kind, data in log if kind == "cancelled"] == [
        effect.reason.value for effect in mirror.effects if isinstance(effect, TableCancelled)
    ]
    code = await refused_alike_at(actor, mirror, moment, lambda: actor.accept(people[3].pk), Accept(3))
    assert code == "not_invited"


async def until_a_lasting_turn(
    actor: TableActor, mirror: Mirror, people: list[User], moment: datetime
) -> None:
    """Plays at both until the seat in turn will still be in turn after 30 s: not one whose single
    tile the system lays at 6 s (such turns are played at once, at both)."""
    while (clock := mirror.state.clock) is not None and clock.situation is Situation.SINGLE:
        hand = actor.game.hand
        assert hand is not None
        action, user_id = hand.legal_actions()[0], people[clock.seat].pk
        await actor.call(lambda action=action, user_id=user_id: actor.play(user_id, actor.version, action))
        mirror.at(moment, Move(clock.seat, action))


async def beat_all_but(
    actor: TableActor, mirror: Mirror, fake_clock: FakeClock, seats: set[int], moment: datetime
) -> None:
    """At ``moment`` every seat's page beats at both tables, but the ``seats``'."""
    fake_clock.moment = moment
    for seat in sorted(set(range(4)) - seats):
        assert actor.heard_at_once(seat)
        mirror.at(moment, Heartbeat(seat))


async def wake_until(actor: TableActor, mirror: Mirror, fake_clock: FakeClock, moment: datetime) -> None:
    """Time passes to ``moment`` at both tables, each deadline on its time, and they agree."""
    while (due := next_deadline(mirror.state)) is not None and due.at is not None:
        at = mirror.start + timedelta(seconds=due.at)
        if at > moment:
            break
        fake_clock.moment = at
        await actor.fire_deadline()
        mirror.at(at, Tick())
    fake_clock.moment = moment
    await actor.fire_deadline()
    mirror.at(moment, Tick())
    await agree(actor, mirror)


async def silent_for_30_seconds(
    actor: TableActor, mirror: Mirror, fake_clock: FakeClock, silent: int, start: datetime
) -> None:
    """The ``silent`` seat's page stays joined but beats no more from ``start``: after 30 s both
    judge it away, and the table waits."""
    for second in (10, 20, 30):
        await wake_until(actor, mirror, fake_clock, start + timedelta(seconds=second))
        await beat_all_but(actor, mirror, fake_clock, {silent}, start + timedelta(seconds=second))
    assert silent in actor.away_since and mirror.state.seats[silent].is_away


async def test_the_actor_and_the_pure_table_agree_on_a_play_from_a_seat_judged_away(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """The seat in turn goes silent while its page stays joined (late heartbeats): both judge it
    away after 30 s and take its play as its return; a seat whose page then closed stays away and
    its play is refused alike (`heard_from`)."""
    people, actor, sockets, start, mirror = await dealt_with_heartbeats(make_player, monkeypatch, fake_clock)
    await until_a_lasting_turn(actor, mirror, people, start)
    silent = actor.game.to_move
    assert silent is not None and mirror.state.clock is not None
    await silent_for_30_seconds(actor, mirror, fake_clock, silent, start)
    assert actor.paused and mirror.state.paused
    moment = start + timedelta(seconds=31)
    hand = actor.game.hand
    assert hand is not None
    action = hand.legal_actions()[0]
    user_id = people[silent].pk
    await actor.call(lambda: actor.play(user_id, actor.version, action))
    mirror.at(moment, Move(silent, action))
    assert silent not in actor.away_since and not mirror.state.seats[silent].is_away
    await agree(actor, mirror)
    # Now a seat whose page closes is away, and its play (once its turn comes) is refused alike.
    gone = actor.game.to_move
    assert gone is not None
    await actor.call(lambda: actor.detach(sockets[gone], gone))
    mirror.at(moment, Disconnected(gone))
    hand = actor.game.hand
    assert hand is not None
    action = hand.legal_actions()[0]
    code = await refused_alike_at(
        actor, mirror, moment, lambda: actor.play(people[gone].pk, actor.version, action), Move(gone, action)
    )
    assert code == "table_paused" and gone in actor.away_since
    await agree(actor, mirror)


async def test_the_actor_and_the_pure_table_agree_on_a_window_and_a_silence_due_together(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Regression: seat 0's page closes at once (its 5-minute window runs out at 300 s) and seat 1
    is last heard at 270 s (its silence lasts 30 s at 300 s too). Both tables take the lower seat
    first (`amigos.table.next_presence`): seat 0's window runs out, a blue card ends the match by
    abandonment, and seat 1 is never found away. The actor used to let a silence go before a
    window due at the same moment, marking seat 1 away ("Abandono") before the match ended."""
    _, actor, sockets, start, mirror = await dealt_with_heartbeats(make_player, monkeypatch, fake_clock)
    await actor.call(lambda: actor.detach(sockets[0], 0))
    mirror.at(start, Disconnected(0))
    await agree(actor, mirror)
    for second in range(10, 300, 10):
        await wake_until(actor, mirror, fake_clock, start + timedelta(seconds=second))
        silent = {0} if second <= 270 else {0, 1}
        await beat_all_but(actor, mirror, fake_clock, silent, start + timedelta(seconds=second))
    await wake_until(actor, mirror, fake_clock, start + timedelta(seconds=300))
    log = await actor_log(actor)
    assert actor.status == "finished" and mirror.state.phase is Phase.CLOSED
    assert [(seat, colour) for seat, colour, _ in actor_cards(log)] == [(0, "blue")]
    assert [data["seat"] for kind, data in log if kind == "disconnected"] == [0]


async def play_to_the_vote(
    actor: TableActor, mirror: Mirror, people: list[User], draw: random.Random, now: datetime
) -> None:
    """Play random legal moves at both tables, at one moment, until the match reaches its target
    and both hold the vote."""
    await deal_as_the_actor_did(actor, mirror, now)
    while actor.status == "playing":
        seat, hand = actor.game.to_move, actor.game.hand
        if seat is None or hand is None:
            await deal_as_the_actor_did(actor, mirror, now)
            continue
        action = draw.choice(hand.legal_actions())
        await actor.call(lambda seat=seat, action=action: actor.play(people[seat].pk, actor.version, action))
        mirror.at(now, Move(seat, action))
        await deal_as_the_actor_did(actor, mirror, now)
    assert actor.status == "voting" and mirror.state.phase is Phase.VOTING


async def test_the_actor_and_the_pure_table_agree_on_the_vote_and_a_page_closed_during_it(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """A match played to its target at both, then the vote: a choice replaced, a page closed and
    reopened within 10 s (a reload), and a page closed for good, which is a choice of the meeting
    room (``left``) that closes the vote at both, at the same moment."""
    draw = random.Random(7)
    people, actor, sockets = await seated_table(make_player, monkeypatch, draw)
    mirror = Mirror(fake_clock.now())
    now = fake_clock.now()
    await play_to_the_vote(actor, mirror, people, draw, now)
    await agree(actor, mirror)

    async def vote(seat: int, choice: VoteChoice, word: str) -> None:
        await actor.call(lambda: actor.vote(people[seat].pk, actor.version, word))
        mirror.at(fake_clock.now(), Vote(seat, choice))

    async def at(seconds: float) -> None:
        fake_clock.moment = now + timedelta(seconds=seconds)
        await actor.fire_deadline()
        mirror.at(fake_clock.now(), Tick())

    await vote(0, VoteChoice.REMATCH, "rematch")
    await vote(0, VoteChoice.ROTATE, "rotate")  # replaced while the vote is open
    await vote(1, VoteChoice.ROTATE, "rotate")
    await actor.call(lambda: actor.detach(sockets[2], 2))
    mirror.at(fake_clock.now(), Disconnected(2))
    await at(9.9)
    await actor.call(lambda: actor.attach(sockets[2], 2))  # a reload, in time
    mirror.at(fake_clock.now(), Reconnected(2))
    await at(20.0)
    await actor.call(lambda: actor.detach(sockets[3], 3))
    mirror.at(fake_clock.now(), Disconnected(3))
    await at(29.9)
    assert actor.status == "voting" and mirror.state.phase is Phase.VOTING
    await at(30.0)
    log = await actor_log(actor)
    cast = [(data["seat"], data["choice"], bool(data.get("left"))) for kind, data in log if kind == "vote"]
    assert (
        cast
        == mirror.votes()
        == [
            (0, "rematch", False),
            (0, "rotate", False),
            (1, "rotate", False),
            (3, "communicate", True),
        ]
    )
    closed = [data["result"] for kind, data in log if kind == "votes_closed"]
    assert closed == ["communicate"] and mirror.state.phase is Phase.CLOSED
    assert actor.status == "finished"
    code = await refused_alike_at(
        actor,
        mirror,
        fake_clock.now(),
        lambda: actor.vote(people[1].pk, actor.version, "rotate"),
        Vote(1, VoteChoice.ROTATE),
    )
    assert code == "not_voting"


async def test_the_actor_and_the_pure_table_agree_on_a_suspension_found_when_a_page_closes(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """A player suspended from outside the table (a desk decision): their sockets close, the actor
    finds the suspension and ends the match as the pure table does on `Suspend`
    (`suspension_ending`): unfinished, the seat its offender, the table over at both."""
    people, actor, sockets = await seated_table(make_player, monkeypatch)
    mirror = Mirror(fake_clock.now())
    await deal_as_the_actor_did(actor, mirror, fake_clock.now())
    await agree(actor, mirror)
    suspended = people[2].pk
    monkeypatch.setattr(suspensions, "account_suspended", lambda user_id, now: user_id == suspended)
    fake_clock.advance(3)
    await actor.call(lambda: actor.detach(sockets[2], 2))
    mirror.at(fake_clock.now(), Suspend(2))
    log = await actor_log(actor)
    assert [(data["termination"], data["seat"]) for kind, data in log if kind == "match_ended"] == [
        ("suspension", 2)
    ]
    assert [(e.termination, e.offender) for e in mirror.effects if isinstance(e, MatchEnded)] == [
        (Termination.SUSPENSION, 2)
    ]
    assert actor.status == "finished" and mirror.state.phase is Phase.CLOSED
    assert "disconnected" not in [kind for kind, _ in log]  # ended at once, never away


async def test_the_actor_and_the_pure_table_agree_on_a_refused_play_from_a_seat_judged_away(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Regression: a seat judged away for a silence, its page still joined, plays out of turn.
    Both refuse the play (``not_your_turn``) and both take it as the player's return, the table
    going on with a fresh clock for the seat in turn (`command_heard`): the actor counted the play
    before judging it and kept it, while the pure table dropped it with the refused input and
    kept waiting for the player."""
    people, actor, _, start, mirror = await dealt_with_heartbeats(make_player, monkeypatch, fake_clock)
    await until_a_lasting_turn(actor, mirror, people, start)
    in_turn = actor.game.to_move
    assert in_turn is not None
    silent = (in_turn + 2) % 4
    await silent_for_30_seconds(actor, mirror, fake_clock, silent, start)
    assert actor.paused and mirror.state.paused
    moment = start + timedelta(seconds=31)
    fake_clock.moment = moment
    hand = actor.game.hand
    assert hand is not None
    action = hand.legal_actions()[0]
    for _ in range(2):  # back by the first; the second is only heard from
        code = await refused_alike_at(
            actor,
            mirror,
            moment,
            lambda: actor.play(people[silent].pk, actor.version, action),
            Move(silent, action),
        )
        assert code == "not_your_turn"
        assert silent not in actor.away_since and not mirror.state.seats[silent].is_away
        await agree(actor, mirror)
    assert not actor.paused and actor.game.to_move == in_turn
    assert mirror.presence()[-1] == ("reconnected", silent, False)


async def test_the_actor_and_the_pure_table_agree_on_a_suspension_at_an_inviting_table(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Regression: moderation told an inviting table of a suspension and the actor did nothing,
    while the pure table closed it. Now both ask `suspension_ending`: an invited player suspended
    cancels the table (reason ``suspension``), everyone back to the meeting room."""
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Mirror(start, started=False)
    await actor.call(lambda: actor.accept(people[1].pk))
    mirror.at(start, Accept(1))
    suspended = people[2].pk  # invited, not answered yet
    monkeypatch.setattr(suspensions, "account_suspended", lambda user_id, now: user_id == suspended)
    fake_clock.advance(2)
    await actor.call(lambda: actor.suspension_imposed(suspended))
    mirror.at(fake_clock.now(), Suspend(2))
    log = await actor_log(actor)
    reasons = [data["reason"] for kind, data in log if kind == "cancelled"]
    cancelled = [effect.reason.value for effect in mirror.effects if isinstance(effect, TableCancelled)]
    assert reasons == cancelled == ["suspension"]
    assert actor.status == "cancelled" and mirror.state.phase is Phase.CLOSED
    assert all(seat.invitation != "pending" for seat in actor.seats)
    assert actor.deadline_at is None and next_deadline(mirror.state) is None


async def test_the_actor_and_the_pure_table_agree_on_a_suspension_during_the_vote(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Regression: a suspension told during the vote was ignored by the actor, while the pure
    table closed the table. Now both close the vote for the meeting room, with no next table,
    even though the others had all chosen a rematch."""
    draw = random.Random(7)
    people, actor, _sockets = await seated_table(make_player, monkeypatch, draw)
    mirror = Mirror(fake_clock.now())
    now = fake_clock.now()
    await play_to_the_vote(actor, mirror, people, draw, now)
    for seat in (0, 2, 3):
        await actor.call(lambda seat=seat: actor.vote(people[seat].pk, actor.version, "rematch"))
        mirror.at(now, Vote(seat, VoteChoice.REMATCH))
    suspended = people[1].pk
    monkeypatch.setattr(suspensions, "account_suspended", lambda user_id, now: user_id == suspended)
    await actor.call(lambda: actor.suspension_imposed(suspended))
    mirror.at(now, Suspend(1))
    log = await actor_log(actor)
    closed = [data["result"] for kind, data in log if kind == "votes_closed"]
    results = [effect.choice for effect in mirror.effects if isinstance(effect, VoteResult)]
    assert closed == ["communicate"] and results == [VoteChoice.LOBBY]
    assert actor.status == "finished" and actor.next_table_id is None
    assert mirror.state.phase is Phase.CLOSED
    assert actor.deadline_at is None


def first_lead(variant: str, deal: Any) -> int:
    """The first leader the Cuban draw for the lead finds in a match's first deal."""
    drawn = first_lead_draw(find_variant(variant), deal)
    assert drawn is not None
    return drawn.leader


async def test_the_actor_and_the_pure_table_agree_on_a_computers_reshuffle(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cuban, Ana against a computer player (seat 1) that is dealt 5 or more doubles in the first
    deal: both tables void that deal for it at once (the model's `computer_reshuffle_seat`) and
    deal the hand again, and both records keep the same hand, voided deal and all. The keys are
    found so that Ana leads (the record is read before anyone moves)."""
    asking = find_key(
        "cuban-1v1",
        lambda deal: reshuffle_seats(deal.hands) == (1,) and first_lead("cuban-1v1", deal) == 0,
    )
    plain = find_key("cuban-1v1", lambda deal: reshuffle_seats(deal.hands) == ())
    deal_keys(monkeypatch, asking, plain)
    _, actor = await against_computers(make_player, "cuban-1v1")
    await until(lambda: actor.game.to_move is not None)
    served = actor.game.record()

    table = replace(
        config("cuban-1v1", ("Ana", None), timing=Timing(heartbeat_timeout=1e9)),
        table_id=f"table:{actor.id}:match:1",
    )
    state, _ = open_table(table, 0.0)
    draft = new_draft(table, 0.0)
    for given in (Deal(asking, 0), Deal(plain, None)):
        state, effects = advance(state, given, 1.0)
        draft = update(draft, state, effects)
    modelled = to_record(draft).to_obj()

    def hands(record: dict[str, Any]) -> list[dict[str, Any]]:
        # ``started``: the server's record does not keep when a hand started.
        return [
            {name: value for name, value in hand.items() if name != "started"} for hand in record["hands"]
        ]

    assert hands(served) == hands(modelled)
    assert served["table"] == modelled["table"] and served["variant"] == modelled["variant"]
    (voided,) = served["hands"][0]["voided"]
    assert voided["seat"] == 1 and voided["key"] == asking
