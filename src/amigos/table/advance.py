"""The rules of a live table over time, as one pure function.

``advance(state, given, now)`` returns the next state and the effects to carry out. Before the
input itself, every deadline that fell due by ``now`` happens, each at its own due time, so a late
``Tick`` gives the same result as a punctual one. Times never go back: an input stamped before the
table's clock counts as happening at the table's clock.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import cast

from amigos.engine import Termination
from amigos.engine.evolve import evolve

from . import inputs
from .clock import clock_due
from .common import MATCH_PHASES, close, end_unfinished, give_card, humans, set_seat
from .deadlines import Due, presence_first, table_due
from .effects import (
    Cancellation,
    CardReason,
    Deadline,
    DeadlineKind,
    Effect,
    InvitationSent,
    Notice,
    NoticeKind,
    SeatHeldByComputer,
    TableCancelled,
)
from .errors import TableError
from .flow import (
    Restart,
    clock_card,
    deal,
    deal_due,
    fresh_time,
    gets_fresh_time,
    heard_again,
    move,
    on_restart,
    reshuffle,
    resume_if_ready,
    system_play,
)
from .gathering import (
    answer,
    call_off,
    check_answer,
    close_vote,
    everyone_accepted,
    everyone_seated,
    leave,
    next_lapse,
    not_started,
    press_start,
    start,
    vote,
)
from .model import (
    UNKNOWN,
    Colour,
    Invitation,
    Phase,
    SeatState,
    TableConfig,
    TableState,
    VoteChoice,
    tracks_absence,
)
from .presence import (
    Lapse,
    Sign,
    command_heard,
    leaves_vote,
    next_presence,
    others_held,
    seat_away,
    seen,
    suspend,
    window_lapse,
)
from .senders import sender_refusal


def open_table(config: TableConfig, now: float) -> tuple[TableState, list[Effect]]:
    """A new table: invitations go to every human seat but the organizer's.

    Computer seats and the organizer accept at once; a table with nobody to invite starts at once
    (a player alone against computer players), as a table does when its last invitation is accepted.
    """
    variant = config.variant
    if len(config.players) != variant.players:
        raise ValueError(f"{variant.name} seats {variant.players} players, not {len(config.players)}")
    if not 0 <= config.organizer < variant.players or config.players[config.organizer] is None:
        raise ValueError("the organizer must be a human seat")
    seats = tuple(
        SeatState(
            player=player,
            invitation=Invitation.ACCEPTED
            if player is None or seat == config.organizer
            else Invitation.PENDING,
            last_seen=now,
        )
        for seat, player in enumerate(config.players)
    )
    pending = [seat for seat, state in enumerate(seats) if state.invitation is Invitation.PENDING]
    effects: list[Effect] = []
    if pending:
        until = now + config.timing.invitation
        state = TableState(config, Phase.INVITING, seats, now, now, invite_until=until)
        effects.extend(InvitationSent(seat, until) for seat in pending)
    else:
        state = everyone_seated(TableState(config, Phase.INVITING, seats, now, now), now, effects)
    _note_deadline(None, state, effects)
    return state, effects


def rebuild(config: TableConfig, opened: float, log: Iterable[tuple[inputs.TableInput, float]]) -> TableState:
    """The table after every input of ``log`` (each with its time), from its opening: the inputs
    it accepted, and those it refused but heard all the same (`TableError.heard`: a person's
    refused play is a sign of life). Any other refused input is an error of the log.

    This is how a process that takes a table over rebuilds it from the stored log; it then sends
    :class:`TakeOver` so that the player in turn gets fresh time.
    """
    state, _ = open_table(config, opened)
    for given, now in log:
        try:
            state, _ = advance(state, given, now)
        except TableError as refusal:
            if refusal.heard is None:
                raise
            state = refusal.heard[0]
    return state


def next_deadline(state: TableState) -> Deadline | None:
    """The earliest moment something happens at this table without anyone acting, or None.

    Kept on the state once found (`TableState.due`): it depends on the state alone, and a state
    never changes."""
    known = state.due
    if known is not UNKNOWN:
        return cast("Deadline | None", known)
    found = _next_deadline(state)
    object.__setattr__(state, "due", found)
    return found


def _next_deadline(state: TableState) -> Deadline | None:
    table = table_deadline(state)
    presence = presence_deadline(state)
    # Which goes first when both are due is `presence_first`'s rule, which the actor asks too.
    return presence if presence_first(_at(presence), _at(table)) else table


def table_deadline(state: TableState) -> Deadline | None:
    """The table's own next deadline, leaving out the seats' presence (a silence, an absent
    player's window, a page closed during the vote): the one a server stores with the table,
    while presence lives with the sockets. Kept on the state once found (`TableState.own_due`)."""
    known = state.own_due
    if known is UNKNOWN:
        known = _table_deadline(state)
        object.__setattr__(state, "own_due", known)
    return cast("Deadline | None", known)


def _table_deadline(state: TableState) -> Deadline | None:
    candidates: list[Deadline] = []
    phase = state.phase
    if phase is Phase.INVITING and (until := next_lapse(_open_invitations(state))) is not None:
        candidates.append(Deadline(until, DeadlineKind.INVITATION))
    if phase is Phase.INVITING and state.start_until is not None:
        candidates.append(Deadline(state.start_until, DeadlineKind.START))
    if phase is Phase.VOTING and state.vote_until is not None:
        candidates.append(Deadline(state.vote_until, DeadlineKind.VOTE))
    if phase is Phase.DEALING and state.deal_at is not None and not state.paused:
        candidates.append(Deadline(state.deal_at, DeadlineKind.DEAL))
    clock = state.clock
    if phase is Phase.PLAYING and clock is not None and not state.paused:
        due = clock_due(clock)
        if due is not None:
            candidates.append(Deadline(due[0], due[1], clock.seat))
    return _earliest(candidates)


def presence_deadline(state: TableState) -> Deadline | None:
    """The seats' earliest presence deadline (a silence, an absent player's window, a page closed
    during the vote): `presence.next_presence`'s. A server asks it apart from the table's own
    deadline to look up, before a seat is judged away, whether its player was suspended."""
    seats = state.seats
    found = next_presence(
        state.phase,
        state.config.conduct,
        state.config.timing,
        seats,
        {seat: info.last_seen for seat, info in enumerate(seats)},
        {seat: since for seat, info in enumerate(seats) if (since := info.away_since) is not None},
        {seat: since for seat, info in enumerate(seats) if (since := info.vote_absent_since) is not None},
        operator.add,
    )
    return None if found is None else Deadline(*found)


def _earliest(deadlines: list[Deadline]) -> Deadline | None:
    """The earliest of the table's own ``deadlines``; ties go to the first listed (the clock's card
    before its system play)."""
    return min(deadlines, key=lambda deadline: deadline.at if deadline.at is not None else 0.0, default=None)


def _at(deadline: Deadline | None) -> float | None:
    return None if deadline is None else deadline.at


def advance(state: TableState, given: inputs.TableInput, now: float) -> tuple[TableState, list[Effect]]:
    """The table after ``given`` at time ``now``, and the effects to carry out, in order.

    Raises :class:`TableError` (with a stable code) for an input the table refuses; the caller's
    state is then unchanged, like every state. A person's refused play or request for a new deal
    was a sign of life all the same (`presence.command_heard`): the error's ``heard`` then holds
    the table and effects as that left them, which the caller keeps.
    """
    before = next_deadline(state)
    effects: list[Effect] = []
    now = max(now, state.now)
    if isinstance(given, inputs.Accept | inputs.Refuse):
        # An answer after its invitation's moment is late, even before the lapse runs below.
        check_answer(state, _seat(state, given.seat), now)
    if isinstance(given, inputs.TakeOver):
        state = _outage_forgiven(state, now)
    state = _run_due(state, now, effects)
    state = evolve(state, now=now)
    try:
        state = _apply(state, given, now, effects)
    except TableError as refusal:
        if refusal.heard is not None:
            # Refused, but heard from all the same: the table as the sign of life left it, with
            # the deadlines that fell due before it and the next one.
            heard, _ = refusal.heard
            _note_deadline(before, heard, effects)
            refusal.heard = (heard, effects)
        raise
    _note_deadline(before, state, effects)
    return state, effects


def _outage_forgiven(state: TableState, now: float) -> TableState:
    """Before a take-over's deadlines fall due: the time no process held the table is nobody's
    doing at it. The seats count as heard from now (`heard_again`, as the take-over itself
    says), and a turn clock the take-over restarts (`gets_fresh_time`) is set aside, so the
    minutes a restart took give the player in turn no card and no system play before the
    fresh time. A deal's pause, a vote or an invitation that ran out meanwhile still falls due.
    (A restart slowed by a busy machine gave a card first; tests/web/tables/test_restart.py.)"""
    if state.phase is Phase.CLOSED:
        return state
    state = heard_again(state, now)
    if state.clock is not None and gets_fresh_time(
        state.config.conduct, state.phase is Phase.PLAYING, state.paused
    ):
        state = evolve(state, clock=None)
    return state


def _run_due(state: TableState, now: float, effects: list[Effect]) -> TableState:
    while True:
        deadline = next_deadline(state)
        if deadline is None or deadline.at is None or deadline.at > now:
            return state
        at = deadline.at
        state = evolve(state, now=max(state.now, at))
        state = _fire(state, deadline, at, effects)


def _fire(state: TableState, deadline: Deadline, at: float, effects: list[Effect]) -> TableState:
    kind = deadline.kind
    seat = deadline.seat
    if kind is DeadlineKind.HEARTBEAT:
        assert seat is not None
        return seat_away(state, seat, at, effects, deliberate=False)
    if kind in (DeadlineKind.RECONNECT, DeadlineKind.GRACE):
        assert seat is not None
        return _window_lapsed(state, seat, at, effects)
    if kind is DeadlineKind.VOTE_ABSENCE:
        # No page of the seat came back: it left the table, a choice of the meeting room.
        assert seat is not None
        return vote(state, seat, VoteChoice.LOBBY, effects, left=True)
    # The table's own deadline: what it does is `table_due`'s rule, which the actor asks too.
    due = table_due(
        kind,
        state.phase,
        paused=state.paused,
        awaits_start=state.awaits_start,
        invitations=_open_invitations(state),
        now=at,
    )
    what = due.what
    if what is Due.EXPIRE_INVITATIONS:
        effects.extend(Notice(NoticeKind.INVITATION_EXPIRED, seat) for seat in due.lapsed)
        effects.append(TableCancelled(Cancellation.INVITATIONS))
        return close(state, humans(state), effects)
    if what is Due.NOT_STARTED:
        return not_started(state, effects)
    if what is Due.DEAL:
        return deal_due(state, effects)
    if what is Due.CLOSE_VOTE:
        return close_vote(state, effects)
    if what is Due.CARD:
        return clock_card(state, at, effects)
    if what is Due.SYSTEM_PLAY:
        return system_play(state, at, effects)
    if what is Due.ABANDON:
        assert seat is not None
        return end_unfinished(state, Termination.ABANDONMENT, seat, effects)
    # `next_deadline` lists only deadlines that apply: one that does nothing would fire for ever.
    raise AssertionError(f"a deadline that does nothing: {deadline} ({what})")


def _window_lapsed(state: TableState, seat: int, at: float, effects: list[Effect]) -> TableState:
    """An absent player's window ran out: what :func:`window_lapse` decides for the table."""
    held = [info.held_by_computer for info in state.seats]
    computer = [info.is_computer for info in state.seats]
    lapse = window_lapse(state.config.conduct, others_held(held, computer, seat))
    if lapse is Lapse.BLUE_CARD:
        state = give_card(state, seat, Colour.BLUE, CardReason.NO_RETURN, at, effects)
        return end_unfinished(state, Termination.ABANDONMENT, seat, effects)
    if lapse is Lapse.ABANDONED:
        return end_unfinished(state, Termination.ABANDONMENT, seat, effects)
    state = set_seat(state, seat, held_by_computer=True)
    effects.append(SeatHeldByComputer(seat))
    return resume_if_ready(state, at, effects)


