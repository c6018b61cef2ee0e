"""Invitations, starting, dealing, hands and the end of a match by its target."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from amigos.engine import Pass, commitment, deal_from_key, find_variant, verify_commitment
from amigos.table import (
    Accept,
    AskReshuffle,
    BackToLobby,
    Cancellation,
    ComputerTurn,
    Deadline,
    DeadlineKind,
    Deal,
    DealNeeded,
    HandEnded,
    HandStarted,
    Invitation,
    InvitationAccepted,
    InvitationSent,
    Leave,
    MatchEnded,
    Mode,
    Move,
    Notice,
    NoticeKind,
    Phase,
    Refuse,
    Start,
    StartAwaited,
    TableCancelled,
    TableError,
    TableReady,
    TakeOver,
    Termination,
    Tick,
    TurnStarted,
    hand_id,
    lapsed_invitations,
    next_deadline,
    next_lapse,
    open_table,
)
from amigos.table.gathering import answer_refusal
from amigos.table.senders import sender_refusal

from .helpers import HUMANS, KEY, PATIENT, Table, config

KEYS = [f"{index:08x}-0000-4000-8000-000000000000" for index in range(1, 400)]


def invited() -> Table:
    state, effects = open_table(config(), 100.0)
    assert effects[:3] == [InvitationSent(1, 130.0), InvitationSent(2, 130.0), InvitationSent(3, 130.0)]
    return Table(state)


def test_the_organizer_and_computer_seats_need_no_invitation() -> None:
    state, effects = open_table(config(players=("ana", None, "caro", None)), 0.0)
    assert [effect for effect in effects if isinstance(effect, InvitationSent)] == [InvitationSent(2, 30.0)]
    assert state.phase is Phase.INVITING


def test_a_player_alone_against_computers_starts_at_once() -> None:
    state, effects = open_table(config(players=("ana", None, None, None)), 0.0)
    assert state.phase is Phase.DEALING
    assert effects[:2] == [TableReady(), DealNeeded(1)]


def test_the_last_acceptance_seats_everyone_and_the_organizer_starts_the_match() -> None:
    """Spec §2: once every seat has accepted, the match waits for the organizer's button, for as
    long as an invitation (`start_window`); the press starts it, and heartbeats count from then."""
    table = invited()
    for seat in (1, 2):
        assert table.at(101.0, Accept(seat)) == [InvitationAccepted(seat)]
    assert table.state.phase is Phase.INVITING and not table.state.awaits_start
    effects = table.at(129.0, Accept(3))
    assert effects == [InvitationAccepted(3), StartAwaited(0, 159.0), Deadline(159.0, DeadlineKind.START)]
    assert table.state.awaits_start and table.state.invite_until is None
    assert table.at(150.0, Tick()) == []
    effects = table.at(158.0, Start(0))
    assert effects[:2] == [TableReady(), DealNeeded(1)]
    assert table.state.phase is Phase.DEALING and table.state.start_until is None
    # Heartbeats count from the start: the first lapse is 30 s after it.
    deadline = next_deadline(table.state)
    assert deadline is not None and deadline.at == 188.0


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_only_the_organizer_starts_the_match(seat: int) -> None:
    table = invited()
    for accepting in (1, 2, 3):
        table.at(101.0, Accept(accepting))
    before = table.state
    with pytest.raises(TableError) as caught:
        table.at(102.0, Start(seat))
    assert caught.value.code == "not_organizer"
    assert table.state is before


def test_the_organizer_cannot_start_before_everyone_accepted_nor_twice() -> None:
    table = invited()
    table.at(101.0, Accept(1))
    with pytest.raises(TableError) as caught:
        table.at(102.0, Start(0))
    assert caught.value.code == "not_all_accepted"
    table.at(103.0, Accept(2))
    table.at(103.0, Accept(3))
    table.at(104.0, Start(0))
    for later in (105.0, 500.0):
        with pytest.raises(TableError) as caught:
            table.at(later, Start(0))
        assert caught.value.code == "already_started"


def test_a_match_nobody_starts_in_time_is_cancelled_and_everyone_goes_back() -> None:
    table = invited()
    for seat in (1, 2, 3):
        table.at(110.0, Accept(seat))
    effects = table.at(140.0, Tick())
    assert effects == [
        TableCancelled(Cancellation.NOT_STARTED),
        BackToLobby((0, 1, 2, 3)),
        Deadline(None),
    ]
    assert table.state.phase is Phase.CLOSED and next_deadline(table.state) is None
    with pytest.raises(TableError) as caught:
        table.at(141.0, Start(0))
    assert caught.value.code == "already_started"


def test_alone_against_computers_or_by_correspondence_the_last_acceptance_starts_it() -> None:
    state, effects = open_table(config(players=("ana", None, "caro", None), mode=Mode.CORRESPONDENCE), 0.0)
    table = Table(state)
    effects = table.at(5.0, Accept(2))
    assert effects[:3] == [InvitationAccepted(2), TableReady(), DealNeeded(1)]
    assert table.state.phase is Phase.DEALING


def test_a_refusal_tells_the_organizer_and_sends_those_at_the_table_back_to_the_lobby() -> None:
    table = invited()
    table.at(101.0, Accept(1))
    effects = table.at(102.0, Refuse(2))
    assert effects[:3] == [
        Notice(NoticeKind.INVITATION_REFUSED, 2),
        TableCancelled(Cancellation.INVITATIONS),
        BackToLobby((0, 1, 3)),
    ]
    assert table.state.phase is Phase.CLOSED


def test_a_move_or_a_new_deal_asked_at_a_closed_table_is_not_playing() -> None:
    """Regression: the pure table answered a person's move at a closed table ``wrong_phase``;
    the protocol (and the server before the model decided moves) says ``not_playing``."""
    table = invited()
    table.at(102.0, Refuse(2))
    assert table.state.phase is Phase.CLOSED
    before = table.state
    for sent in (Move(1, Pass()), AskReshuffle(1)):
        with pytest.raises(TableError) as caught:
            table.at(103.0, sent)
        assert caught.value.code == "not_playing"
        assert table.state is before


def test_a_closed_table_taken_over_stays_as_it_is() -> None:
    """The server rebuilds a closed table to show it and hands it `TakeOver` as every rebuilt
    table: nothing happens, and nothing is refused."""
    table = invited()
    table.at(102.0, Refuse(2))
    before = table.state
    assert table.at(200.0, TakeOver()) == []
    assert table.state.phase is Phase.CLOSED and table.state.seats == before.seats


def test_an_unanswered_invitation_expires_after_30_seconds() -> None:
    table = invited()
    table.at(101.0, Accept(1))
    table.at(101.0, Accept(2))
    assert table.at(129.999, Tick()) == []
    effects = table.at(130.0, Tick())
    assert effects[:3] == [
        Notice(NoticeKind.INVITATION_EXPIRED, 3),
        TableCancelled(Cancellation.INVITATIONS),
        BackToLobby((0, 1, 2, 3)),
    ]
    # After the lapse the table is closed: no invitation is open any more (as the server says).
    with pytest.raises(TableError) as caught:
        table.at(131.0, Accept(3))
    assert caught.value.code == "not_invited"


@pytest.mark.parametrize("answer", [Accept, Refuse])
def test_an_answer_at_its_invitations_moment_is_late_before_the_lapse_is_run(answer: type) -> None:
    """Regression: a late acceptance was refused by the pure table as ``wrong_phase`` (the lapse it
    runs first had closed the table) while the server said ``invitation_expired``; both now ask
    `answer_refusal`, before the deadlines that fell due run, and nothing changes."""
    table = invited()
    table.at(101.0, Accept(1))
    before = table.state
    with pytest.raises(TableError) as caught:
        table.at(130.0, answer(2))
    assert caught.value.code == "invitation_expired"
    assert table.state is before
    # Just before its moment the answer counts.
    table.at(129.999, answer(2))
    answered = Invitation.ACCEPTED if answer is Accept else Invitation.REFUSED
    assert table.state.seats[2].invitation is answered


def test_the_answer_refusal_the_live_server_asks() -> None:
    """`answer_refusal`: no open invitation first, then its moment, at the moment itself too."""
    assert answer_refusal(invited=False, until=10.0, now=20.0) == "not_invited"
    assert answer_refusal(invited=True, until=10.0, now=10.0) == "invitation_expired"
    assert answer_refusal(invited=True, until=10.0, now=9.999) is None
    assert answer_refusal(invited=True, until=None, now=1e9) is None  # no end (correspondence)


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (Accept(0), "not_invited"),
        (Accept(7), "not_seated"),
        (Deal(KEY, 0), "wrong_phase"),
        (Move(1, None), "not_playing"),  # type: ignore[arg-type]
    ],
)
def test_bad_inputs_while_inviting_are_refused_with_a_code_and_change_nothing(
    sent: object, code: str
) -> None:
    table = invited()
    before = table.state
    with pytest.raises(TableError) as caught:
        table.at(101.0, sent)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert table.state is before


def ready(players: tuple[str | None, ...] = HUMANS, variant: str = "amigos-100") -> Table:
    state, _ = open_table(config(variant, players, timing=PATIENT), 0.0)
    table = Table(state)
    for seat, player in enumerate(players):
        if seat and player is not None:
            table.at(0.0, Accept(seat))
    if table.state.awaits_start:
        table.at(0.0, Start(0))
    return table


def test_the_first_deal_needs_a_leader() -> None:
    table = ready()
    assert table.state.phase is Phase.DEALING
    for bad, code in (
        (Deal("not-a-key", 0), "bad_key"),
        (Deal(KEY), "leader_required"),
        (Deal(KEY, 4), "bad_leader"),
    ):
        with pytest.raises(TableError) as caught:
            table.at(1.0, bad)
        assert caught.value.code == code
    effects = table.at(2.0, Deal(KEY, 3))
    proof = commitment(KEY, hand_id(table.state.config.table_id, 1))
    assert effects[0] == HandStarted(1, 3, proof)
    assert any(isinstance(effect, TurnStarted) and effect.seat == 3 for effect in effects)
    hand = table.state.hand
    assert hand is not None
    assert hand.state.dealt == tuple(
        frozenset(tiles) for tiles in deal_from_key(KEY, find_variant("amigos-100", 4)).hands
    )


def play_out(table: Table, keys: list[str], now: float = 10.0, leader: int = 0) -> float:
    """Play the match to its end: every seat lays the engine's first legal move one second apart."""
    keys = list(keys)
    while table.state.phase in (Phase.DEALING, Phase.PLAYING):
        if table.state.phase is Phase.DEALING:
            # After a hand, the next is dealt once the pause between hands is over.
            now = max(now, table.state.deal_at or now)
            table.at(now, Deal(keys.pop(0), leader))
            continue
        hand = table.state.hand
        assert hand is not None
        seat = hand.state.to_move
        now += 1.0
        computer = table.state.seats[seat].plays_itself
        table.at(now, Move(seat, hand.state.legal_actions()[0], by_computer=computer))
    return now


