"""The entries written from the pure table's effects (`effect_entries.entries_of`) are the rows the
actor stores, step by step.

The side-by-side matches of test_actor_agrees_with_model.py are played again (its `Mirror`, drivers
and fixtures), the mirror keeping each step's states and effects; wherever that harness checks
the two tables agree, the rows the actor stored since the last check are read back from the
database and must equal the entries `entries_of` writes for the pure table's steps since then,
encoded as the actor encodes them (`log_codec.encode`). The differences that cannot agree yet are
listed in `KNOWN_GAPS`, and asserted to be the only ones: the test fails when one closes or a new
one appears.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.table import (
    Accept,
    Cancel,
    Disconnected,
    Effect,
    Reconnected,
    Refuse,
    Suspend,
    TableState,
    Tick,
    Vote,
    VoteChoice,
)
from amigos.web.accounts.models import User
from amigos.web.tables import log_codec, store, suspensions
from amigos.web.tables.actor import TableActor
from amigos.web.tables.effect_entries import entries_of
from amigos.web.tables.log_entries import CardGiven
from tests.web.tables import test_actor_agrees_with_model as harness
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import invited_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]

Row = tuple[str, dict[str, Any]]

#: Kinds of rows where the actor and `entries_of` do not agree yet, and why. A kind listed is
#: left out of the comparison and must still differ in every test that lists it
#: (`Checker.finish`), so the list fails once a gap closes; any other difference fails at once.
#: Once a match is under way none is known.
KNOWN_GAPS: dict[str, str] = {}

#: Before the match: none since an accepted invitation is an effect (`InvitationAccepted`), which
#: the seat's change (`SeatChanged`, `seat_json`) is written from.
INVITING_GAPS: dict[str, str] = {}


class Steps(harness.Mirror):
    """The harness's pure table, keeping every step: the state before, after, and its effects."""

    def __init__(self, start: datetime, started: bool = True, heartbeat_timeout: float = 1e9) -> None:
        self.steps: list[tuple[TableState, TableState, list[Effect]]] = []
        self.counted = 0
        self.last: TableState | None = None
        super().__init__(start, started, heartbeat_timeout)

    def at(self, moment: datetime, event: Any) -> None:
        self.catch_up()
        before = self.state
        super().at(moment, event)
        self.steps.append((before, self.state, self.effects[self.counted :]))
        self.counted, self.last = len(self.effects), self.state

    def catch_up(self) -> None:
        """A step made outside `at` (a refused play's sign of life, kept by the harness)."""
        if self.last is not None and self.state is not self.last:
            self.steps.append((self.last, self.state, self.effects[self.counted :]))
            self.counted, self.last = len(self.effects), self.state


class Checker:
    """Compares, at each check, the actor's rows since the last one with the entries written
    from the pure table's steps since then."""

    def __init__(self, gaps: dict[str, str] | None = None) -> None:
        self.gaps = KNOWN_GAPS if gaps is None else gaps
        self.since: int | None = None
        self.step = 0
        self.cards: dict[int, dict[str, int]] = {}
        self.gaps_seen: set[str] = set()
        self.compared = 0
        self.rows: list[Row] = []

    async def check(self, actor: TableActor, mirror: Steps) -> None:
        mirror.catch_up()
        if self.since is None:
            # From the match's start: the actor stored it with the first deal, when the mirror dealt.
            rows = await sync_to_async(store.rows_between)(actor.id, 0, actor.version)
            self.since = max(version for version, kind, _ in rows if kind == "started") - 1
            self.step = next(
                index
                for index, (before, _, _) in enumerate(mirror.steps)
                if before.match is None
                and any(type(effect).__name__ == "HandStarted" for effect in mirror.steps[index][2])
            )
        # Read as a job of the actor: a deal it made by itself (its timer's job) may be dealt in
        # memory, which the harness waits for, and not yet stored; its job ends once it is.
        read: list[Row] = []

        async def stored() -> None:
            rows = await sync_to_async(store.rows_between)(actor.id, self.since, actor.version)
            read.extend((kind, data) for _, kind, data in rows)

        await actor.call(stored)
        served = read
        written: list[Row] = []
        for before, after, effects in mirror.steps[self.step :]:
            context = replace(
                actor.entry_context(actor.game.match_number), origin=mirror.start, cards=self.cards
            )
            entries = entries_of(before, after, effects, context)
            for entry in entries:
                if isinstance(entry, CardGiven):
                    self.cards[entry.seat] = dict(entry.cards)
            written += [log_codec.encode(entry) for entry in entries]
        self.since, self.step = actor.version, len(mirror.steps)
        self.compared += len(served)
        self.rows += served
        gaps = self.gaps
        self.gaps_seen |= {row[0] for row in served if row[0] in gaps and row not in written}
        assert [row for row in served if row[0] not in gaps] == [row for row in written if row[0] not in gaps]

    def finish(self) -> None:
        """Each known gap still shows (else it has closed: take it off its list)."""
        assert self.gaps_seen == set(self.gaps)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Checker]:
    """The harness's checks, each followed by this one (and its pure table keeping its steps)."""
    checker = Checker()
    agree = harness.agree

    async def agree_and_check(actor: TableActor, mirror: harness.Mirror) -> None:
        await agree(actor, mirror)
        assert isinstance(mirror, Steps)
        await checker.check(actor, mirror)

    monkeypatch.setattr(harness, "Mirror", Steps)
    monkeypatch.setattr(harness, "agree", agree_and_check)
    yield checker
    checker.finish()


