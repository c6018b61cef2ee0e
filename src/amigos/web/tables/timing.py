"""How long a turn may take and what happens when it runs out: the table server's side of the
rules of time that `amigos.table` states purely (docs/rules.md, "The turn clock").

The situation of a turn (blocking, single, open, timed, computer, correspondence) and every
duration come from `amigos.table`, so the pure rules and the live server cannot drift apart; this
module only turns them into the server's deadlines and the protocol's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from amigos.engine import HandState
from amigos.engine.variants import Family, Variant
from amigos.table import Conduct, Situation, Timing
from amigos.table.clock import situation_for

#: The durations of the live server (the specs' numbers).
TIMING = Timing()
VOTE_SECONDS = int(TIMING.vote)
INVITATION_SECONDS = int(TIMING.invitation)
CORRESPONDENCE_SECONDS = int(TIMING.correspondence)
#: How long a seat may be unheard before it is away, made once: every play asks when each seat's
#: silence next matters, and making this `timedelta` from a float each time was a hundredth of it.
SILENCE = timedelta(seconds=TIMING.heartbeat_timeout)

#: The protocol's name for each situation (docs/protocol.md, "The turn clock").
WORDS: dict[Situation, str] = {
    Situation.BLOCKING: "blocking",
    Situation.SINGLE: "single",
    Situation.OPEN: "normal",
    Situation.TIMED: "timed",
    Situation.COMPUTER: "computer",
    Situation.CORRESPONDENCE: "correspondence",
}


def conduct_of(variant: Variant, kind: str) -> Conduct:
    """Which rules of time a table follows: the Amigos ones, the timed ones (Cuban, draw and
    fives) or a day per move."""
    if kind == "correspondence":
        return Conduct.CORRESPONDENCE
    return Conduct.AMIGOS if variant.family is Family.AMIGOS else Conduct.TIMED


@dataclass(frozen=True)
class TurnClock:
    """A turn's clock: what it shows (`seconds`, `situation`) and when the server acts, in
    seconds from the turn's start: the first yellow card (`card_after`, then one every
    `card_every` unless the system moves first), the system's move (`system_after`) and, on a
    correspondence table, the end of the match by abandonment (`abandon_after`)."""

    seconds: int
    situation: str
    card_after: float | None
    system_after: float | None
    abandon_after: float | None
    card_every: float = TIMING.card_every

    @property
    def single(self) -> bool:
        return self.situation == "single"


def turn_clock(hand: HandState, conduct: Conduct, computer: bool, timing: Timing = TIMING) -> TurnClock:
    """The clock of the seat to move in ``hand`` (it has a legal tile: forced passes never get one)."""
    situation = situation_for(hand, conduct, computer)
    word = WORDS[situation]
    if situation is Situation.SINGLE:
        return TurnClock(int(timing.single), word, timing.single, timing.single_lay, None)
    if situation is Situation.BLOCKING:
        return TurnClock(int(timing.blocking), word, timing.blocking, None, None)
    if situation is Situation.OPEN:
        return TurnClock(int(timing.open), word, timing.open, None, None)
    if situation is Situation.TIMED:
        return TurnClock(int(timing.timed), word, None, timing.timed, None)
    if situation is Situation.COMPUTER:
        return TurnClock(int(timing.computer), word, None, timing.computer, None)
    return TurnClock(int(timing.correspondence), word, None, None, timing.correspondence)
