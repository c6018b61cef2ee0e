"""The turn clock: how long the seat to move has, and what happens when the time runs out.

Amigos (spec §2.1.4 and §3.1): 60 s when one of the legal tiles would block the hand ("situación
de cierre"), 5 s with a single legal tile, 20 s otherwise. Past the time a yellow card falls, then
another every 5 s; a single legal tile is laid by the system at 6 s (after its yellow card at 5 s).
Cuban and the draw games: 30 s, then the system lays the simplest legal tile; no cards.
A correspondence table gives a day. A seat with no legal tile never gets a clock: it passes at once.

These functions are the only statement of those rules: the pure table (:mod:`amigos.table.flow`)
and the live server's table actor both ask them, with the time passed in.
"""

from __future__ import annotations

from dataclasses import replace

from amigos.engine import HandState, Pass

from .effects import CardReason, DeadlineKind, SystemReason
from .model import Conduct, Situation, TableConfig, Timing, TurnClock


def situation_of(hand: HandState, config: TableConfig, computer: bool) -> Situation:
    """The clock situation of the seat to move in ``hand`` (which must have a legal tile)."""
    return situation_for(hand, config.conduct, computer)


def situation_for(hand: HandState, conduct: Conduct, computer: bool) -> Situation:
    """:func:`situation_of` for a caller that knows the table's conduct but keeps no
    :class:`TableConfig` (the web server's table actor)."""
    if conduct is Conduct.TIMED:
        # Cuban and the draw games give every seat the same 30 s, a computer player's too: the
        # players see one clock for everyone (a computer's turn once showed 20 s there).
        return Situation.TIMED
    if computer:
        return Situation.COMPUTER
    if conduct is Conduct.CORRESPONDENCE:
        return Situation.CORRESPONDENCE
    if is_single(hand):
        return Situation.SINGLE
    if hand.closing_actions():
        return Situation.BLOCKING
    return Situation.OPEN


def start_clock(hand: HandState, config: TableConfig, now: float, computer: bool) -> TurnClock:
    """A fresh clock for the seat to move, started at ``now``."""
    return turn_clock(hand, config.conduct, config.timing, now, computer)


def turn_clock(hand: HandState, conduct: Conduct, timing: Timing, now: float, computer: bool) -> TurnClock:
    """:func:`start_clock` for a caller that keeps the conduct and the timing but no
    :class:`TableConfig` (the live server's actor, which passes the seconds since the turn began)."""
    situation = situation_for(hand, conduct, computer)
    seat = hand.to_move
    if situation is Situation.SINGLE:
        return TurnClock(seat, now, situation, timing.single, now + timing.single, now + timing.single_lay)
    if situation is Situation.BLOCKING:
        return TurnClock(seat, now, situation, timing.blocking, now + timing.blocking, None)
    if situation is Situation.OPEN:
        return TurnClock(seat, now, situation, timing.open, now + timing.open, None)
    if situation is Situation.TIMED:
        return TurnClock(seat, now, situation, timing.timed, None, now + timing.timed)
    if situation is Situation.COMPUTER:
        return TurnClock(seat, now, situation, timing.computer, None, now + timing.computer)
    return TurnClock(seat, now, situation, timing.correspondence, None, None)


def clock_due(clock: TurnClock) -> tuple[float, DeadlineKind] | None:
    """When the clock next acts and what it does then: its next yellow card, the system's move, or
    (a correspondence day run out) the end of the match. Ties go to the card: a single tile's card
    falls before the system lays the tile."""
    if clock.card_at is not None and (clock.system_at is None or clock.card_at <= clock.system_at):
        return clock.card_at, DeadlineKind.CARD
    if clock.system_at is not None:
        return clock.system_at, DeadlineKind.SYSTEM_PLAY
    if clock.situation is Situation.CORRESPONDENCE:
        return clock.expires, DeadlineKind.TURN
    return None


def card_reason(clock: TurnClock) -> CardReason:
    """Why the card that falls now is given: a single tile not laid in time, the turn's time run
    out (its first card), or another 5 seconds gone."""
    if clock.situation is Situation.SINGLE:
        return CardReason.SLOW_SINGLE
    return CardReason.TIMEOUT if clock.cards == 0 else CardReason.EVERY_5S


def warns_no_block(clock: TurnClock) -> bool:
    """Whether the card that falls now comes with the notice that there was no blocking
    situation: the first card of a 20-second (open) turn."""
    return clock.situation is Situation.OPEN and clock.cards == 0


def after_card(clock: TurnClock, timing: Timing) -> TurnClock:
    """The clock once its card fell: the next card 5 s later, or none for a single tile (the
    system lays it a second later)."""
    assert clock.card_at is not None
    card_at = None if clock.situation is Situation.SINGLE else clock.card_at + timing.card_every
    return replace(clock, card_at=card_at, cards=clock.cards + 1)


def system_reason(situation: Situation | None) -> SystemReason:
    """Why the system moves when a clock runs out: the single tile at 6 s, a computer player that
    did not answer, else a timed turn's 30 s (also a clock the server lost, such as after a restart)."""
    if situation is Situation.SINGLE:
        return SystemReason.SINGLE_TILE
    if situation is Situation.COMPUTER:
        return SystemReason.COMPUTER_LATE
    return SystemReason.TIMEOUT


def is_single(hand: HandState) -> bool:
    """Whether the seat has one sole option: exactly one legal placement.

    A tile that fits both ends with different results is two options (the player chooses the
    arm), so it is not "single"; the engine lists one action per distinct resulting position.
    """
    actions = hand.legal_actions()
    return len(actions) == 1 and not isinstance(actions[0], Pass)