@pytest.mark.parametrize(("seed", "pause"), [(1, 0), (2, 5)])
async def test_entries_from_effects_agree_move_by_move(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    settings: Any,
    checked: Checker,
    seed: int,
    pause: int,
) -> None:
    """Clocks running out (cards, notices, the system's plays), automatic passes, hands ending
    and the pause between hands: the same rows."""
    settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS = pause
    await harness.play_side_by_side(make_player, monkeypatch, fake_clock, seed, absences=False)
    assert checked.compared > 50


@pytest.mark.parametrize("seed", [3, 4])
async def test_entries_from_effects_agree_on_absences(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    checked: Checker,
    seed: int,
) -> None:
    """Pages closing and coming back, "Abandono", fresh time after a restart, the blue card and
    the match ended by abandonment: the same rows."""
    await harness.play_side_by_side(make_player, monkeypatch, fake_clock, seed, absences=True)
    assert checked.compared > 20


async def test_entries_from_effects_agree_on_the_vote(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    checked: Checker,
) -> None:
    """A match to its target (its end and the vote's deadline), then the vote: choices, one
    replaced, a page closed and reopened in time, a page closed for good (a choice of the meeting
    room, ``left``) that closes the vote. The harness's vote test, checked after every step."""
    draw = random.Random(7)
    people, actor, sockets = await harness.seated_table(make_player, monkeypatch, draw)
    mirror = Steps(fake_clock.now())
    now = fake_clock.now()
    await harness.play_to_the_vote(actor, mirror, people, draw, now)
    await checked.check(actor, mirror)

    async def vote(seat: int, choice: VoteChoice, word: str) -> None:
        await actor.call(lambda: actor.vote(people[seat].pk, actor.version, word))
        mirror.at(fake_clock.now(), Vote(seat, choice))
        await checked.check(actor, mirror)

    async def at(seconds: float) -> None:
        fake_clock.moment = now + timedelta(seconds=seconds)
        await actor.fire_deadline()
        mirror.at(fake_clock.now(), Tick())
        await checked.check(actor, mirror)

    await vote(0, VoteChoice.REMATCH, "rematch")
    await vote(0, VoteChoice.ROTATE, "rotate")
    await vote(1, VoteChoice.ROTATE, "rotate")
    await actor.call(lambda: actor.detach(sockets[2], 2))
    mirror.at(fake_clock.now(), Disconnected(2))
    await at(9.9)
    await actor.call(lambda: actor.attach(sockets[2], 2))
    mirror.at(fake_clock.now(), Reconnected(2))
    await at(20.0)
    await actor.call(lambda: actor.detach(sockets[3], 3))
    mirror.at(fake_clock.now(), Disconnected(3))
    await at(30.0)
    assert actor.status == "finished"
    kinds = [kind for kind, _ in checked.rows]
    assert {"match_ended", "vote", "votes_closed"} <= set(kinds)


