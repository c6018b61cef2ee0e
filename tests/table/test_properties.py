"""Properties of any sequence of inputs at any times: the table stays consistent.

Hypothesis draws the table (family, seats, mode), then inputs one by one from what makes sense
now (mostly legal moves, but also refusals, disconnections, ticks far in the future...).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import HandState, Pass, PassEvent, Play, PlayEvent, Tile
from amigos.engine.evolve import evolve
from amigos.table import (
    Accept,
    AskReshuffle,
    Cancel,
    CardGiven,
    Colour,
    Deadline,
    DeadlineKind,
    Deal,
    Disconnected,
    Effect,
    Heartbeat,
    Invitation,
    Leave,
    Mode,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Reconnected,
    RedCard,
    Refuse,
    Start,
    TableError,
    TableInput,
    TableState,
    TakeOver,
    Tick,
    TurnStarted,
    Vote,
    VoteChoice,
    advance,
    next_deadline,
    open_table,
    table_deadline,
)

from .helpers import config

#: The deadlines of the seats' presence, which a table's own deadline leaves out.
PRESENCE_KINDS = {
    DeadlineKind.HEARTBEAT,
    DeadlineKind.RECONNECT,
    DeadlineKind.GRACE,
    DeadlineKind.VOTE_ABSENCE,
}

TABLES = [
    ("amigos-100", ("ana", "beto", "caro", "dani")),
    ("amigos-hands", ("ana", None, "caro", None)),
    ("cuban-2v2", ("ana", "beto", "caro", "dani")),
    ("cuban-1v1", ("ana", "beto")),
    ("draw-100", ("ana", "beto", None)),
    ("all-fives-100", ("ana", None)),
]


def draw_input(data: st.DataObject, state: TableState) -> TableInput:
    seats = st.integers(0, state.seat_count - 1)
    hand = state.hand
    if state.phase is Phase.PLAYING and hand is not None and data.draw(st.integers(0, 9)) < 7:
        seat = hand.state.to_move
        computer = state.seats[seat].plays_itself
        if data.draw(st.booleans()):
            action = data.draw(st.sampled_from(hand.state.legal_actions()))
        else:
            tile = Tile.of(data.draw(st.integers(0, 6)), data.draw(st.integers(0, 6)))
            action = Play(tile)
        return Move(data.draw(st.sampled_from([seat, seat, data.draw(seats)])), action, by_computer=computer)
    if state.phase is Phase.DEALING and data.draw(st.integers(0, 9)) < 8:
        return Deal(str(data.draw(st.uuids(version=4))), data.draw(st.sampled_from([None, 0, 1])))
    if state.phase is Phase.INVITING and data.draw(st.integers(0, 9)) < 8:
        pending = [seat for seat, info in enumerate(state.seats) if info.invitation is Invitation.PENDING]
        if not pending:
            return Start(data.draw(st.sampled_from([0, 0, 0, data.draw(seats)])))
        return Accept(data.draw(st.sampled_from(pending)))
    if state.phase in (Phase.DEALING, Phase.PLAYING) and data.draw(st.integers(0, 9)) < 5:
        present = [seat for seat, info in enumerate(state.seats) if not info.is_computer]
        return Heartbeat(data.draw(st.sampled_from(present)))
    return data.draw(
        st.one_of(
            st.builds(Accept, seats),
            st.builds(Refuse, seats),
            st.builds(Heartbeat, seats),
            st.builds(Disconnected, seats),
            st.builds(Reconnected, seats),
            st.builds(Leave, seats),
            st.builds(Vote, seats, st.sampled_from(VoteChoice)),
            st.builds(RedCard, seats),
            st.builds(AskReshuffle, seats),
            st.builds(Cancel, seats),
            st.just(TakeOver()),
            st.just(Tick()),
            st.just(Tick()),
        )
    )


def holds_hidden_tiles(value: object) -> bool:
    """Whether an effect's field could carry a hand (a state, or a set of tiles)."""
    if isinstance(value, HandState | frozenset):
        return True
    if isinstance(value, tuple | list):
        return any(holds_hidden_tiles(item) for item in value)
    return False


