"""The turn clock of an Amigos table (spec §2.1.4 and §3.1), driven by a fake clock."""

from __future__ import annotations

import pytest

from amigos.engine import HandState, Line, Pass, Play, Tile
from amigos.table import (
    CardGiven,
    CardReason,
    Colour,
    Conduct,
    Deadline,
    DeadlineKind,
    DealNeeded,
    Disconnected,
    Heartbeat,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Situation,
    SystemPlay,
    SystemReason,
    TableError,
    TakeOver,
    Tick,
    Timing,
    TurnStarted,
    gets_fresh_time,
    next_deadline,
)
from amigos.table.clock import after_card, card_reason, clock_due, system_reason, turn_clock, warns_no_block
from tests.engine.helpers import position

from .helpers import BLOCKING, OPEN, SINGLE, Table, playing

#: Seat 0 leads 6-6; seat 1 holds no 6 and passes at once; seat 2 has three 6s.
NOTHING_AFTER_LEAD = position(
    "amigos-100",
    ["6-6 5-5", "1-0 2-0 3-0 4-0", "6-5 6-4 6-3", "6-1 6-0"],
    Line.empty(False),
    to_move=0,
)


def yellow_times(table: Table, seat: int = 1) -> list[float]:
    return [
        card.at
        for card in table.effects(CardGiven)
        if isinstance(card, CardGiven) and card.colour is Colour.YELLOW and card.seat == seat
    ]


def test_open_position_gives_20_seconds() -> None:
    state = playing(OPEN)
    assert state.clock is not None
    assert state.clock.situation is Situation.OPEN
    assert state.clock.budget == 20
    assert next_deadline(state) == Deadline(20.0, DeadlineKind.CARD, 1)


def test_single_legal_tile_gives_5_seconds() -> None:
    state = playing(SINGLE)
    assert state.clock is not None and state.clock.situation is Situation.SINGLE
    assert state.clock.budget == 5


def test_blocking_situation_gives_60_seconds() -> None:
    state = playing(BLOCKING)
    assert state.clock is not None and state.clock.situation is Situation.BLOCKING
    assert state.clock.budget == 60


def test_no_card_before_the_time_runs_out() -> None:
    table = Table(playing(OPEN))
    table.at(19.999, Tick())
    assert table.effects(CardGiven) == []
    table.at(19.999, Move(1, Play(Tile.parse("6-5"), OPEN.line.legal_arms(Tile.parse("6-5"))[0])))
    table.at(100.0, Tick())
    assert [card for card in table.effects(CardGiven) if isinstance(card, CardGiven) and card.seat == 1] == []


def test_open_timeout_tells_no_blocking_situation_and_gives_a_yellow_card_every_5_seconds() -> None:
    table = Table(playing(OPEN))
    effects = table.at(20.0, Tick())
    assert effects[:2] == [
        Notice(NoticeKind.NO_BLOCKING_SITUATION, 1),
        CardGiven(1, Colour.YELLOW, CardReason.TIMEOUT, 20.0),
    ]
    table.at(34.9, Tick())
    assert yellow_times(table) == [20.0, 25.0, 30.0]
    # The notice is said once, not with every card.
    assert len(table.effects(Notice)) == 1
    assert table.state.seats[1].yellow == 3
    # The system never plays for the player in this situation.
    assert table.effects(SystemPlay) == []


def test_a_late_tick_gives_every_card_at_its_own_time() -> None:
    table = Table(playing(OPEN))
    table.at(41.0, Tick())
    assert yellow_times(table) == [20.0, 25.0, 30.0, 35.0, 40.0]


def test_blocking_timeout_gives_yellow_at_60_then_every_5_seconds_and_no_notice() -> None:
    table = Table(playing(BLOCKING))
    table.at(59.0, Tick())
    assert yellow_times(table) == []
    table.at(70.0, Tick())
    assert yellow_times(table) == [60.0, 65.0, 70.0]
    assert table.effects(Notice) == []


def test_single_tile_yellow_at_5_and_laid_by_the_system_at_6() -> None:
    table = Table(playing(SINGLE))
    table.at(5.0, Tick())
    assert yellow_times(table) == [5.0]
    assert table.effects(SystemPlay) == []
    table.at(6.0, Tick())
    (play,) = table.effects(SystemPlay)
    assert isinstance(play, SystemPlay)
    assert (play.seat, play.reason, play.at) == (1, SystemReason.SINGLE_TILE, 6.0)
    assert isinstance(play.action, Play) and play.action.tile == Tile.parse("6-5")
    assert yellow_times(table) == [5.0]
    hand = table.state.hand
    assert hand is not None and hand.moves[-1].reason == SystemReason.SINGLE_TILE.value
    assert hand.state.to_move == 2


