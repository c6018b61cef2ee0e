"""Gathering players before a match and parting after it: invitations, the organizer's start,
leaving, and the rematch and rotate votes."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from amigos.engine import Termination

from . import ballot
from .common import close, end_unfinished, humans, set_seat
from .effects import (
    Cancellation,
    DealNeeded,
    Effect,
    InvitationAccepted,
    Notice,
    NoticeKind,
    StartAwaited,
    TableCancelled,
    TableReady,
    VoteCast,
    VoteResult,
)
from .errors import TableError
from .model import Conduct, Invitation, Phase, TableState, Timing, VoteChoice
from .presence import seat_away
from .seating import reseat


def answer(state: TableState, seat: int, accepted: bool, now: float, effects: list[Effect]) -> TableState:
    """An answer to an invitation. A refusal closes the table: the organizer is told and those
    already seated go back to the meeting room (spec §1.2.3). The last acceptance seats everyone
    (`everyone_seated`). Refused as `answer_refusal` says (`check_answer`)."""
    check_answer(state, seat, now)
    if not accepted:
        state = set_seat(state, seat, invitation=Invitation.REFUSED)
        effects.append(Notice(NoticeKind.INVITATION_REFUSED, seat))
        effects.append(TableCancelled(Cancellation.INVITATIONS))
        return close(state, humans(state, except_seat=seat), effects)
    state = set_seat(state, seat, invitation=Invitation.ACCEPTED)
    effects.append(InvitationAccepted(seat))
    if everyone_accepted(state):
        return everyone_seated(state, now, effects)
    return state


#: A moment: seconds in this model, an aware datetime at the live server (which asks the same rules).
Moment = TypeVar("Moment", float, datetime)


def answer_refusal(*, invited: bool, until: Moment | None, now: Moment) -> str | None:
    """Why a player's answer to an invitation (an acceptance or a refusal) is refused (a protocol
    code), or None: the player must have an open invitation at a table still inviting
    (``not_invited``), and answer before its moment ``until`` (None: no end) runs out
    (``invitation_expired``): at that moment the invitation lapsed and the table is cancelled, even
    when the server's timer has not fired yet. Asked in that order, by the server's actor
    (`table.invite.accept` and `table.invite.refuse`) and by the pure table (`Accept`, `Refuse`,
    before the deadlines that fell due run)."""
    if not invited:
        return "not_invited"
    if until is not None and now >= until:
        return "invitation_expired"
    return None


def check_answer(state: TableState, seat: int, now: float) -> None:
    """`answer_refusal` for ``seat``'s answer at ``now``, raised as the table's error."""
    invited = state.phase is Phase.INVITING and state.seats[seat].invitation is Invitation.PENDING
    refusal = answer_refusal(invited=invited, until=state.invite_until, now=now)
    if refusal is not None:
        raise TableError(refusal, f"seat {seat} has no open invitation now")


def lapsed_invitations(pending: Mapping[int, Moment | None], now: Moment) -> tuple[int, ...]:
    """The seats, in order, whose open invitation ran out by ``now``. ``pending``: each seat whose
    invitation is still open, with the moment it runs out (None: no end). Any lapse cancels the
    table (`Cancellation.INVITATIONS`), every other open invitation closing with it; a deadline
    that finds none lapsed (its seat answered meanwhile) waits for `next_lapse`."""
    return tuple(seat for seat, until in sorted(pending.items()) if until is not None and until <= now)


def next_lapse(pending: Mapping[int, Moment | None]) -> Moment | None:
    """When the next open invitation runs out (None: none will)."""
    return min((until for until in pending.values() if until is not None), default=None)


def everyone_accepted(state: TableState) -> bool:
    """Whether every seat has accepted (computer players and the organizer did at the opening):
    what the last acceptance makes true, and what a start needs (`all_accepted`)."""
    return all_accepted((info.is_computer, info.invitation is Invitation.ACCEPTED) for info in state.seats)


def all_accepted(seats: Iterable[tuple[bool, bool]]) -> bool:
    """Whether every seat has accepted its invitation: ``seats`` gives ``(computer, accepted)`` per
    seat. A computer player's seat counts as accepted (it is never invited); a person's seat only
    once its player accepted. The one rule of both tables: the pure table (`everyone_accepted`)
    and the server's actor (`GatheringMixin._everyone_accepted`), which holds no `TableState`."""
    return all(computer or accepted for computer, accepted in seats)