def _apply(state: TableState, given: inputs.TableInput, now: float, effects: list[Effect]) -> TableState:
    if isinstance(given, inputs.Tick):
        return state
    if isinstance(given, inputs.Start):
        # Asked of a closed table too: it started (or was called off) already, as the server says.
        return press_start(state, _seat(state, given.seat), now, effects)
    if isinstance(given, inputs.Cancel):
        return call_off(state, _seat(state, given.seat), effects)
    if isinstance(given, inputs.Accept | inputs.Refuse):
        # Asked of a closed table too: its invitations are over (`answer_refusal`), as the server says.
        return answer(state, _seat(state, given.seat), isinstance(given, inputs.Accept), now, effects)
    if isinstance(given, inputs.Vote):
        # Asked of a closed table too: no vote is open (`vote_refusal`), as the server says.
        return vote(state, _seat(state, given.seat), given.choice, effects)
    if isinstance(given, inputs.TakeOver):
        return _take_over(state, now, effects)
    if state.phase is Phase.CLOSED:
        if isinstance(given, inputs.Move | inputs.AskReshuffle):
            # A person's command after the match, answered as the protocol answers it.
            raise TableError("not_playing", "the table is closed")
        raise TableError("wrong_phase", "the table is closed")
    if isinstance(given, inputs.Deal):
        return deal(state, given, now, effects)
    seat = _seat(state, given.seat)
    if isinstance(given, inputs.Move):
        if given.by_computer:
            return move(state, given, now, effects)
        return _heard_then_judged(state, seat, now, effects, lambda heard: move(heard, given, now, effects))
    if isinstance(given, inputs.Heartbeat):
        return seen(state, seat, now, effects)
    if isinstance(given, inputs.CommandHeard):
        return seen(state, seat, now, effects, Sign.PLAY)
    if isinstance(given, inputs.Reconnected):
        # A page joined: it ends an absence from the vote, and the seat is heard from.
        state = set_seat(state, seat, page_open=True, vote_absent_since=None)
        return seen(state, seat, now, effects, Sign.JOINED)
    if isinstance(given, inputs.Disconnected):
        return _pages_closed(state, seat, now, effects)
    if isinstance(given, inputs.Leave):
        return leave(state, seat, now, effects)
    if isinstance(given, inputs.RedCard):
        state = give_card(state, seat, Colour.RED, CardReason.ADMINISTRATOR, now, effects)
        return suspend(state, seat, effects)
    if isinstance(given, inputs.AskReshuffle):
        return _heard_then_judged(state, seat, now, effects, lambda heard: reshuffle(heard, seat, effects))
    if isinstance(given, inputs.Suspend):
        return suspend(state, seat, effects)
    raise TableError("wrong_phase", f"not a table input: {given!r}")


