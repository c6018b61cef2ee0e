"""What a table's own deadline does when it falls due (`table_due`), which of two due deadlines goes
first (`presence_first`), and the pause between hands (the DEAL deadline): the rules the live
server's actor asks too."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amigos.table import (
    Accept,
    BackToLobby,
    Cancellation,
    Conduct,
    Deadline,
    DeadlineKind,
    Deal,
    DealNeeded,
    Disconnected,
    Due,
    DueNow,
    HandEnded,
    HandStarted,
    Invitation,
    Move,
    Phase,
    Reconnected,
    Restart,
    TableCancelled,
    TableError,
    TableReady,
    TakeOver,
    Tick,
    Timing,
    next_deadline,
    on_restart,
    open_table,
    presence_first,
    table_due,
)

from .helpers import HUMANS, KEY, OPEN, Table, config, playing
from .test_lifecycle import KEYS, ready

SECOND = KEYS[1]


def first_hand_played(timing: Timing) -> tuple[Table, float]:
    """A table of four people whose first hand has just ended (each seat lays its first legal
    move a second apart), and when it ended."""
    table = ready()
    table = Table(replace(table.state, config=replace(table.state.config, timing=timing)))
    table.at(1.0, Deal(KEY, 0))
    now = 1.0
    while table.state.phase is Phase.PLAYING:
        hand = table.state.hand
        assert hand is not None
        now += 1.0
        table.at(now, Move(hand.state.to_move, hand.state.legal_actions()[0]))
    assert table.effects(HandEnded) and table.state.phase is Phase.DEALING
    return table, now


PATIENT_PAUSE = Timing(heartbeat_timeout=1e9, hand_pause=5.0)


def test_the_next_hand_is_dealt_after_the_pause_between_hands() -> None:
    table, ended = first_hand_played(PATIENT_PAUSE)
    # The hand's end asks for no deal yet: its deadline is the pause's end.
    assert not table.effects(DealNeeded)[1:]
    assert table.state.deal_at == ended + 5.0
    assert next_deadline(table.state) == Deadline(ended + 5.0, DeadlineKind.DEAL)
    with pytest.raises(TableError) as caught:
        table.at(ended + 4.0, Deal(SECOND))
    assert caught.value.code == "wrong_phase"
    assert table.at(ended + 4.9, Tick()) == []
    effects = table.at(ended + 5.0, Tick())
    assert effects[0] == DealNeeded(2) and table.state.deal_at is None
    effects = table.at(ended + 5.0, Deal(SECOND))
    assert isinstance(effects[0], HandStarted) and effects[0].number == 2


@given(st.sampled_from([0.0, 0.5, 3.0, 5.0, 12.0]), st.sampled_from([0.0, 0.2, 1.0, 7.0, 30.0]))
def test_a_late_deal_is_the_same_as_a_punctual_one(pause: float, late: float) -> None:
    """However long the pause, the deal is asked for once it is over, and a late `Deal` (the
    server's timer fired late) deals the same hand as a punctual one."""
    table, ended = first_hand_played(Timing(heartbeat_timeout=1e9, hand_pause=pause))
    effects = table.at(ended + pause + late, Deal(SECOND))
    assert effects[0] == DealNeeded(2)
    assert isinstance(effects[1], HandStarted) and effects[1].number == 2


def test_nobody_deals_while_the_table_waits_and_the_deal_follows_the_return() -> None:
    """Away during the pause: the deal is held (no DEAL deadline while the table waits); a player
    back after the pause's end is dealt to at once, one back before it waits for the pause."""
    table, ended = first_hand_played(PATIENT_PAUSE)
    table.at(ended + 1.0, Disconnected(2))
    assert table.state.paused
    deadline = next_deadline(table.state)
    assert deadline is not None and deadline.kind is DeadlineKind.RECONNECT
    assert not any(isinstance(effect, DealNeeded) for effect in table.at(ended + 60.0, Tick()))
    effects = table.at(ended + 61.0, Reconnected(2))
    assert DealNeeded(2) in effects and table.state.deal_at is None

    table, ended = first_hand_played(PATIENT_PAUSE)
    table.at(ended + 1.0, Disconnected(2))
    assert table.at(ended + 2.0, Reconnected(2))
    assert next_deadline(table.state) == Deadline(ended + 5.0, DeadlineKind.DEAL)


def test_what_a_due_table_deadline_does_is_one_rule() -> None:
    """`table_due`, the rule the live server's actor asks when its stored deadline falls due."""

    def due(kind: DeadlineKind | None, phase: Phase, paused: bool = False, awaits: bool = False) -> Due:
        return table_due(kind, phase, paused=paused, awaits_start=awaits, invitations={}, now=0.0).what

    assert due(DeadlineKind.START, Phase.INVITING, awaits=True) is Due.NOT_STARTED
    assert due(DeadlineKind.START, Phase.INVITING) is Due.FORGET  # started or cancelled meanwhile
    assert due(DeadlineKind.DEAL, Phase.DEALING) is Due.DEAL
    assert due(DeadlineKind.DEAL, Phase.DEALING, paused=True) is Due.HOLD_DEAL
    assert due(DeadlineKind.VOTE, Phase.VOTING) is Due.CLOSE_VOTE
    assert due(DeadlineKind.CARD, Phase.PLAYING) is Due.CARD
    assert due(DeadlineKind.SYSTEM_PLAY, Phase.PLAYING) is Due.SYSTEM_PLAY
    assert due(DeadlineKind.TURN, Phase.PLAYING) is Due.ABANDON
    for clock in (DeadlineKind.CARD, DeadlineKind.SYSTEM_PLAY, DeadlineKind.TURN):
        assert due(clock, Phase.PLAYING, paused=True) is Due.FORGET  # no clock runs meanwhile
    assert due(None, Phase.PLAYING) is Due.FORGET  # a kind this table does not know


@given(
    st.sampled_from([*DeadlineKind, None]),
    st.sampled_from(Phase),
    st.booleans(),
    st.booleans(),
)
def test_a_deadline_of_another_phase_is_forgotten(
    kind: DeadlineKind | None, phase: Phase, paused: bool, awaits: bool
) -> None:
    due = table_due(kind, phase, paused=paused, awaits_start=awaits, invitations={0: 5.0}, now=1.0)
    belongs = {
        Phase.INVITING: {DeadlineKind.INVITATION, DeadlineKind.START},
        Phase.DEALING: {DeadlineKind.DEAL},
        Phase.PLAYING: {DeadlineKind.CARD, DeadlineKind.SYSTEM_PLAY, DeadlineKind.TURN},
        Phase.VOTING: {DeadlineKind.VOTE},
        Phase.CLOSED: set(),
    }[phase]
    if kind not in belongs:
        assert due == DueNow(Due.FORGET)
    else:
        assert due.what is not Due.FORGET or (paused and phase is Phase.PLAYING) or not awaits


def test_a_due_invitation_deadline_expires_the_lapsed_or_waits_for_the_next() -> None:
    """The actor's stored deadline may have timed a seat that answered since: the others' time
    runs on (``LATER``); none left open, it is forgotten. Moments are datetimes at the server."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    open_ = {1: start + timedelta(seconds=30), 3: start + timedelta(seconds=45)}

    def due(now: datetime) -> DueNow[datetime]:
        return table_due(
            DeadlineKind.INVITATION,
            Phase.INVITING,
            paused=False,
            awaits_start=False,
            invitations=open_,
            now=now,
        )

    assert due(start + timedelta(seconds=30)) == DueNow(Due.EXPIRE_INVITATIONS, (1,))
    assert due(start + timedelta(seconds=50)) == DueNow(Due.EXPIRE_INVITATIONS, (1, 3))
    assert due(start + timedelta(seconds=10)) == DueNow(Due.LATER, later=start + timedelta(seconds=30))
    assert table_due(
        DeadlineKind.INVITATION, Phase.INVITING, paused=False, awaits_start=False, invitations={}, now=start
    ) == DueNow(Due.FORGET)


def test_ties_between_a_seat_and_the_table_go_to_the_table() -> None:
    """`presence_first`: a card that fell due with a lapsed heartbeat was earned before the seat
    was found away; the actor's `_on_deadline` and the pure `next_deadline` both ask it."""
    assert presence_first(3.0, 5.0) and presence_first(3.0, None)
    assert not presence_first(5.0, 5.0) and not presence_first(6.0, 5.0) and not presence_first(None, 5.0)
    # At the pure table: the open turn's first card (20 s) and seat 2's silence (20 s) together.
    state = playing(OPEN, config(players=HUMANS, timing=Timing(heartbeat_timeout=20.0)))
    deadline = next_deadline(state)
    assert deadline is not None and deadline.kind is DeadlineKind.CARD and deadline.at == 20.0


def test_what_a_rebuilt_table_does_is_one_rule() -> None:
    """`on_restart`, the rule the live server's actor asks when it is rebuilt (`_resume`)."""

    def restart(phase: Phase, **facts: bool) -> Restart:
        given = {
            "everyone_accepted": False,
            "awaits_start": False,
            "invitations_open": False,
            "paused": False,
        }
        given.update(facts)
        return on_restart(phase, conduct=Conduct.AMIGOS, **given)

    assert restart(Phase.INVITING, everyone_accepted=True) is Restart.START  # a rematch's table
    assert restart(Phase.INVITING, everyone_accepted=True, awaits_start=True) is Restart.AWAIT_START
    assert restart(Phase.INVITING, invitations_open=True) is Restart.NOTHING
    assert restart(Phase.INVITING) is Restart.CANCEL  # refused or lapsed, never cancelled
    assert restart(Phase.PLAYING) is Restart.FRESH_TIME
    assert restart(Phase.PLAYING, paused=True) is Restart.NOTHING
    assert restart(Phase.DEALING) is restart(Phase.VOTING) is restart(Phase.CLOSED) is Restart.NOTHING
    assert (
        on_restart(
            Phase.PLAYING,
            everyone_accepted=True,
            awaits_start=False,
            invitations_open=False,
            conduct=Conduct.CORRESPONDENCE,
            paused=False,
        )
        is Restart.NOTHING
    )  # a correspondence turn keeps its day


def test_a_table_taken_over_before_its_match_starts_or_is_cancelled() -> None:
    """A rematch's table (every seat accepted, no button awaited) starts when it is taken over; one
    whose invitations were all answered without it starting is cancelled; one awaiting the
    organizer's button waits on."""
    state, _ = open_table(config(), 0.0)
    seated = tuple(replace(info, invitation=Invitation.ACCEPTED) for info in state.seats)
    effects = Table(replace(state, seats=seated)).at(3.0, TakeOver())
    assert effects[:2] == [TableReady(), DealNeeded(1)]

    refused = tuple(replace(info, invitation=Invitation.REFUSED) for info in state.seats[1:])
    table = Table(replace(state, seats=(state.seats[0], *refused), invite_until=None))
    effects = table.at(3.0, TakeOver())
    assert effects[:2] == [TableCancelled(Cancellation.INVITATIONS), BackToLobby((0, 1, 2, 3))]
    assert table.state.phase is Phase.CLOSED

    table = Table(state)
    for seat in (1, 2, 3):
        table.at(1.0, Accept(seat))
    assert table.state.awaits_start
    assert table.at(2.0, TakeOver()) == []
    assert table.state.awaits_start and table.state.start_until == 31.0