class WhenSeated(enum.Enum):
    """What the table does once every seat has accepted (`when_seated`)."""

    WAIT_FOR_START = "wait_for_start"  # the organizer's button starts it, within `start_window`
    START = "start"  # the match starts at once


def when_seated(people: Collection[int], organizer: int, conduct: Conduct) -> WhenSeated:
    """What the last acceptance (or an opening with nobody left to invite) does: the match waits
    for the organizer's button for `start_window` when `organizer_starts` says so, else it starts
    at once. Asked by the pure table (`everyone_seated`) and by the server's actor
    (`GatheringMixin.accept`)."""
    if organizer_starts(people, organizer, conduct):
        return WhenSeated.WAIT_FOR_START
    return WhenSeated.START


def everyone_seated(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """Every seat has accepted: what `when_seated` decides, the match starting now or waiting for
    the organizer's button for the window `start_window` gives."""
    config = state.config
    if when_seated(humans(state), config.organizer, config.conduct) is WhenSeated.WAIT_FOR_START:
        until = now + start_window(config.timing)
        effects.append(StartAwaited(config.organizer, until))
        return replace(state, invite_until=None, start_until=until)
    return start(state, now, effects)


def press_start(state: TableState, seat: int, now: float, effects: list[Effect]) -> TableState:
    """``seat`` presses the start button: refused (with `start_refusal`'s code) unless it is the
    organizer's, before the match, with every seat accepted; else the match starts."""
    refusal = start_refusal(
        by_organizer=seat == state.config.organizer,
        inviting=state.phase is Phase.INVITING,
        everyone_accepted=everyone_accepted(state),
    )
    if refusal is not None:
        raise TableError(refusal, f"seat {seat} may not start the match now")
    return start(state, now, effects)


def not_started(state: TableState, effects: list[Effect]) -> TableState:
    """The organizer's window ran out with the button unpressed: the table is cancelled and
    everyone goes back to the meeting room."""
    effects.append(TableCancelled(Cancellation.NOT_STARTED))
    return close(state, humans(state), effects)


def start(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """The match starts: the server is asked for the first deal, and heartbeats count from now."""
    seats = tuple(replace(info, last_seen=now) for info in state.seats)
    effects.append(TableReady())
    effects.append(DealNeeded(1))
    return replace(state, phase=Phase.DEALING, seats=seats, invite_until=None, start_until=None)


def vote(
    state: TableState, seat: int, choice: VoteChoice, effects: list[Effect], left: bool = False
) -> TableState:
    """A choice after the match (``left``: the seat left the table, a choice of the meeting room).
    A later choice replaces the seat's earlier one while the vote is open (docs/protocol.md,
    `table.vote`). Any difference, or the lobby, ends the vote at once; all the same choice seats
    the next match."""
    refusal = vote_refusal(voting=state.phase is Phase.VOTING)
    if refusal is not None:
        raise TableError(refusal, "there is nothing to vote on")
    if not isinstance(choice, VoteChoice):
        raise TableError("bad_vote", f"not a choice: {choice!r}")
    info = state.seats[seat]
    if info.is_computer:
        raise TableError("computer_seat", "computer players do not vote")
    state = set_seat(state, seat, vote=choice, vote_absent_since=None)
    effects.append(VoteCast(seat, choice, left))
    voters = humans(state)
    decided = decide(_choices(state, voters), voters)
    if decided is None:
        return state
    return _settle(state, decided, effects)


def close_vote(state: TableState, effects: list[Effect]) -> TableState:
    """The vote's time ran out: what `vote_outcome` decides of the choices made (the server's
    actor asks the same rule when its vote's deadline comes)."""
    voters = humans(state)
    return _settle(state, vote_outcome(_choices(state, voters), voters), effects)


def _choices(state: TableState, voters: Collection[int]) -> dict[int, VoteChoice]:
    return {index: vote for index in voters if (vote := state.seats[index].vote) is not None}


def _settle(state: TableState, decided: VoteChoice, effects: list[Effect]) -> TableState:
    """Carry out what the vote decided: the meeting room for everyone, or the next table's seats."""
    if decided is VoteChoice.LOBBY:
        return vote_fails(state, effects)
    players, organizer = reseat(state.config.players, state.config.organizer, decided)
    effects.append(VoteResult(decided, players, organizer))
    return replace(state, phase=Phase.CLOSED, vote_until=None)


def vote_refusal(*, voting: bool) -> str | None:
    """Why a seated player's choice is refused by where the table stands (a protocol code), or
    None: only while the vote is open (``not_voting``, also once it closed). The server's actor
    first checks who sent it and which version they saw (`sender_refusal`) and the choice's
    word (``bad_choice``), then hands the choice to the pure table, which asks this."""
    return None if voting else "not_voting"


def decide(choices: Mapping[int, VoteChoice], voters: Collection[int]) -> VoteChoice | None:
    """What the vote after a match decides once ``choices`` are in (None: not yet). The same choice
    from every voter (the people: computer players do not vote) decides it; the meeting room, or
    two different choices, sends everyone there at once (spec §2.9.3). The live server's actor asks
    this too."""
    if not ballot.settled(choices, voters, VoteChoice.LOBBY):
        return None
    return vote_outcome(choices, voters)


def vote_outcome(choices: Mapping[int, VoteChoice], voters: Collection[int]) -> VoteChoice:
    """What a closed vote decides, also when its time ran out before everyone chose: the
    unanimous choice, else the meeting room."""
    return ballot.outcome(choices, voters, VoteChoice.LOBBY)


def vote_fails(state: TableState, effects: list[Effect]) -> TableState:
    """Not everyone chose the same: everyone goes back to the meeting room."""
    effects.append(VoteResult(VoteChoice.LOBBY, state.config.players, state.config.organizer))
    return close(state, humans(state), effects)


def leave(state: TableState, seat: int, now: float, effects: list[Effect]) -> TableState:
    """A player leaves on purpose: before the match that closes the table, during a vote it is a
    vote for the lobby, during a live match it starts the absence window, and in correspondence it
    ends the match by abandonment."""
    phase = state.phase
    if phase is Phase.INVITING:
        if state.seats[seat].invitation is Invitation.PENDING:
            return answer(state, seat, False, now, effects)
        return close(state, humans(state, except_seat=seat), effects)
    if phase is Phase.VOTING:
        return vote(state, seat, VoteChoice.LOBBY, effects, left=True)
    if state.config.conduct is Conduct.CORRESPONDENCE:
        return end_unfinished(state, Termination.ABANDONMENT, seat, effects)
    return seat_away(state, seat, now, effects, deliberate=True)


def organizer_starts(people: Collection[int], organizer: int, conduct: Conduct) -> bool:
    """Whether the match waits for the organizer's button once every seat has accepted (spec §2:
    the organizer's box with the game's name, the target and the start button). ``people``: the
    seats held by people. It waits when someone other than the organizer sits at a live table;
    a player alone against computer players has nobody to wait for and starts at once, and a
    correspondence game (nobody sits at it together) starts with the last acceptance."""
    if conduct is Conduct.CORRESPONDENCE:
        return False
    return any(seat != organizer for seat in people)


def start_refusal(*, by_organizer: bool, inviting: bool, everyone_accepted: bool) -> str | None:
    """Why a request to start the match is refused (a protocol code), or None when it starts:
    only the organizer starts it, only before it has started, and only once every seat accepted
    (docs/protocol.md, `table.start`)."""
    refusal = cancel_refusal(by_organizer=by_organizer, inviting=inviting)
    if refusal is None and not everyone_accepted:
        return "not_all_accepted"
    return refusal


def cancel_refusal(*, by_organizer: bool, inviting: bool) -> str | None:
    """Why a request to call the table off is refused (a protocol code), or None when it is called
    off: only the organizer calls it off, and only before its match has started (docs/protocol.md,
    `table.cancel`). The server's actor asks this too."""
    if not by_organizer:
        return "not_organizer"
    if not inviting:
        return "already_started"
    return None


def call_off(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """``seat`` calls the table off: refused (with `cancel_refusal`'s code) unless it is the
    organizer, before the match; else every open invitation closes with the table, and everyone
    goes back to the meeting room."""
    refusal = cancel_refusal(
        by_organizer=seat == state.config.organizer, inviting=state.phase is Phase.INVITING
    )
    if refusal is not None:
        raise TableError(refusal, f"seat {seat} may not call the table off now")
    effects.append(TableCancelled(Cancellation.ORGANIZER))
    return close(state, humans(state), effects)


def start_window(timing: Timing) -> float:
    """How long a table whose seats have all accepted waits for its organizer to start it before it
    is cancelled like an unanswered invitation (nobody is left at a dead table): the invitation's
    own window again."""
    return timing.invitation