def test_single_tile_played_in_time_gets_no_card() -> None:
    table = Table(playing(SINGLE))
    action = SINGLE.legal_actions()[0]
    table.at(4.9, Move(1, action))
    table.at(6.0, Tick())
    assert yellow_times(table) == []
    assert table.effects(SystemPlay) == []


def test_single_tile_played_between_the_card_and_the_system_keeps_the_card() -> None:
    table = Table(playing(SINGLE))
    table.at(5.5, Move(1, SINGLE.legal_actions()[0]))
    assert yellow_times(table) == [5.0]
    assert table.effects(SystemPlay) == []


def test_no_legal_tile_passes_at_once_with_the_angry_face_and_the_next_seat_gets_its_clock() -> None:
    table = Table(playing(NOTHING_AFTER_LEAD))
    effects = table.at(3.0, Move(0, NOTHING_AFTER_LEAD.legal_actions()[0]))
    passes = [effect for effect in effects if isinstance(effect, SystemPlay)]
    assert passes == [SystemPlay(1, Pass(), SystemReason.AUTO_PASS, 3.0)]
    started = [effect for effect in effects if isinstance(effect, TurnStarted)]
    assert started == [TurnStarted(2, Situation.OPEN, 20.0, 3.0)]
    assert yellow_times(table) == []


def test_heartbeat_lapse_stops_the_clock() -> None:
    table = Table(playing(OPEN, timing=Timing()))
    table.at(10.0, Heartbeat(0))
    table.at(10.0, Heartbeat(2))
    table.at(10.0, Heartbeat(3))
    # Seat 1 (in turn) sends nothing: at 30 s it is away and the table waits, so no card at 35 s.
    table.at(36.0, Tick())
    assert yellow_times(table) == [20.0, 25.0, 30.0]
    assert Notice(NoticeKind.PLAYER_AWAY, 1, since=30.0) in table.effects(Notice)
    assert table.state.paused


def test_takeover_gives_the_seat_in_turn_fresh_time() -> None:
    table = Table(playing(OPEN))
    table.at(15.0, TakeOver())
    assert table.effects(Notice) == [Notice(NoticeKind.FRESH_TIME, 1)]
    table.at(34.0, Tick())
    assert yellow_times(table) == []
    table.at(35.0, Tick())
    assert yellow_times(table) == [35.0]


@pytest.mark.parametrize("down_until", [21.0, 26.0, 50.0, 400.0])
def test_a_takeover_after_the_clock_ran_out_gives_fresh_time_and_no_card(down_until: float) -> None:
    """Regression: a restart that took longer than the turn's 20 s (a busy machine) gave the
    player in turn a yellow card for the outage, or more, before the fresh time. The time no
    process held the table is nobody's doing: no card, no system play, no seat away."""
    table = Table(playing(OPEN))
    table.at(down_until, TakeOver())
    assert table.effects(CardGiven) == [] and table.effects(SystemPlay) == []
    assert table.effects(Notice) == [Notice(NoticeKind.FRESH_TIME, 1)]
    assert not table.state.paused
    assert next_deadline(table.state) == Deadline(down_until + 20.0, DeadlineKind.CARD, 1)
    table.at(down_until + 20.0, Tick())
    assert yellow_times(table) == [down_until + 20.0]


def test_a_takeover_between_hands_still_deals_when_the_pause_ran_out() -> None:
    """What a take-over forgives is the turn clock and the silences; a deal's pause that ran out
    meanwhile is not a penalty, and the deal is asked for at once."""
    table = Table(playing(OPEN))
    while table.state.phase is Phase.PLAYING:
        hand = table.state.hand
        assert hand is not None
        table.at(table.state.now + 1.0, Move(hand.state.to_move, hand.state.legal_actions()[0]))
    assert table.state.deal_at is not None
    later = table.state.deal_at + 100.0
    table.at(later, TakeOver())
    assert table.effects(DealNeeded) and table.effects(CardGiven) == []


def test_takeover_gives_no_fresh_time_while_the_table_waits_for_an_absent_player() -> None:
    table = Table(playing(OPEN))
    table.at(3.0, Disconnected(2))
    table.at(15.0, TakeOver())
    assert Notice(NoticeKind.FRESH_TIME, 1) not in table.effects(Notice)
    assert table.state.paused and table.state.clock is None


