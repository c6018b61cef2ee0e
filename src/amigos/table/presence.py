"""Who is at the table: heartbeats, absence and return, computer players holding a seat, and
suspensions."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from amigos.engine import Termination

from .common import MATCH_PHASES, close, end_unfinished, humans, set_seat
from .effects import Effect, Notice, NoticeKind, SeatReturned
from .errors import TableError
from .flow import begin_turn, resume_if_ready
from .model import Conduct, Phase, TableState, Timing

#: A seat's account: a player's name in this model, a user's number at the live server.
Account = TypeVar("Account")


class Lapse(enum.Enum):
    """What happens when an absent player's window runs out (docs/rules.md, "Connection and
    absence")."""

    BLUE_CARD = "blue_card"  # an Amigos table: a blue card, and the match ends by abandonment
    HELD = "held"  # elsewhere: a computer player holds the seat until the player returns
    ABANDONED = "abandoned"  # elsewhere, with nobody left: the match ends by abandonment, no card


class Return(enum.Enum):
    """What an absent player's return does (docs/rules.md, "Connection and absence")."""

    BACK = "back"  # no match under way: the player is simply back (a computer's hold just ends)
    SEAT = "seat"  # a computer player gives the seat back; someone else moves, or the table waits
    MOVE = "move"  # ... in the seat's turn: the player moves at once, with a fresh clock
    RESUME = "resume"  # the table may have waited for this player: it goes on if nothing else keeps it


def comeback(in_match: bool, held: bool, in_turn: bool, paused: bool) -> Return:
    """What the return of an absent player does. ``held``: a computer player held the seat;
    ``in_turn``: the seat is to move in the hand under way; ``paused``: the table still waits
    for someone once this player is back. The server's actor asks this too."""
    if not in_match:
        return Return.BACK
    if not held:
        return Return.RESUME
    return Return.MOVE if in_turn and not paused else Return.SEAT


def window(conduct: Conduct, timing: Timing) -> float:
    """How long an absent player has to come back: 5 minutes at an Amigos table, the 2-minute
    grace elsewhere (a correspondence table has no window: it has no heartbeat)."""
    return timing.reconnect if conduct is Conduct.AMIGOS else timing.grace


def window_lapse(conduct: Conduct, others_held: Iterable[bool]) -> Lapse:
    """What the lapse of a seat's window does. ``others_held``: for every other person's seat,
    whether a computer player already holds it. When every other person is gone too (or there is
    nobody else), the match ends by this last one's abandonment, rather than computer players
    playing it out for nobody, for ever."""
    if conduct is Conduct.AMIGOS:
        return Lapse.BLUE_CARD
    return Lapse.ABANDONED if all(others_held) else Lapse.HELD


def others_held(state: TableState, seat: int) -> list[bool]:
    """For every person's seat but ``seat``: whether a computer player holds it."""
    return [
        info.held_by_computer
        for index, info in enumerate(state.seats)
        if not info.is_computer and index != seat
    ]


def seen(state: TableState, seat: int, now: float, effects: list[Effect]) -> TableState:
    """A heartbeat or a new socket: the seat is present; an absent player is back (a computer
    player gives the seat back at once; a waiting table goes on with fresh time)."""
    info = state.seats[seat]
    if info.is_computer:
        raise TableError("computer_seat", f"seat {seat} is a computer player")
    state = set_seat(state, seat, last_seen=now)
    if info.away_since is None:
        return state
    state = set_seat(state, seat, away_since=None, abandon=False, held_by_computer=False)
    effects.append(Notice(NoticeKind.PLAYER_BACK, seat))
    hand = state.hand
    in_turn = state.phase is Phase.PLAYING and hand is not None and hand.state.to_move == seat
    back = comeback(state.phase in MATCH_PHASES, info.held_by_computer, in_turn, state.paused)
    if back is Return.RESUME:
        return resume_if_ready(state, now, effects)
    if back is not Return.BACK:
        effects.append(SeatReturned(seat))
    if back is Return.MOVE:
        # The player takes the move back from the computer player, with a fresh clock.
        return begin_turn(replace(state, clock=None), now, effects)
    return state


def seat_away(state: TableState, seat: int, at: float, effects: list[Effect], deliberate: bool) -> TableState:
    """The seat is absent from ``at``: the table waits for it (its window starts). A player who
    goes while the table already waits for someone else is marked "Abandono"."""
    info = state.seats[seat]
    if info.is_computer:
        raise TableError("computer_seat", f"seat {seat} is a computer player")
    if info.away_since is not None:
        return state
    waiting = state.paused
    state = set_seat(state, seat, away_since=at, abandon=waiting)
    # "Abandono": a player who leaves while the table already waits for someone else.
    away = NoticeKind.PLAYER_LEFT if deliberate else NoticeKind.PLAYER_AWAY
    effects.append(Notice(NoticeKind.ABANDON if waiting else away, seat))
    if state.paused:
        return replace(state, clock=None)
    return state


def suspension_offender(
    in_match: bool, accounts: Sequence[Account | None], suspended: Collection[Account]
) -> int | None:
    """The seat whose account's suspension ends the match now, unfinished (`Termination.SUSPENSION`,
    the seat its offender, everyone else back to the meeting room): the first seat whose account is
    among ``suspended``, while a match is under way (a hand, or between two). None: nothing ends
    (nobody seated here was suspended, or no match is under way). ``accounts``: each seat's account
    (None for a computer player). The server's actor asks this when a write's cards suspend an
    account (the card ladder, `amigos.table.sanctions`)."""
    if not in_match:
        return None
    return next(
        (seat for seat, account in enumerate(accounts) if account is not None and account in suspended),
        None,
    )


def suspend(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """The account at ``seat`` was suspended: a match in progress ends unfinished
    (`suspension_offender`); a table not yet started, or voting, closes."""
    player = state.seats[seat].player
    if player is not None:
        offender = suspension_offender(state.phase in MATCH_PHASES, state.config.players, {player})
        if offender is not None:
            return end_unfinished(state, Termination.SUSPENSION, offender, effects)
    return close(state, humans(state, except_seat=seat), effects)