def test_a_whole_match_to_its_target_publishes_each_commitment_then_each_key() -> None:
    table = ready()
    play_out(table, KEYS)
    started = [effect for effect in table.effects(HandStarted) if isinstance(effect, HandStarted)]
    ended = [effect for effect in table.effects(HandEnded) if isinstance(effect, HandEnded)]
    assert len(started) == len(ended) >= 1
    for start, end in zip(started, ended, strict=True):
        assert verify_commitment(end.key, hand_id(table.state.config.table_id, end.number), start.commitment)
    # The lead passes to the next seat every hand.
    assert [start.leader for start in started] == [number % 4 for number in range(len(started))]
    (result,) = table.effects(MatchEnded)
    assert isinstance(result, MatchEnded)
    assert result.termination is Termination.TARGET and result.winner in (0, 1)
    assert max(result.score) == 100
    assert table.state.phase is Phase.VOTING
    assert [need.number for need in table.effects(DealNeeded) if isinstance(need, DealNeeded)] == list(
        range(1, len(started) + 1)
    )


def test_computer_seats_are_asked_to_move_and_a_human_cannot_move_for_them() -> None:
    table = ready(("ana", None, None, None))
    effects = table.at(2.0, Deal(KEY, 1))
    assert ComputerTurn(1) in effects
    hand = table.state.hand
    assert hand is not None
    with pytest.raises(TableError) as caught:
        table.at(3.0, Move(1, hand.state.legal_actions()[0]))
    assert caught.value.code == "computer_seat"
    table.at(3.0, Move(1, hand.state.legal_actions()[0], by_computer=True))
    hand = table.state.hand
    assert hand is not None and hand.state.to_move == 2


