"""Heartbeats, the 5-minute reconnection window, "Abandono", the Cuban grace, suspensions and the
correspondence table (spec §3.2, §3.3.3, cuban-rules "Disconnection Management")."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from amigos.table import (
    BackToLobby,
    Cancellation,
    CardGiven,
    CardReason,
    Colour,
    CommandHeard,
    ComputerTurn,
    Conduct,
    Disconnected,
    Effect,
    Heartbeat,
    Leave,
    MatchEnded,
    Mode,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Reconnected,
    RedCard,
    SeatHeldByComputer,
    SeatReturned,
    Situation,
    Suspend,
    SuspensionEnding,
    SuspensionEnds,
    SystemPlay,
    SystemReason,
    TableCancelled,
    TableError,
    Termination,
    Tick,
    Timing,
    TurnStarted,
    VoteChoice,
    VoteResult,
    open_table,
    play_refusal,
    suspension_ending,
    waits_for_absent,
)
from amigos.table.flow import Resume, resumption
from amigos.table.presence import (
    Heard,
    Lapse,
    Return,
    Sign,
    comeback,
    command_heard,
    heard_from,
    window,
    window_lapse,
)
from tests.engine.helpers import position, two_ended

from .helpers import HUMANS, OPEN, PATIENT, Table, config, playing


def live() -> Table:
    """An Amigos table whose heartbeats lapse after 30 s (the real timing)."""
    return Table(playing(OPEN, config("amigos-100", HUMANS)))


def beat(table: Table, now: float, seats: tuple[int, ...] = (0, 1, 2, 3)) -> None:
    for seat in seats:
        table.at(now, Heartbeat(seat))


def blues(table: Table) -> list[CardGiven]:
    return [
        card
        for card in table.effects(CardGiven)
        if isinstance(card, CardGiven) and card.colour is Colour.BLUE
    ]


def test_missing_heartbeat_tells_the_table_and_pauses_the_clock() -> None:
    table = live()
    beat(table, 10.0, (0, 1, 2))
    effects = table.at(30.0, Tick())
    assert Notice(NoticeKind.PLAYER_AWAY, 3, since=30.0) in effects
    assert table.state.paused and table.state.clock is None
    # While the table waits, nobody moves and no card falls.
    with pytest.raises(TableError) as caught:
        table.at(31.0, Move(1, OPEN.legal_actions()[0]))
    assert caught.value.code == "table_paused"


def test_back_within_5_minutes_resumes_with_fresh_time_for_the_seat_in_turn() -> None:
    table = live()
    table.at(5.0, Disconnected(1))
    beat(table, 20.0, (0, 2, 3))
    beat(table, 40.0, (0, 2, 3))
    effects = table.at(45.0, Reconnected(1))
    assert Notice(NoticeKind.PLAYER_BACK, 1) in effects
    assert TurnStarted(1, Situation.OPEN, 20.0, 45.0) in effects
    assert not table.state.paused
    assert blues(table) == []


def test_not_back_within_5_minutes_blue_card_and_the_match_ends_unfinished() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(5.0, Disconnected(2))
    assert table.at(304.9, Tick()) == []
    effects = table.at(305.0, Tick())
    assert effects[:3] == [
        CardGiven(2, Colour.BLUE, CardReason.NO_RETURN, 305.0),
        MatchEnded(Termination.ABANDONMENT, None, 2, (0, 0)),
        BackToLobby((0, 1, 3)),
    ]
    assert table.state.phase is Phase.CLOSED
    assert table.state.termination is Termination.ABANDONMENT and table.state.offender == 2


def test_a_waiting_player_who_leaves_is_marked_abandon_and_has_their_own_5_minutes() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(5.0, Disconnected(2))
    effects = table.at(100.0, Leave(0))
    assert Notice(NoticeKind.ABANDON, 0, since=100.0) in effects
    assert table.state.seats[0].abandon
    # Seat 2 comes back; the table still waits for seat 0.
    table.at(200.0, Reconnected(2))
    assert table.state.paused
    effects = table.at(400.0, Tick())
    assert CardGiven(0, Colour.BLUE, CardReason.NO_RETURN, 400.0) in effects
    assert MatchEnded(Termination.ABANDONMENT, None, 0, (0, 0)) in effects


def test_a_player_who_leaves_while_nobody_waits_is_said_to_have_left() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    assert Notice(NoticeKind.PLAYER_LEFT, 3, since=5.0) in table.at(5.0, Leave(3))
    assert table.state.paused


CUBAN = position(
    "cuban-2v2",
    ["9-9 8-8", "9-8 9-7 1-0", "9-6 9-5", "9-4 9-3"],
    two_ended("9-9"),
    to_move=1,
)


def test_cuban_turn_runs_30_seconds_then_the_system_plays_without_a_card() -> None:
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    assert table.state.clock is not None and table.state.clock.situation is Situation.TIMED
    table.at(29.9, Tick())
    assert table.effects(SystemPlay) == []
    table.at(30.0, Tick())
    (play, *_) = table.effects(SystemPlay)
    assert isinstance(play, SystemPlay)
    assert (play.seat, play.reason, play.action) == (1, SystemReason.TIMEOUT, CUBAN.default_action())
    assert table.effects(CardGiven) == []


def test_cuban_absence_pauses_2_minutes_then_a_computer_holds_the_seat_until_the_player_returns() -> None:
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(10.0, Disconnected(1))
    assert table.state.paused
    assert table.at(129.9, Tick()) == []
    effects = table.at(130.0, Tick())
    assert effects[:2] == [SeatHeldByComputer(1), TurnStarted(1, Situation.TIMED, 30.0, 130.0)]
    assert ComputerTurn(1) in effects
    assert not table.state.paused
    # The player comes back during the computer's turn and takes it over with fresh time.
    effects = table.at(135.0, Reconnected(1))
    assert SeatReturned(1) in effects
    assert TurnStarted(1, Situation.TIMED, 30.0, 135.0) in effects
    assert not table.state.seats[1].held_by_computer
    assert blues(table) == []


def test_the_last_person_whose_grace_runs_out_ends_the_match_by_abandonment() -> None:
    """Computer players do not play a table out for nobody: once every other person's seat is
    held, the last window to run out ends the match (no card, no winner)."""
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    for seat in (0, 2, 3):
        table.at(10.0, Disconnected(seat))
    table.at(130.0, Tick())
    assert [info.held_by_computer for info in table.state.seats] == [True, False, True, True]
    table.at(131.0, Disconnected(1))
    effects = table.at(251.0, Tick())
    assert effects[:2] == [MatchEnded(Termination.ABANDONMENT, None, 1, (0, 0)), BackToLobby((0, 2, 3))]
    assert table.state.phase is Phase.CLOSED and blues(table) == []


def test_a_player_alone_against_computers_who_does_not_come_back_abandons() -> None:
    cfg = config("cuban-2v2", ("ana", None, None, None))
    table = Table(playing(CUBAN, cfg, timing=Timing(heartbeat_timeout=1e9)))
    table.at(10.0, Disconnected(0))
    effects = table.at(130.0, Tick())
    assert MatchEnded(Termination.ABANDONMENT, None, 0, (0, 0)) in effects
    assert SeatHeldByComputer(0) not in effects


def test_window_lapse_is_the_rule_the_live_server_asks() -> None:
    assert window(Conduct.AMIGOS, Timing()) == 300.0 and window(Conduct.TIMED, Timing()) == 120.0
    assert window_lapse(Conduct.AMIGOS, [False]) is Lapse.BLUE_CARD
    assert window_lapse(Conduct.AMIGOS, [True, True]) is Lapse.BLUE_CARD
    assert window_lapse(Conduct.TIMED, [True, False]) is Lapse.HELD
    assert window_lapse(Conduct.TIMED, [True, True]) is Lapse.ABANDONED
    assert window_lapse(Conduct.TIMED, []) is Lapse.ABANDONED


def test_a_computer_holding_a_seat_moves_for_it() -> None:
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(10.0, Disconnected(1))
    table.at(130.0, Tick())
    with pytest.raises(TableError) as caught:
        table.at(131.0, Move(1, CUBAN.legal_actions()[0]))
    assert caught.value.code == "held_by_computer"
    table.at(131.0, Move(1, CUBAN.legal_actions()[0], by_computer=True))
    hand = table.state.hand
    assert hand is not None and hand.state.to_move == 2


def test_a_suspension_during_the_match_ends_it_and_sends_the_others_back() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    effects = table.at(3.0, Suspend(1))
    assert effects[:2] == [MatchEnded(Termination.SUSPENSION, None, 1, (0, 0)), BackToLobby((0, 2, 3))]


def test_a_red_card_from_an_administrator_suspends_at_once() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    effects = table.at(3.0, RedCard(2))
    assert effects[:2] == [
        CardGiven(2, Colour.RED, CardReason.ADMINISTRATOR, 3.0),
        MatchEnded(Termination.SUSPENSION, None, 2, (0, 0)),
    ]
    assert table.state.seats[2].red == 1


def correspondence() -> Table:
    cfg = config(mode=Mode.CORRESPONDENCE)
    return Table(playing(OPEN, cfg))


def test_a_suspension_ends_a_correspondence_match_too() -> None:
    """A correspondence table has no presence, so a suspension imposed away from it reaches it as
    news (`Suspend`, what the server's moderation now tells its tables), hours into a turn: the
    match ends at once, by suspension, that seat its offender."""
    table = correspondence()
    table.at(3_600.0, Tick())
    effects = table.at(7_200.0, Suspend(3))
    assert effects[0] == MatchEnded(Termination.SUSPENSION, None, 3, (0, 0))
    assert table.state.phase is Phase.CLOSED and table.state.offender == 3


def test_correspondence_turn_lasts_a_day_with_no_cards_and_no_heartbeat() -> None:
    table = correspondence()
    assert table.state.clock is not None
    assert table.state.clock.situation is Situation.CORRESPONDENCE
    assert table.at(86_399.0, Tick()) == []
    assert table.at(86_399.0, Disconnected(1)) == []
    assert table.effects(CardGiven) == []


def test_correspondence_a_day_without_moving_ends_the_match_by_abandonment() -> None:
    table = correspondence()
    effects = table.at(86_400.0, Tick())
    assert MatchEnded(Termination.ABANDONMENT, None, 1, (0, 0)) in effects
    assert table.effects(CardGiven) == []


def test_correspondence_single_tile_is_not_laid_by_the_system() -> None:
    from .helpers import SINGLE

    table = Table(playing(SINGLE, config(mode=Mode.CORRESPONDENCE)))
    table.at(3_600.0, Tick())
    assert table.effects(SystemPlay) == []


def test_heartbeats_are_not_asked_of_computer_seats() -> None:
    cfg = config(players=("ana", None, None, None), timing=Timing())
    state = playing(OPEN, cfg)
    table = Table(replace(state))
    table.at(29.0, Heartbeat(0))
    table.at(50.0, Tick())
    assert not any(info.is_away for info in table.state.seats)
    table.at(59.0, Tick())
    assert table.state.seats[0].is_away


def test_only_a_live_match_waits_and_only_for_an_absent_seat_nobody_holds() -> None:
    """`waits_for_absent`, the rule the live server's `paused` asks too."""
    for conduct in (Conduct.AMIGOS, Conduct.TIMED):
        assert waits_for_absent(True, conduct, [True])
        assert waits_for_absent(True, conduct, [False, True])
        assert not waits_for_absent(True, conduct, [])  # nobody away
        assert not waits_for_absent(True, conduct, [False, False])  # away, but played for
        assert not waits_for_absent(False, conduct, [True])  # before or after the match
    assert not waits_for_absent(True, Conduct.CORRESPONDENCE, [True])


def test_the_table_waits_between_two_hands_too() -> None:
    table = Table(playing(OPEN))
    table.at(1.0, Disconnected(2))
    waiting = replace(table.state, phase=Phase.DEALING, hand=None, clock=None)
    assert waiting.paused
    assert not replace(waiting, phase=Phase.VOTING).paused


def test_what_a_return_does_is_one_rule() -> None:
    """`comeback`, the rule the live server's `_present` asks too."""
    for held, in_turn, paused in itertools.product((False, True), repeat=3):
        assert comeback(False, held, in_turn, paused) is Return.BACK  # no match: simply back
        if not held:
            assert comeback(True, held, in_turn, paused) is Return.RESUME
    assert comeback(True, True, True, False) is Return.MOVE
    assert comeback(True, True, True, True) is Return.SEAT  # the table waits for someone else
    assert comeback(True, True, False, False) is Return.SEAT


def test_a_held_seat_given_back_out_of_turn_keeps_the_others_clock() -> None:
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    mover = table.state.clock
    assert mover is not None
    away = (mover.seat + 1) % 4
    table.at(1.0, Disconnected(away))
    table.at(121.0, Tick())
    assert table.state.seats[away].held_by_computer
    clock = table.state.clock
    effects = table.at(122.0, Reconnected(away))
    assert SeatReturned(away) in effects
    assert not any(isinstance(effect, TurnStarted) for effect in effects)
    assert table.state.clock == clock


def test_a_held_player_back_during_the_vote_is_simply_back() -> None:
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(1.0, Disconnected(2))
    table.at(121.0, Tick())
    voting = replace(table.state, phase=Phase.VOTING, hand=None, clock=None, vote_until=1e9)
    table = Table(voting)
    effects = table.at(122.0, Reconnected(2))
    assert effects == [Notice(NoticeKind.PLAYER_BACK, 2)]
    assert not table.state.seats[2].held_by_computer


def test_what_a_suspension_ends_is_one_rule_by_phase() -> None:
    """`suspension_ending`, asked by the pure table on `Suspend` and by the server's actor: the
    match (dealing or playing), the table still inviting, or the vote; nothing once closed."""
    accounts = (7, None, 9, 11)
    assert suspension_ending(Phase.PLAYING, accounts, [9]) == SuspensionEnding(2, SuspensionEnds.MATCH)
    assert suspension_ending(Phase.DEALING, accounts, [11]) == SuspensionEnding(3, SuspensionEnds.MATCH)
    assert suspension_ending(Phase.INVITING, accounts, [7]) == SuspensionEnding(0, SuspensionEnds.TABLE)
    assert suspension_ending(Phase.VOTING, accounts, [9]) == SuspensionEnding(2, SuspensionEnds.VOTE)
    assert suspension_ending(Phase.CLOSED, accounts, [9]) is None
    assert suspension_ending(Phase.VOTING, accounts, [5]) is None
    # The first seat whose account was suspended, if several; nobody suspended: nothing ends.
    assert suspension_ending(Phase.PLAYING, accounts, {11, 9}) == SuspensionEnding(2, SuspensionEnds.MATCH)
    assert suspension_ending(Phase.PLAYING, accounts, []) is None


def test_a_suspension_at_an_inviting_table_cancels_it() -> None:
    table = Table(open_table(config(), 0.0)[0])
    effects = table.at(2.0, Suspend(2))
    assert effects[:2] == [TableCancelled(Cancellation.SUSPENSION), BackToLobby((0, 1, 3))]
    assert table.state.phase is Phase.CLOSED


def test_a_suspension_during_the_vote_closes_it_for_the_meeting_room() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    table = Table(replace(table.state, phase=Phase.VOTING, hand=None, clock=None, vote_until=1e9))
    effects = table.at(3.0, Suspend(1))
    state = table.state
    assert effects[:2] == [
        VoteResult(VoteChoice.LOBBY, state.config.players, state.config.organizer),
        BackToLobby((0, 2, 3)),
    ]
    assert state.phase is Phase.CLOSED


def test_a_suspension_between_two_hands_ends_the_match_too() -> None:
    table = Table(playing(OPEN, timing=Timing(heartbeat_timeout=1e9)))
    table = Table(replace(table.state, phase=Phase.DEALING, hand=None, clock=None))
    effects = table.at(3.0, Suspend(3))
    assert effects[0] == MatchEnded(Termination.SUSPENSION, None, 3, (0, 0))


def test_why_a_play_is_refused_is_one_rule_in_one_order() -> None:
    """`play_refusal`, the rule the live server's `table.play` and `table.reshuffle` ask: no match
    under way, then a computer player holding the seat, then the table waiting for someone."""
    for in_match, held, paused in itertools.product((False, True), repeat=3):
        refusal = play_refusal(playing=in_match, held_by_computer=held, paused=paused)
        if not in_match:
            assert refusal == "not_playing"
        elif held:
            assert refusal == "held_by_computer"
        else:
            assert refusal == ("table_paused" if paused else None)


def test_a_held_seat_is_refused_before_the_wait_and_the_wait_before_the_hand() -> None:
    """At a timed table: seat 1 held by a computer player, then seat 2 away (the table waits). Seat
    1's player is told of the computer player, not of the wait; seat 3's of the wait, not of the
    turn; and between two hands nobody plays."""
    table = Table(playing(CUBAN, timing=Timing(heartbeat_timeout=1e9)))
    table.at(1.0, Disconnected(1))
    table.at(121.0, Tick())
    assert table.state.seats[1].held_by_computer
    table.at(122.0, Disconnected(2))
    assert table.state.paused
    action = CUBAN.legal_actions()[0]
    for seat, code in ((1, "held_by_computer"), (3, "table_paused")):
        with pytest.raises(TableError) as caught:
            table.at(123.0, Move(seat, action))
        assert caught.value.code == code
    between = Table(replace(playing(CUBAN, timing=PATIENT), phase=Phase.DEALING, hand=None, clock=None))
    with pytest.raises(TableError) as caught:
        between.at(124.0, Move(0, action))
    assert caught.value.code == "not_playing"  # as the live table's hand says between two hands


def test_a_play_from_a_seat_judged_away_for_silence_brings_it_back_and_stands() -> None:
    """Regression: a seat judged away for a silence (late heartbeats) while its page is still
    joined, whose play then arrived, was refused ``table_paused`` by the pure table while the
    server takes the play as the player's return (`heard_from`)."""
    table = live()
    beat(table, 10.0, (0, 2, 3))
    assert Notice(NoticeKind.PLAYER_AWAY, 1, since=30.0) in table.at(30.0, Tick())
    assert table.state.paused and table.state.seats[1].page_open
    effects = table.at(31.0, Move(1, OPEN.legal_actions()[0]))
    assert Notice(NoticeKind.PLAYER_BACK, 1) in effects
    hand = table.state.hand
    assert hand is not None and len(hand.moves) == 1 and hand.moves[0].seat == 1
    assert not table.state.paused and table.state.seats[1].last_seen == 31.0


def test_a_play_from_a_seat_whose_pages_all_closed_is_refused_and_it_stays_away() -> None:
    table = live()
    table.at(5.0, Disconnected(1))
    assert not table.state.seats[1].page_open
    before = table.state
    with pytest.raises(TableError) as caught:
        table.at(6.0, Move(1, OPEN.legal_actions()[0]))
    assert caught.value.code == "table_paused" and table.state is before
    # A page joining brings the player back, and the play then stands.
    table.at(7.0, Reconnected(1))
    assert table.state.seats[1].page_open and not table.state.paused
    table.at(8.0, Move(1, OPEN.legal_actions()[0]))


def test_a_play_counts_as_being_heard_from() -> None:
    """A person's move moves their silence on as a heartbeat would (the server's rule too)."""
    table = live()
    beat(table, 25.0, (0, 2, 3))
    table.at(25.0, Move(1, OPEN.legal_actions()[0]))
    assert table.state.seats[1].last_seen == 25.0
    table.at(54.9, Tick())  # without the play, its silence would have lapsed at 30 s
    assert not table.state.seats[1].is_away
    table.at(55.0, Tick())
    assert table.state.seats[1].away_since == 55.0


def test_what_hearing_from_a_seat_does_is_one_rule() -> None:
    def heard(sign: Sign, away: bool = False, held: bool = False, page: bool = True) -> Heard:
        return heard_from(sign, computer=False, away=away, held=held, page_open=page)

    for sign in Sign:
        assert heard_from(sign, computer=True, away=False, held=False, page_open=True) is Heard.NOBODY
        assert heard(sign) is Heard.PRESENT  # a present seat's silence counts from now
    assert heard(Sign.HEARTBEAT, away=True, page=False) is Heard.BACK
    assert heard(Sign.JOINED, away=True, held=True, page=False) is Heard.BACK
    assert heard(Sign.PLAY, away=True) is Heard.BACK  # judged away, its page still joined
    assert heard(Sign.PLAY, away=True, page=False) is Heard.PRESENT  # its pages all closed
    assert heard(Sign.PLAY, away=True, held=True) is Heard.PRESENT  # a computer holds the seat


def refused_but_heard(table: Table, now: float, given: Move) -> tuple[str, list[Effect]]:
    """``given`` is refused, and heard all the same: the table keeps what the sign of life did (as
    a caller of `advance` does), and the refusal's code and those effects are returned."""
    with pytest.raises(TableError) as caught:
        table.at(now, given)
    heard = caught.value.heard
    assert heard is not None
    table.state, effects = heard
    return caught.value.code, effects


def test_a_refused_play_is_a_sign_of_life_all_the_same() -> None:
    """Regression: the server counts a play before judging it and keeps it when the play is
    refused (a tile out of turn comes from a page that is there); the pure table dropped it with
    the refused input, and judged the player silent 30 s after their last heartbeat instead."""
    table = live()
    beat(table, 25.0, (0, 1, 3))
    code, _ = refused_but_heard(table, 25.0, Move(2, OPEN.legal_actions()[0]))  # seat 1 is to move
    assert code == "not_your_turn" and table.state.seats[2].last_seen == 25.0
    table.at(54.9, Tick())  # without the refused play, its silence would have lapsed at 30 s
    assert not table.state.seats[2].is_away


def test_a_refused_play_brings_back_a_seat_judged_away_whose_page_is_joined() -> None:
    """A seat judged away for a silence (its page still joined) plays out of turn: refused, and
    back all the same, the table no longer waiting and the seat in turn given a fresh clock."""
    table = live()
    beat(table, 10.0, (0, 1, 3))
    assert Notice(NoticeKind.PLAYER_AWAY, 2, since=30.0) in table.at(30.0, Tick())
    assert table.state.paused and table.state.clock is None
    code, effects = refused_but_heard(table, 31.0, Move(2, OPEN.legal_actions()[0]))
    assert code == "not_your_turn" and Notice(NoticeKind.PLAYER_BACK, 2) in effects
    assert not table.state.seats[2].is_away and not table.state.paused
    clock = table.state.clock
    assert clock is not None and clock.seat == 1 and clock.started == 31.0
    assert any(isinstance(effect, TurnStarted) and effect.seat == 1 for effect in effects)
    hand = table.state.hand
    assert hand is not None and hand.moves == ()  # the refused play itself did nothing


def test_a_command_refused_before_the_table_judged_it_is_heard_as_a_play() -> None:
    """`CommandHeard` (a move the server refused for the version its page had seen): a seat
    judged away for a silence whose page is joined is back, the table no longer waiting; a seat
    whose pages all closed stays away; nothing is played either way."""
    table = live()
    beat(table, 10.0, (0, 1, 3))
    assert Notice(NoticeKind.PLAYER_AWAY, 2, since=30.0) in table.at(30.0, Tick())
    effects = table.at(31.0, CommandHeard(2))
    assert Notice(NoticeKind.PLAYER_BACK, 2) in effects and not table.state.paused
    assert table.state.seats[2].last_seen == 31.0
    hand = table.state.hand
    assert hand is not None and hand.moves == ()
    table.at(32.0, Disconnected(2))
    assert table.state.seats[2].is_away
    assert not any(isinstance(effect, Notice) for effect in table.at(33.0, CommandHeard(2)))
    assert table.state.seats[2].is_away and table.state.seats[2].last_seen == 33.0


def test_a_command_from_no_seat_or_a_malformed_one_is_heard_from_by_nobody() -> None:
    """`command_heard`: every refusal of a seated person's command hears them (the rules', the
    table's version), but a sender with no seat here, or a command no page sends, does not."""
    for code in ("not_your_turn", "illegal_play", "table_paused", "held_by_computer", "no_reshuffle"):
        assert command_heard(code)
    assert command_heard("stale_version") and command_heard(None)
    for code in ("not_seated", "bad_payload", "bad_input"):
        assert not command_heard(code)
    table = live()
    with pytest.raises(TableError) as caught:
        table.at(1.0, Move(7, OPEN.legal_actions()[0]))
    assert caught.value.code == "not_seated" and caught.value.heard is None


@pytest.mark.parametrize(
    ("in_match", "paused", "in_hand", "clock_running", "deal_due", "expected"),
    [
        (False, False, False, False, True, Resume.NOTHING),  # no match: nothing to go on with
        (True, True, True, False, True, Resume.NOTHING),  # still waiting for someone
        (True, False, True, False, False, Resume.CLOCK),  # in a hand: a fresh clock
        (True, False, True, True, False, Resume.NOTHING),  # ... unless one runs already
        (True, False, False, False, True, Resume.DEAL),  # between hands, the pause ran out
        (True, False, False, False, False, Resume.NOTHING),  # ... or its own deadline deals
    ],
)
def test_going_on_after_a_wait_is_one_rule(
    in_match: bool, paused: bool, in_hand: bool, clock_running: bool, deal_due: bool, expected: Resume
) -> None:
    """`resumption`, asked by the pure table's `resume_if_ready` and by the server's actor."""
    given = {"paused": paused, "in_hand": in_hand, "clock_running": clock_running, "deal_due": deal_due}
    assert resumption(in_match=in_match, **given) is expected