def _heard_then_judged(
    state: TableState,
    seat: int,
    now: float,
    effects: list[Effect],
    judge: Callable[[TableState], TableState],
) -> TableState:
    """A person's play or request for a new deal (``judge`` judges and carries it out): a sign of
    life from the seat (`presence.seen`, `Sign.PLAY`), counted before it is judged, which it may
    change (a player judged away for a silence is back, the table no longer waits). A refusal
    keeps it (`presence.command_heard`): the error carries the table as the sign left it, which
    `advance` completes. As the server's actor does (`PresenceMixin.played_by`)."""
    heard = seen(state, seat, now, effects, Sign.PLAY)
    told = len(effects)
    try:
        return judge(heard)
    except TableError as refusal:
        if heard is state or not command_heard(refusal.code):
            raise
        del effects[told:]  # what the refused command itself began is not done
        raise TableError(refusal.code, refusal.detail, heard=(heard, effects)) from None


def _pages_closed(state: TableState, seat: int, now: float, effects: list[Effect]) -> TableState:
    """Every page of the seat closed: away during a live match; during the vote, its absence from
    the vote starts (`presence.leaves_vote`)."""
    info = state.seats[seat]
    state = set_seat(state, seat, page_open=False)
    if tracks_absence(state.phase in MATCH_PHASES, state.config.conduct):
        return seat_away(state, seat, now, effects, deliberate=False)
    voting = state.phase is Phase.VOTING
    if leaves_vote(voting, info.is_computer, pages_left=False) and info.vote_absent_since is None:
        return set_seat(state, seat, vote_absent_since=now)
    return state


