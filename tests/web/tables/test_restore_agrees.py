"""The model's state read back from the database (`restore.table_state`) is the pure table's.

Seeded matches are played at the actor and at the pure table in lockstep, with the side-by-side
harness of `test_actor_agrees_with_model` (its `Mirror`, drivers and checks); at every step the
table is loaded from the database as a restarted actor loads it (`store.load`), read into a
`TableState`, and compared field by field with the pure table's. The fields the stored log cannot
know (`restore`'s docstring: ``last_seen``, ``page_open``, ``vote_absent_since``) are compared
with what the actor's restart assumes instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from amigos.engine.variants.cuban import reshuffle_seats
from amigos.table import (
    Accept,
    AskReshuffle,
    Deal,
    Disconnected,
    Phase,
    Start,
    TableState,
    Tick,
    Timing,
    Vote,
    VoteChoice,
    open_table,
)
from amigos.web.accounts.models import User
from amigos.web.tables import log_codec, services, store
from amigos.web.tables.actor import TableActor
from amigos.web.tables.log_entries import CardGiven as CardGivenEntry
from amigos.web.tables.rendering import iso
from amigos.web.tables.restore import table_state
from tests.table.helpers import Table, config, find_key
from tests.web.tables.support import FakeClock
from tests.web.tables.test_actor import among_people, deal_keys, invited_table
from tests.web.tables.test_actor_agrees_with_model import (
    Mirror,
    deal_as_the_actor_did,
    play_side_by_side,
    play_to_the_vote,
    seated_table,
)
from tests.web.tables.written import Written

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]

#: The seat fields no stored fact carries: compared with the actor's restart (`restore`).
UNKNOWABLE_SEAT = ("last_seen", "page_open", "vote_absent_since")


def aligned(mirror: Mirror, actor: TableActor, people: list[User]) -> None:
    """The pure table named as the server names it: the match's record identity as its table
    (under which each hand's key is committed) and the players' account ids. Done before the
    first deal, while nothing of the match names them yet."""
    state = mirror.state
    players = tuple(str(user.pk) for user in people)
    config = replace(
        state.config, table_id=f"table:{actor.id}:match:{max(actor.game.match_number, 1)}", players=players
    )
    seats = tuple(replace(seat, player=player) for seat, player in zip(state.seats, players, strict=True))
    mirror.state = replace(state, config=config, seats=seats)


async def restored(actor: TableActor, mirror: Mirror) -> TableState:
    """The table read back, as a job of the actor: a deal it made by itself may be dealt in memory
    (what the harness waits for) and not yet stored; its job ends once it is."""
    found: list[store.Loaded | None] = []

    async def load() -> None:
        found.append(await sync_to_async(store.load)(actor.id))

    await actor.call(load)
    loaded = found[0]
    assert loaded is not None
    now = mirror.start + timedelta(seconds=mirror.state.now)
    return table_state(loaded, mirror.state.config.timing, now, mirror.start)


def _rounded(value: Any) -> Any:
    """Floats to the millisecond (the log keeps a moment so), inside the model's values."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, tuple):
        return tuple(_rounded(item) for item in value)
    if hasattr(value, "__dataclass_fields__") and not hasattr(value, "legal_actions"):
        return replace(value, **{f.name: _rounded(getattr(value, f.name)) for f in fields(value) if f.init})
    return value


def _diff(name: str, read: Any, model: Any) -> list[str]:
    """Where ``read`` and ``model`` differ, field by field inside the model's records."""
    if _rounded(read) == _rounded(model):
        return []
    if (
        type(read) is type(model)
        and hasattr(read, "__dataclass_fields__")
        and not hasattr(read, "legal_actions")
    ):
        found = []
        for f in fields(read):
            found += _diff(f"{name}.{f.name}", getattr(read, f.name), getattr(model, f.name))
        return found
    return [f"{name}: read {read!r} != model {model!r}"]


def differences(read: TableState, model: TableState) -> list[str]:
    """The fields where the state read back differs from the pure table's (the unknowable seat
    fields left out, and checked against the restart's assumptions)."""
    found = []
    for f in fields(TableState):
        if not f.compare or f.name == "seats":  # the caches (`due`, ...) are not the state
            continue
        found += _diff(f.name, getattr(read, f.name), getattr(model, f.name))
    for number, (mine, theirs) in enumerate(zip(read.seats, model.seats, strict=True)):
        for f in fields(mine):
            if f.name not in UNKNOWABLE_SEAT:
                found += _diff(f"seat {number} {f.name}", getattr(mine, f.name), getattr(theirs, f.name))
        # What the actor's restart assumes: heard from now, a page open unless away, not absent
        # from a vote.
        assert mine.last_seen == read.now
        assert mine.page_open is (mine.away_since is None)
        assert mine.vote_absent_since is None
    return found


async def restore_agrees(actor: TableActor, mirror: Mirror) -> set[str]:
    """The state read back is the pure table's; what that state showed (`shown`)."""
    read = await restored(actor, mirror)
    assert differences(read, mirror.state) == []
    return shown(mirror.state)


def shown(state: TableState) -> set[str]:
    """What of the rules a state shows, so a test can say its matches went through them."""
    clock, hand = state.clock, state.hand
    seen = {state.phase.value}
    if clock is not None:
        seen.add(f"clock:{clock.situation.value}")
        if clock.cards:
            seen.add("clock with cards")
    if hand is not None and any(stamp.reason for stamp in hand.moves):
        seen.add("system moves")
    if state.deal_at is not None:
        seen.add("pause between hands")
    if state.paused:
        seen.add("paused")
        if state.phase is Phase.DEALING:
            seen.add("paused between hands")
    if any(seat.abandon for seat in state.seats):
        seen.add("abandon")
    if state.termination is not None:
        seen.add(f"ended:{state.termination.value}")
    return seen


async def play_and_restore(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    seed: int,
    absences: bool,
) -> tuple[Mirror, set[str]]:
    """`test_actor_agrees_with_model.play_side_by_side`'s match, the table read back from the
    database after every step (and at every deadline) and compared with the pure table's. What the
    compared states showed (`shown`) is returned with the pure table."""
    seen: set[str] = set()

    async def read_back(actor: TableActor, mirror: Mirror) -> None:
        seen.update(await restore_agrees(actor, mirror))

    mirror = await play_side_by_side(
        make_player, monkeypatch, fake_clock, seed, absences, prepare=aligned, then=read_back
    )
    return mirror, seen


@pytest.mark.parametrize(("seed", "pause"), [(1, 0), (2, 5)])
async def test_a_match_read_back_is_the_pure_tables(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    settings: Any,
    seed: int,
    pause: int,
) -> None:
    """Clocks running out with cards and system plays, hands ending, the pause between hands."""
    settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS = pause
    _, seen = await play_and_restore(make_player, monkeypatch, fake_clock, seed, absences=False)
    wanted = {"clock:single", "clock:open", "clock:blocking", "clock with cards", "system moves"}
    assert seen >= wanted | ({"dealing", "pause between hands"} if pause else set())


@pytest.mark.parametrize("seed", [10])  # a page closes in the pause, then the match is abandoned
async def test_a_table_waiting_between_hands_reads_back_its_deal(
    make_player: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    fake_clock: FakeClock,
    settings: Any,
    seed: int,
) -> None:
    """A page closing in the pause between hands: the table waits, and the held deal is in no
    deadline the row keeps; read back, it is still due when the pause ends (`restore`'s
    ``deal_at``). Regression: a table taken over in that wait stayed between hands for good."""
    settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS = 60  # long, so that pages close in it
    _, seen = await play_and_restore(make_player, monkeypatch, fake_clock, seed, absences=True)
    assert "paused between hands" in seen


@pytest.mark.parametrize("seed", [3, 4])
async def test_a_match_with_absences_read_back_is_the_pure_tables(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, seed: int
) -> None:
    """Pages closing, the absence window, "Abandono", restarts with fresh time, abandonment."""
    _, seen = await play_and_restore(make_player, monkeypatch, fake_clock, seed, absences=True)
    assert seen >= {"paused", "abandon", "clock with cards"}


async def at_the_vote(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> tuple[list[User], TableActor, list[Any], Mirror, datetime]:
    """A seeded match played to its target at both tables (the pure one named as the server
    names it): the people, the actor, their sockets, the pure table and the match's start."""
    draw = random.Random(7)
    people, actor, sockets = await seated_table(make_player, monkeypatch, draw)
    mirror = Mirror(fake_clock.now())
    aligned(mirror, actor, people)
    now = fake_clock.now()
    await play_to_the_vote(actor, mirror, people, draw, now)
    return people, actor, sockets, mirror, now


async def test_the_vote_read_back_is_the_pure_tables(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """A match played to its target, then the vote: its deadline and each seat's choice."""
    people, actor, _, mirror, now = await at_the_vote(make_player, monkeypatch, fake_clock)
    await restore_agrees(actor, mirror)
    for seat, choice, word in ((0, VoteChoice.REMATCH, "rematch"), (1, VoteChoice.ROTATE, "rotate")):
        await actor.call(lambda seat=seat, word=word: actor.vote(people[seat].pk, actor.version, word))
        mirror.at(now, Vote(seat, choice))
        await restore_agrees(actor, mirror)
    fake_clock.moment = now + timedelta(seconds=mirror.state.config.timing.vote)
    await actor.fire_deadline()
    mirror.at(fake_clock.now(), Tick())
    assert mirror.state.phase is Phase.CLOSED
    await restore_agrees(actor, mirror)


@pytest.mark.parametrize("pressed", [True, False])
async def test_an_inviting_table_read_back_is_the_pure_tables(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, pressed: bool
) -> None:
    """Invitations out (their deadline), then every seat in and the organizer's button awaited
    (its deadline), then the match started, or the table cancelled when nobody pressed it."""
    monkeypatch.setattr(services, "timezone", SimpleNamespace(now=fake_clock.now))
    people, actor = await invited_table(make_player, monkeypatch)
    start = fake_clock.now()
    mirror = Mirror(start, started=False)
    aligned(mirror, actor, people)
    await restore_agrees(actor, mirror)
    for seat in (1, 2):
        await actor.call(lambda seat=seat: actor.accept(people[seat].pk))
        mirror.at(start, Accept(seat))
        await restore_agrees(actor, mirror)
    fake_clock.advance(4)
    await actor.call(lambda: actor.accept(people[3].pk))
    mirror.at(fake_clock.now(), Accept(3))
    assert mirror.state.awaits_start
    await restore_agrees(actor, mirror)
    if pressed:
        fake_clock.advance(10)
        await actor.call(lambda: actor.start_by_organizer(people[0].pk))
        mirror.at(fake_clock.now(), Start(0))
        await deal_as_the_actor_did(actor, mirror, fake_clock.now())
        await restore_agrees(actor, mirror)
        return
    assert mirror.state.start_until is not None
    fake_clock.moment = start + timedelta(seconds=mirror.state.start_until)
    await actor.fire_deadline()
    mirror.at(fake_clock.now(), Tick())
    assert mirror.state.phase is Phase.CLOSED
    await restore_agrees(actor, mirror)


async def test_a_cuban_reshuffle_read_back_is_the_pure_tables(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock, settings: Any
) -> None:
    """Cuban 2v2 among four people: seat 0 is dealt 5 or more doubles (offered a new deal), asks
    for it, and the same hand is dealt again under its next identity. Read back before and after,
    the offer, the voided deal's count (``redeal``) and the hand dealt again are the pure table's."""
    asking = find_key("cuban-2v2", lambda deal: reshuffle_seats(deal.hands) == (0,))
    plain = find_key("cuban-2v2", lambda deal: reshuffle_seats(deal.hands) == ())
    deal_keys(monkeypatch, asking, plain)
    people, actor = await among_people(make_player, monkeypatch, "cuban-2v2")
    start = fake_clock.now()
    timing = Timing(heartbeat_timeout=1e9, hand_pause=float(settings.AMIGOS_TABLE_HAND_PAUSE_SECONDS))
    table = replace(
        config("cuban-2v2", tuple(str(user.pk) for user in people), timing=timing),
        table_id=f"table:{actor.id}:match:1",
    )
    model = Table(open_table(table, 0.0)[0])
    for seat in (1, 2, 3):
        model.at(0.0, Accept(seat))
    model.at(0.0, Start(0))
    first = actor.game.hands[-1]
    assert first.key == asking and first.offered == (0,)
    model.at(0.0, Deal(asking, first.start.leader))

    async def read_back() -> list[str]:
        loaded = await sync_to_async(store.load)(actor.id)
        assert loaded is not None
        return differences(table_state(loaded, timing, start, start), model.state)

    assert model.state.hand is not None and model.state.hand.reshuffle == (0,)
    assert await read_back() == []
    await actor.call(lambda: actor.reshuffle(people[0].pk, actor.version))
    model.at(0.0, AskReshuffle(0))
    assert model.state.phase is Phase.DEALING and model.state.redeal == 1
    assert actor.game.hands[-1].key == plain
    model.at(0.0, Deal(plain, None))
    hand = model.state.hand
    assert hand is not None and hand.redeal == 1 and hand.key == plain
    assert await read_back() == []


def test_practice_cards_are_counted_from_the_log() -> None:
    """A practice card (a table with a computer player) is logged but never stored as a `Card`
    row: the model counts it on the seat, so the reading counts the log's ``card`` entries, not
    `Loaded.cards`, which lacks it."""
    origin = datetime(2026, 1, 1, tzinfo=UTC)
    at = iso(origin)
    table = Written("amigos-100", ("Ana", None, None, None), table_id=9)
    table.deal(find_key("amigos-100", lambda deal: True), 0)
    entries = list(table.log)
    counts = {"yellow": 1, "blue": 0, "red": 0}
    entries.append(CardGivenEntry(0, 5, "yellow", "timeout", counts, practice=True, at=at))
    seats = [store.SeatRow(0, 5, "Ana", "", "accepted", None)]
    seats += [store.SeatRow(number, None, "", "easy", "accepted", None) for number in (1, 2, 3)]
    log = [(version, *log_codec.encode(entry)) for version, entry in enumerate(entries, start=1)]
    loaded = store.Loaded(
        id=9,
        name="Mesa",
        variant="amigos-100",
        players=4,
        target=None,
        kind="live",
        organizer_id=5,
        status="playing",
        version=len(log),
        match_number=1,
        deadline_at=None,
        deadline_kind="",
        seats=seats,
        log=log,
    )
    state = table_state(loaded, Timing(), origin, origin)
    assert loaded.cards == {}
    assert [seat.yellow for seat in state.seats] == [1, 0, 0, 0]
    assert state.config.players == ("5", None, None, None) and state.hand is not None


async def test_a_page_closed_during_the_vote_is_not_in_the_log(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """The known gap: a page closing during the vote is not logged (the actor's ``vote_left``
    starts empty after a restart), so the reading cannot know since when the seat has had no page
    (``vote_absent_since``) nor that it has none (``page_open``); everything else agrees."""
    _, actor, sockets, mirror, now = await at_the_vote(make_player, monkeypatch, fake_clock)
    fake_clock.moment = now + timedelta(seconds=3)
    await actor.call(lambda: actor.detach(sockets[3], 3))
    mirror.at(fake_clock.now(), Disconnected(3))
    read = await restored(actor, mirror)
    assert differences(read, mirror.state) == []
    modelled = mirror.state.seats[3]
    assert modelled.vote_absent_since == 3.0 and not modelled.page_open
    assert read.seats[3].vote_absent_since is None and read.seats[3].page_open