def test_a_computer_that_does_not_answer_is_played_for() -> None:
    from amigos.table import SystemPlay, SystemReason

    table = ready(("ana", None, None, None))
    table.at(2.0, Deal(KEY, 1))
    table.at(22.0, Tick())
    plays = [play for play in table.effects(SystemPlay) if isinstance(play, SystemPlay)]
    assert plays and plays[0].reason is SystemReason.COMPUTER_LATE and plays[0].seat == 1


@pytest.mark.parametrize(
    ("variant", "players"), [("draw-100", 2), ("all-fives-100", 3), ("fives-and-threes-100", 4)]
)
def test_draw_and_fives_games_need_no_leader_and_draw_automatically(variant: str, players: int) -> None:
    names = HUMANS[:players]
    table = ready(names, variant)
    play_out(table, KEYS, leader=None)  # type: ignore[arg-type]
    (result,) = table.effects(MatchEnded)
    assert isinstance(result, MatchEnded) and result.termination is Termination.TARGET
    assert max(result.score) >= 100


def test_cuban_match_runs_to_150() -> None:
    table = ready(variant="cuban-2v2")
    play_out(table, KEYS)
    (result,) = table.effects(MatchEnded)
    assert isinstance(result, MatchEnded) and max(result.score) >= 150


def test_leaving_before_the_match_starts_sends_the_others_to_the_lobby() -> None:
    table = invited()
    table.at(101.0, Accept(2))
    effects = table.at(102.0, Leave(2))
    assert BackToLobby((0, 1, 3)) in effects
    assert table.state.phase is Phase.CLOSED


