"""Drive bots through a hand.  The only place where bots meet a hand state.

The runner holds the ``HandState`` and gives each bot nothing but
``seat_view(state, seat)``: that is what makes it impossible for a bot to see a
hidden tile.  A seat with a single legal action (a forced pass, a single
fitting tile) is not asked, as the live table does it automatically too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from amigos.bots.base import Bot
from amigos.engine import HandState, IllegalAction
from amigos.engine.view import seat_view


@dataclass
class Decision:
    """One real choice a bot made: which seat, how many tiles were on the table, how long it took.

    ``cpu_seconds`` is the processor time of the choice (the process is single-threaded, so it is
    thinking time on one core whatever else the machine is doing); ``seconds`` is wall time.
    """

    seat: int
    laid: int
    options: int
    seconds: float
    cpu_seconds: float


@dataclass
class HandRun:
    """A finished hand and the choices made along the way."""

    state: HandState
    decisions: list[Decision] = field(default_factory=list)


def play_hand(state: HandState, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> HandRun:
    """Play ``state`` to its end; ``bots[seat]`` chooses for each seat, drawing on ``rngs[seat]``."""
    if len(bots) != state.variant.players or len(rngs) != state.variant.players:
        raise ValueError("one bot and one random generator per seat")
    run = HandRun(state)
    while not state.is_over:
        seat = state.to_move
        actions = state.legal_actions()
        if len(actions) == 1:
            state = state.apply(actions[0], state.to_move)
            continue
        view = seat_view(state, seat)
        started, cpu_started = time.perf_counter(), time.process_time()
        action = bots[seat].choose(view, rngs[seat])
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        if action not in actions:
            raise IllegalAction(f"bot {bots[seat].name} chose {action}, which is not legal here")
        run.decisions.append(Decision(seat, len(state.line.placements), len(actions), elapsed, cpu))
        state = state.apply(action, state.to_move)
    run.state = state
    return run
