"""The turn clock: how long the seat to move has, and what happens when the time runs out.

Amigos (spec §2.1.4 and §3.1): 60 s when one of the legal tiles would block the hand ("situación
de cierre"), 5 s with a single legal tile, 20 s otherwise. Past the time a yellow card falls, then
another every 5 s; a single legal tile is laid by the system at 6 s (after its yellow card at 5 s).
Cuban and the draw games: 30 s, then the system lays the simplest legal tile; no cards.
A correspondence table gives a day. A seat with no legal tile never gets a clock: it passes at once.
"""

from __future__ import annotations

from amigos.engine import HandState, Pass

from .model import Conduct, Situation, TableConfig, TurnClock


def situation_of(hand: HandState, config: TableConfig, computer: bool) -> Situation:
    """The clock situation of the seat to move in ``hand`` (which must have a legal tile)."""
    return situation_for(hand, config.conduct, computer)


def situation_for(hand: HandState, conduct: Conduct, computer: bool) -> Situation:
    """:func:`situation_of` for a caller that knows the table's conduct but keeps no
    :class:`TableConfig` (the web server's table actor)."""
    if computer:
        return Situation.COMPUTER
    if conduct is Conduct.CORRESPONDENCE:
        return Situation.CORRESPONDENCE
    if conduct is Conduct.TIMED:
        return Situation.TIMED
    if is_single(hand):
        return Situation.SINGLE
    if hand.closing_actions():
        return Situation.BLOCKING
    return Situation.OPEN


def start_clock(hand: HandState, config: TableConfig, now: float, computer: bool) -> TurnClock:
    """A fresh clock for the seat to move, started at ``now``."""
    timing = config.timing
    situation = situation_of(hand, config, computer)
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


def is_single(hand: HandState) -> bool:
    """Whether the seat has one sole option: exactly one legal placement.

    A tile that fits both ends with different results is two options (the player chooses the
    arm), so it is not "single"; the engine lists one action per distinct resulting position.
    """
    actions = hand.legal_actions()
    return len(actions) == 1 and not isinstance(actions[0], Pass)