def test_fresh_time_is_for_a_live_hand_that_does_not_wait() -> None:
    """`gets_fresh_time`, the rule the live server's takeover (`TableActor._resume`) asks too."""
    for conduct in (Conduct.AMIGOS, Conduct.TIMED):
        assert gets_fresh_time(conduct, in_hand=True, paused=False)
        assert not gets_fresh_time(conduct, in_hand=True, paused=True)
        assert not gets_fresh_time(conduct, in_hand=False, paused=False)  # between hands, a vote
    assert not gets_fresh_time(Conduct.CORRESPONDENCE, in_hand=True, paused=False)


def test_pass_is_refused_while_a_tile_fits() -> None:
    state = playing(OPEN)
    with pytest.raises(TableError) as caught:
        Table(state).at(1.0, Move(1, Pass()))
    assert caught.value.code == "illegal_play"


# -- the clock as the live server asks it (amigos.table.clock), moved from the actor's tests --------


@pytest.mark.parametrize(
    ("hand", "situation", "budget", "card_at", "system_at"),
    [
        (BLOCKING, Situation.BLOCKING, 60.0, 60.0, None),
        (SINGLE, Situation.SINGLE, 5.0, 5.0, 6.0),
        (OPEN, Situation.OPEN, 20.0, 20.0, None),
    ],
)
def test_an_amigos_turn_gets_the_clock_its_tiles_call_for(
    hand: HandState, situation: Situation, budget: float, card_at: float, system_at: float | None
) -> None:
    clock = turn_clock(hand, Conduct.AMIGOS, Timing(), 0.0, computer=False)
    assert (clock.situation, clock.budget, clock.card_at, clock.system_at) == (
        situation,
        budget,
        card_at,
        system_at,
    )
    assert clock_due(clock) == (card_at, DeadlineKind.CARD)


@pytest.mark.parametrize("hand", [BLOCKING, SINGLE, OPEN])
def test_timed_computer_and_correspondence_turns_never_give_cards(hand: HandState) -> None:
    timed = turn_clock(hand, Conduct.TIMED, Timing(), 0.0, computer=False)
    assert (timed.situation, timed.budget, timed.card_at, timed.system_at) == (Situation.TIMED, 30, None, 30)
    assert clock_due(timed) == (30.0, DeadlineKind.SYSTEM_PLAY)
    computer = turn_clock(hand, Conduct.AMIGOS, Timing(), 0.0, computer=True)
    assert (computer.situation, computer.card_at, computer.system_at) == (Situation.COMPUTER, None, 20.0)
    # At a Cuban or draw table a computer player runs on the table's own 30 s, like everyone.
    timed_computer = turn_clock(hand, Conduct.TIMED, Timing(), 0.0, computer=True)
    assert (timed_computer.situation, timed_computer.budget, timed_computer.card_at) == (
        Situation.TIMED,
        30,
        None,
    )
    assert system_reason(computer.situation) is SystemReason.COMPUTER_LATE
    day = turn_clock(hand, Conduct.CORRESPONDENCE, Timing(), 10.0, computer=False)
    assert (day.situation, day.budget, day.card_at, day.system_at) == (
        Situation.CORRESPONDENCE,
        86_400,
        None,
        None,
    )
    # A day run out ends the match (the live server stores it as "abandon").
    assert clock_due(day) == (86_410.0, DeadlineKind.TURN)


def test_the_cards_of_a_turn_say_why_they_fell_and_when_the_next_does() -> None:
    """The reasons the live table stores and sends (docs/protocol.md, `card`): the first card of a
    turn that ran out, then one every 5 s; a single tile's one card, then the system's move."""
    clock = turn_clock(OPEN, Conduct.AMIGOS, Timing(), 0.0, computer=False)
    reasons, warnings = [], []
    for _ in range(3):
        reasons.append(card_reason(clock))
        warnings.append(warns_no_block(clock))
        clock = after_card(clock, Timing())
    assert reasons == [CardReason.TIMEOUT, CardReason.EVERY_5S, CardReason.EVERY_5S]
    assert warnings == [True, False, False]
    assert clock_due(clock) == (35.0, DeadlineKind.CARD)
    blocking = turn_clock(BLOCKING, Conduct.AMIGOS, Timing(), 0.0, computer=False)
    assert not warns_no_block(blocking)
    single = turn_clock(SINGLE, Conduct.AMIGOS, Timing(), 0.0, computer=False)
    assert card_reason(single) is CardReason.SLOW_SINGLE
    single = after_card(single, Timing())
    assert clock_due(single) == (6.0, DeadlineKind.SYSTEM_PLAY)
    assert system_reason(single.situation) is SystemReason.SINGLE_TILE
    # A clock the server no longer has (a restart) moves by the timed rule.
    assert system_reason(None) is SystemReason.TIMEOUT