def check(before: TableState, after: TableState, effects: list[Effect], now: float) -> None:
    # Effects never carry a hand: the server renders every message through the engine's views.
    for effect in effects:
        assert not any(holds_hidden_tiles(getattr(effect, name)) for name in effect.__slots__)
    # Cards only go to the seat whose clock ran out, or (blue) to an absent seat.
    turn = before.clock.seat if before.clock is not None else None
    away = {seat for seat, info in enumerate(before.seats) if info.is_away}
    for effect in effects:
        if isinstance(effect, TurnStarted):
            turn = effect.seat
        if isinstance(effect, Notice) and effect.kind in (
            NoticeKind.PLAYER_AWAY,
            NoticeKind.PLAYER_LEFT,
            NoticeKind.ABANDON,
        ):
            away.add(effect.seat or 0)
            # It says when the absence began, within this step (the seat may be back by its end).
            assert effect.since is not None and before.now <= effect.since <= max(now, before.now)
        if isinstance(effect, CardGiven):
            assert effect.at <= now
            if effect.colour is Colour.YELLOW:
                assert effect.seat == turn
            elif effect.colour is Colour.BLUE:
                assert effect.seat in away
    # A running hand always has a deadline, and an unpaused one has the clock of the seat to move.
    hand = after.hand
    if after.phase is Phase.PLAYING:
        assert hand is not None and not hand.state.is_over
        assert next_deadline(after) is not None
        if not after.paused:
            assert after.clock is not None and after.clock.seat == hand.state.to_move
        else:
            assert after.clock is None
    if after.phase is Phase.CLOSED:
        assert next_deadline(after) is None
    # A clock runs only while a hand is played; one seat at most is in turn, the clock's.
    if after.clock is not None:
        assert after.phase is Phase.PLAYING and hand is not None
        # Its seat is there, or a computer player holds it (a Cuban or draw-game seat whose
        # player's grace ran out is still away, and the computer plays it on a clock).
        in_turn = after.seats[after.clock.seat]
        assert after.clock.seat == hand.state.to_move and (not in_turn.is_away or in_turn.held_by_computer)
    # Nobody votes on a table that is playing, and only a vote has a vote's deadline.
    if after.phase in (Phase.INVITING, Phase.DEALING, Phase.PLAYING):
        assert all(info.vote is None for info in after.seats)
    assert (after.vote_until is not None) == (after.phase is Phase.VOTING)
    # A deal is held only between hands: a match that ended holds none (a table read back from
    # a server's log holds none either, `restore`).
    assert after.deal_at is None or after.phase is Phase.DEALING
    # Computer players never play a match on for nobody: some person still holds their own seat.
    if after.phase in (Phase.DEALING, Phase.PLAYING):
        assert not all(info.held_by_computer for info in after.seats if not info.is_computer)
    deadline = next_deadline(after)
    assert deadline is None or deadline.at is None or deadline.at > now or deadline.kind is None
    # The deadline kept on a state is the one a fresh look finds: a copy never inherits its
    # source's (`TableState.due`, reset by `evolve` and `replace` alike).
    assert deadline == next_deadline(replace(after)) == next_deadline(evolve(after))
    # The table's own deadline (the one a server stores with the table) leaves the seats'
    # presence out, and the next deadline is it or a presence one no later.
    own = table_deadline(after)
    assert own is None or own.kind not in PRESENCE_KINDS
    if deadline is not None and deadline.kind not in PRESENCE_KINDS:
        assert deadline == own
    if own is not None and own.at is not None and deadline is not None and deadline.at is not None:
        assert deadline.at <= own.at
    # The moves with their times are exactly the hand's plays and passes, in order.
    if hand is not None:
        stamps = [(stamp.seat, stamp.action) for stamp in hand.moves]
        played = [
            (event.seat, event.play if isinstance(event, PlayEvent) else Pass())
            for event in hand.state.history
            if isinstance(event, PlayEvent | PassEvent)
        ]
        assert stamps == played
        assert all(a.at <= b.at for a, b in zip(hand.moves, hand.moves[1:], strict=False))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_sequence_of_inputs_keeps_the_table_consistent(data: st.DataObject) -> None:
    variant, players = data.draw(st.sampled_from(TABLES))
    mode = data.draw(st.sampled_from(Mode))
    state, _ = open_table(config(variant, players, mode=mode), 0.0)
    now = 0.0
    yellows: Counter[int] = Counter()
    for _ in range(data.draw(st.integers(1, 120))):
        now += data.draw(st.sampled_from([0.0, 0.5, 1.0, 4.0, 5.0, 6.0, 19.0, 31.0, 125.0, 301.0, 90_000.0]))
        sent = draw_input(data, state)
        try:
            after, effects = advance(state, sent, now)
        except TableError:
            continue
        check(state, after, effects, now)
        yellows.update(
            effect.seat
            for effect in effects
            if isinstance(effect, CardGiven) and effect.colour is Colour.YELLOW
        )
        state = after
        if state.phase is Phase.CLOSED:
            break
    assert {seat: info.yellow for seat, info in enumerate(state.seats) if info.yellow} == dict(yellows)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_late_tick_equals_punctual_ticks(data: st.DataObject) -> None:
    """Waking the table at each deadline or once at the end gives the same state and effects."""
    variant, players = data.draw(st.sampled_from(TABLES))
    state, _ = open_table(config(variant, players), 0.0)
    for seat, player in enumerate(players):
        if seat and player is not None:
            state, _ = advance(state, Accept(seat), 0.0)
    if state.awaits_start:
        state, _ = advance(state, Start(0), 0.0)
    state, _ = advance(state, Deal(str(data.draw(st.uuids(version=4))), 0), 0.0)
    end = data.draw(st.floats(0.0, 400.0))
    late, late_effects = advance(state, Tick(), end)
    punctual = state
    punctual_effects: list[Effect] = []
    while True:
        deadline = next_deadline(punctual)
        if deadline is None or deadline.at is None or deadline.at > end:
            break
        punctual, effects = advance(punctual, Tick(), deadline.at)
        punctual_effects.extend(effects)
    punctual, effects = advance(punctual, Tick(), end)
    punctual_effects.extend(effects)
    assert late == punctual
    strip = [effect for effect in late_effects if not isinstance(effect, Deadline)]
    assert strip == [effect for effect in punctual_effects if not isinstance(effect, Deadline)]
