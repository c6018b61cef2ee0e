"""How long a turn may take, and what happens when it runs out: the table server's side of it.

The turn clock of the spec (online-dominoes §3.1): 5 s when a single tile can be laid (the system
lays it at 6 s with a yellow card), 20 s otherwise (60 s in a blocking situation), 30 s in Cuban
games, and a yellow card when the time runs out and every 5 s after. Correspondence tables give a
day per turn and give no card: when the day is over the system makes the engine's default move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from amigos.engine.variants import Family, Variant

SINGLE_SECONDS = 5
SYSTEM_PLAY_SECONDS = 6
NORMAL_SECONDS = 20
CUBAN_SECONDS = 30
OVERDUE_EVERY_SECONDS = 5
CORRESPONDENCE_SECONDS = 24 * 60 * 60
INVITATION_SECONDS = 30
VOTE_SECONDS = 60


@dataclass(frozen=True)
class TurnClock:
    """The clock shown to the players (`seconds`, `situation`) and when the server acts (`act_after`)."""

    seconds: int
    situation: str
    act_after: timedelta
    on_expiry: str  # the deadline kind: "system_play", "overdue", "default_move"


def turn_clock(variant: Variant, kind: str, single: bool) -> TurnClock:
    if kind == "correspondence":
        return TurnClock(
            CORRESPONDENCE_SECONDS,
            "correspondence",
            timedelta(seconds=CORRESPONDENCE_SECONDS),
            "default_move",
        )
    if single:
        return TurnClock(SINGLE_SECONDS, "single", timedelta(seconds=SYSTEM_PLAY_SECONDS), "system_play")
    if variant.family is Family.CUBAN:
        return TurnClock(CUBAN_SECONDS, "cuban", timedelta(seconds=CUBAN_SECONDS), "overdue")
    return TurnClock(NORMAL_SECONDS, "normal", timedelta(seconds=NORMAL_SECONDS), "overdue")
