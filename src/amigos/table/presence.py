"""Who is at the table: heartbeats, absence and return, computer players holding a seat, and
suspensions."""

from __future__ import annotations

from dataclasses import replace

from amigos.engine import Termination

from .common import MATCH_PHASES, close, end_unfinished, humans, set_seat
from .effects import Effect, Notice, NoticeKind, SeatReturned
from .errors import TableError
from .flow import begin_turn, resume_if_ready
from .model import Phase, TableState


def seen(state: TableState, seat: int, now: float, effects: list[Effect]) -> TableState:
    """A heartbeat or a new socket: the seat is present; an absent player is back (a computer
    player gives the seat back at once; a waiting table goes on with fresh time)."""
    info = state.seats[seat]
    if info.is_computer:
        raise TableError("computer_seat", f"seat {seat} is a computer player")
    was_paused = state.paused
    state = set_seat(state, seat, last_seen=now)
    if info.away_since is None:
        return state
    state = set_seat(state, seat, away_since=None, abandon=False, held_by_computer=False)
    effects.append(Notice(NoticeKind.PLAYER_BACK, seat))
    if info.held_by_computer:
        effects.append(SeatReturned(seat))
        clock = state.clock
        if state.phase is Phase.PLAYING and clock is not None and clock.seat == seat:
            # The player takes the move back from the computer player, with a fresh clock.
            return begin_turn(replace(state, clock=None), now, effects)
        return state
    if was_paused and not state.paused:
        return resume_if_ready(state, now, effects)
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


def suspend(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """The account at ``seat`` was suspended: a match in progress ends unfinished, a table not yet
    started closes."""
    if state.phase in MATCH_PHASES:
        return end_unfinished(state, Termination.SUSPENSION, seat, effects)
    return close(state, humans(state, except_seat=seat), effects)