def _take_over(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """A new owner rebuilt the table: what `on_restart` decides (the rule the actor's `_resume`
    asks too) happens; the heartbeats already count from now (`_outage_forgiven`, before the
    deadlines). A closed table has nothing to take over: the server rebuilds one to show it, and
    nothing happens."""
    if state.phase is Phase.CLOSED:
        return state
    restart = on_restart(
        state.phase,
        everyone_accepted=everyone_accepted(state),
        awaits_start=state.awaits_start,
        invitations_open=bool(_open_invitations(state)),
        conduct=state.config.conduct,
        paused=state.paused,
    )
    if restart is Restart.START:
        return start(state, now, effects)
    if restart is Restart.CANCEL:
        effects.append(TableCancelled(Cancellation.INVITATIONS))
        return close(state, humans(state), effects)
    if restart is Restart.FRESH_TIME:
        return fresh_time(state, now, effects)
    return state


def _open_invitations(state: TableState) -> dict[int, float | None]:
    """Each seat whose invitation is open, with when it runs out (all of them together here)."""
    return {
        seat: state.invite_until
        for seat, info in enumerate(state.seats)
        if info.invitation is Invitation.PENDING
    }


def _seat(state: TableState, seat: object) -> int:
    """``seat``, checked to be one of the table's (`sender_refusal`: the protocol's ``not_seated``;
    the pure table knows no versions)."""
    seated = not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state.seat_count
    refusal = sender_refusal(seated=seated)
    if refusal is not None:
        raise TableError(refusal, f"no seat {seat!r} at this table")
    assert isinstance(seat, int)
    return seat


def _note_deadline(before: Deadline | None, state: TableState, effects: list[Effect]) -> None:
    after = next_deadline(state)
    if after != before:
        effects.append(after if after is not None else Deadline(None))
