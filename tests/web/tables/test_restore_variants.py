"""The restore reader against the actor itself, in the variants the side-by-side matches do not
play: the draw and fives games (tiles drawn from the boneyard, points scored during play) and
Cuban between two, each against computer players (practice cards, computer moves).

After every turn of the person at the table, the table is read back from the database
(`restore.table_state`) and must say what the live actor holds: the phase, the hand in play move
for move (the same engine state), the match's scores, whose clock runs and why, and each seat's
cards. The pure table is not run here: the actor is the reference."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from asgiref.sync import sync_to_async

from amigos.table import Timing
from amigos.web.accounts.models import User
from amigos.web.tables import socket_keys, store
from amigos.web.tables.actor import TableActor
from amigos.web.tables.actor_clock import WORDS
from amigos.web.tables.restore import table_state
from tests.web.tables.support import FakeClock, Recorder, play_of
from tests.web.tables.test_actor import against_computers, my_turn, until
from tests.web.tables.test_time_and_presence import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]

#: Any fixed origin: the reader counts model seconds from it.
ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)


async def read_back_agrees(actor: TableActor, fake_clock: FakeClock) -> set[str]:
    """The table read back says what the actor holds; what it went through (for the test to
    require that its match showed it). Read and compared as a job of the actor, so that no
    computer player's move comes between the two."""
    found: set[str] = set()

    async def job() -> None:
        found.update(await _compare(actor, fake_clock))

    await actor.call(job)
    return found


async def _compare(actor: TableActor, fake_clock: FakeClock) -> set[str]:
    loaded = await sync_to_async(store.load)(actor.id)
    assert loaded is not None
    state = table_state(loaded, Timing(), fake_clock.now(), ORIGIN)
    assert state.phase is actor.phase
    game = actor.game
    seen: set[str] = set()
    if actor.phase.value == "playing":
        assert state.hand is not None and game.hand is not None
        assert state.hand.state == game.hand
        assert state.hand.number == len(game.hands)
        seen.add("hand")
        if any(event.__class__.__name__ == "DrawEvent" for event in game.hand.history):
            seen.add("drawn")
    if game.match is not None:
        assert state.match is not None
        assert state.match.score == game.match.score
        if any(game.match.score):
            seen.add("scored")
    shown = actor.clock_info
    if shown is not None and game.in_hand:
        assert state.clock is not None
        assert (state.clock.seat, WORDS[state.clock.situation]) == (shown.seat, shown.situation)
    for index, seat in enumerate(state.seats):
        counts = actor.cards.get(index, {"yellow": 0, "blue": 0, "red": 0})
        assert (seat.yellow, seat.blue, seat.red) == (counts["yellow"], counts["blue"], counts["red"])
        # Who is away since when, and whom a computer player holds, as the actor counts them.
        since = actor.away_since.get(index)
        assert seat.away_since == (None if since is None else round((since - ORIGIN).total_seconds(), 3))
        assert seat.held_by_computer == actor.seats[index].held_by_computer
        if seat.held_by_computer:
            seen.add("held")
    if state.clock is not None:
        seen.add(f"clock:{state.clock.situation.value}")
    return seen


@pytest.mark.parametrize(
    ("variant", "players", "wanted"),
    [
        ("draw-100", 2, {"hand", "drawn"}),
        ("all-fives-100", 2, {"hand", "scored"}),
        ("fives-and-threes-100", 2, {"hand", "scored"}),
        ("cuban-1v1", 2, {"hand"}),
        ("draw-100", 4, {"hand"}),
    ],
)
async def test_a_match_against_computers_reads_back_as_the_actor_holds_it(
    make_player: Callable[..., User], fake_clock: FakeClock, variant: str, players: int, wanted: set[str]
) -> None:
    user, actor = await against_computers(make_player, variant, players)
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    seen = await read_back_agrees(actor, fake_clock)
    for _ in range(25):
        await until(lambda: my_turn(me, actor) is not None or actor.status != "playing")
        if actor.status != "playing":
            break
        turn = my_turn(me, actor)
        assert turn is not None
        seen |= await read_back_agrees(actor, fake_clock)
        await actor.call(lambda t=turn: actor.play(user.pk, t[0], play_of(t[1][0])))
    seen |= await read_back_agrees(actor, fake_clock)
    assert seen >= wanted


async def test_a_correspondence_table_reads_back_as_the_actor_holds_it(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """A day per move, two people and two computer players: each turn read back."""
    ana, beto, actor = await humans_table(make_player, monkeypatch, "amigos-100", kind="correspondence")
    seen = await read_back_agrees(actor, fake_clock)
    people = {0: ana, 2: beto}
    for _ in range(12):
        await until(lambda: actor.game.to_move in people or actor.status != "playing")
        if actor.status != "playing":
            break
        seat = actor.game.to_move
        hand = actor.game.hand
        assert seat is not None and hand is not None
        seen |= await read_back_agrees(actor, fake_clock)
        fake_clock.advance(3_600)  # an hour to answer, well within the day
        action = hand.legal_actions()[0]
        await actor.call(lambda seat=seat, action=action: actor.play(people[seat].pk, actor.version, action))
    seen |= await read_back_agrees(actor, fake_clock)
    assert seen >= {"hand", "clock:correspondence"}


async def test_a_seat_a_computer_holds_and_gives_back_reads_back_as_the_actor_holds_it(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Cuban between four: Beto's page closes, his grace runs out and a computer player holds his
    seat (`ComputerHolds`); his page comes back and the seat is his again (`SeatReturned`). Read
    back at each step, with the away moment and the hold."""
    ana, beto, actor = await humans_table(make_player, monkeypatch, "cuban-2v2")
    pages = {0: Recorder(ana.pk), 2: Recorder(beto.pk)}
    for page in pages.values():
        await actor.call(lambda page=page: actor.join(page, True, None))
    seen = await read_back_agrees(actor, fake_clock)
    await actor.call(lambda: actor.detach(socket_keys.key_of(pages[2]), 2))
    seen |= await read_back_agrees(actor, fake_clock)
    for _ in range(13):  # past the 2-minute grace, Ana heard from all along
        fake_clock.advance(10)
        assert actor.heard_at_once(0)
        await actor.fire_deadline()
        seen |= await read_back_agrees(actor, fake_clock)
    assert actor.seats[2].held_by_computer
    await actor.call(lambda: actor.attach(socket_keys.key_of(pages[2]), 2))
    assert not actor.seats[2].held_by_computer
    seen |= await read_back_agrees(actor, fake_clock)
    assert seen >= {"hand", "held", "clock:timed"}