@pytest.mark.parametrize(
    "played",
    [
        harness.test_the_actor_and_the_pure_table_agree_on_a_play_from_a_seat_judged_away,
        harness.test_the_actor_and_the_pure_table_agree_on_a_refused_play_from_a_seat_judged_away,
        harness.test_the_actor_and_the_pure_table_agree_on_a_window_and_a_silence_due_together,
    ],
    ids=["play_judged_away", "refused_play_judged_away", "window_and_silence"],
)
async def test_entries_from_effects_agree_on_silences(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    checked: Checker,
    played: Callable[..., Awaitable[None]],
) -> None:
    """Seats judged away for a silence (their pages still joined), their plays taken as their
    return or refused, and a window run out: the harness's own tests, checked at each of its
    checks (a refused play's sign of life included).

    The harness gives the pure table the play of a seat judged away at 31 s while the actor's
    clock still reads 30 s (its own checks compare no moments); here the actor's clock is moved
    to 31 s too, so both write the same moments."""
    silent_for_30_seconds = harness.silent_for_30_seconds

    async def then_a_second(
        actor: TableActor, mirror: harness.Mirror, fake_clock: FakeClock, silent: int, start: datetime
    ) -> None:
        await silent_for_30_seconds(actor, mirror, fake_clock, silent, start)
        fake_clock.moment = start + timedelta(seconds=31)

    monkeypatch.setattr(harness, "silent_for_30_seconds", then_a_second)
    await played(make_player, monkeypatch, fake_clock)
    assert checked.compared > 5


@pytest.mark.parametrize("voting", [False, True])
async def test_entries_from_effects_agree_on_a_suspension(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    checked: Checker,
    voting: bool,
) -> None:
    """A player suspended from outside the table: the match ends unfinished (the seat its
    offender), or during the vote the vote closes for the meeting room."""
    draw = random.Random(7)
    people, actor, _ = await harness.seated_table(make_player, monkeypatch, draw)
    mirror = Steps(fake_clock.now())
    if voting:
        await harness.play_to_the_vote(actor, mirror, people, draw, fake_clock.now())
    else:
        await harness.deal_as_the_actor_did(actor, mirror, fake_clock.now())
    await checked.check(actor, mirror)
    suspended = people[1].pk
    monkeypatch.setattr(suspensions, "account_suspended", lambda user_id, now: user_id == suspended)
    fake_clock.advance(3)
    await actor.call(lambda: actor.suspension_imposed(suspended))
    mirror.at(fake_clock.now(), Suspend(1))
    await checked.check(actor, mirror)
    kinds = [kind for kind, _ in checked.rows]
    assert ("votes_closed" if voting else "match_ended") in kinds and actor.status == "finished"


@pytest.mark.parametrize("ending", ["refused", "not_started", "organizer"])
async def test_entries_from_effects_agree_before_the_match(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, ending: str
) -> None:
    """Invitations answered, then the table cancelled: an invitation refused, the organizer's
    window run out, or the organizer calling it off. From the table's first row, the accepted
    seats included (`INVITING_GAPS` is empty)."""
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Steps(start, started=False)
    checker = Checker(INVITING_GAPS)
    checker.since, checker.step = actor.version, 0
    await actor.call(lambda: actor.accept(people[1].pk))
    mirror.at(start, Accept(1))
    await checker.check(actor, mirror)
    if ending == "refused":
        fake_clock.advance(2)
        await actor.call(lambda: actor.refuse(people[2].pk))
        mirror.at(fake_clock.now(), Refuse(2))
    else:
        for seat in (2, 3):
            await actor.call(lambda seat=seat: actor.accept(people[seat].pk))
            mirror.at(start, Accept(seat))
        await checker.check(actor, mirror)
        if ending == "organizer":
            await actor.call(lambda: actor.cancel(people[0].pk))
            mirror.at(fake_clock.now(), Cancel(0))
        else:
            assert mirror.state.start_until is not None
            fake_clock.moment = start + timedelta(seconds=mirror.state.start_until)
            await actor.fire_deadline()
            mirror.at(fake_clock.now(), Tick())
    await checker.check(actor, mirror)
    reason = {"refused": "invitations"}.get(ending, ending)
    assert actor.status == "cancelled"
    assert [data["reason"] for kind, data in checker.rows if kind == "cancelled"] == [reason]
    checker.finish()
