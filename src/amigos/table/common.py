"""What every part of a table's rules shares: closing the table, the seats, cards, and ending a
match unfinished."""

from __future__ import annotations

from dataclasses import replace

from amigos.engine import Termination
from amigos.engine.evolve import evolve

from .effects import BackToLobby, CardGiven, CardReason, Effect, MatchEnded
from .model import Colour, Phase, TableState
from .sanctions import CardFate, card_fate

MATCH_PHASES = (Phase.DEALING, Phase.PLAYING)


def close(state: TableState, seats: tuple[int, ...], effects: list[Effect]) -> TableState:
    """The table is over: these seats go back to the meeting room and no deadline remains."""
    effects.append(BackToLobby(seats))
    return replace(
        state, phase=Phase.CLOSED, clock=None, invite_until=None, start_until=None, vote_until=None
    )


def humans(state: TableState, except_seat: int | None = None) -> tuple[int, ...]:
    """The seats of people (not computer players), in order, but ``except_seat``."""
    return tuple(
        seat for seat, info in enumerate(state.seats) if not info.is_computer and seat != except_seat
    )


def set_seat(state: TableState, seat: int, **changes: object) -> TableState:
    """The state with one seat changed (states are immutable, so this copies)."""
    seats = list(state.seats)
    seats[seat] = evolve(seats[seat], **changes)
    return evolve(state, seats=tuple(seats))


def give_card(
    state: TableState, seat: int, colour: Colour, reason: CardReason, at: float, effects: list[Effect]
) -> TableState:
    """Give a card now and count it on the seat, unless `card_fate` says a computer's seat gets
    none (the account's ladder is the server's, through ``amigos.table.sanctions``)."""
    fate = card_fate(state.config.players, seat, reason)
    if fate is CardFate.NOT_GIVEN:
        return state
    info = state.seats[seat]
    effects.append(CardGiven(seat, colour, reason, at, fate is CardFate.PRACTICE))
    if colour is Colour.YELLOW:
        return set_seat(state, seat, yellow=info.yellow + 1)
    if colour is Colour.BLUE:
        return set_seat(state, seat, blue=info.blue + 1)
    return set_seat(state, seat, red=info.red + 1)


def end_unfinished(
    state: TableState, termination: Termination, offender: int, effects: list[Effect]
) -> TableState:
    """The match stops unfinished (abandonment or suspension) by ``offender``'s doing; the
    others go back to the meeting room. A deal held between hands is never made (the table
    read back from the server's log holds none either)."""
    match = state.match
    score = match.score if match is not None else (0,) * state.variant.sides
    if match is not None and not match.is_over:
        match = match.stop(termination, offender)
    effects.append(MatchEnded(termination, None, offender, score))
    state = replace(
        state, match=match, termination=termination, offender=offender, ended=state.now, deal_at=None
    )
    return close(state, humans(state, except_seat=offender), effects)