def test_leaving_once_the_match_started_is_an_absence() -> None:
    table = ready()
    effects = table.at(1.0, Leave(2))
    assert Notice(NoticeKind.PLAYER_LEFT, 2, since=1.0) in effects
    assert table.state.phase is Phase.DEALING and table.state.seats[2].is_away


def test_which_invitations_lapsed_and_when_the_next_one_does() -> None:
    """`lapsed_invitations` and `next_lapse`, the rule the live server's invitation deadline asks
    too (there each seat's invitation has its own end, as an aware datetime)."""
    pending: dict[int, float | None] = {3: 130.0, 1: 125.0, 2: None}
    assert lapsed_invitations(pending, 124.9) == ()
    assert lapsed_invitations(pending, 125.0) == (1,)
    assert lapsed_invitations(pending, 200.0) == (1, 3)
    assert next_lapse(pending) == 125.0
    assert next_lapse({2: None}) is None and next_lapse({}) is None
    noon = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    ends = {1: noon, 2: noon + timedelta(seconds=30)}
    assert lapsed_invitations(ends, noon + timedelta(seconds=1)) == (1,)
    assert next_lapse(ends) == noon


def test_an_invitation_answered_meanwhile_does_not_lapse() -> None:
    table = invited()
    table.at(101.0, Accept(1))
    table.at(102.0, Accept(2))
    effects = table.at(130.0, Tick())
    expired = [effect.seat for effect in effects if isinstance(effect, Notice)]
    assert expired == [3]


def test_who_sent_a_command_is_checked_first_in_one_order() -> None:
    """`sender_refusal`: the seat before the version (the server's order for every command), and
    a command with no version is never stale (the pure table's inputs carry none)."""
    assert sender_refusal(seated=False, saw=3, version=4) == "not_seated"
    assert sender_refusal(seated=True, saw=3, version=4) == "stale_version"
    assert sender_refusal(seated=True, saw=4, version=4) is None
    assert sender_refusal(seated=True) is None
