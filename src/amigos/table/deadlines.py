"""What a table's own deadline does when it falls due, and which of two due deadlines goes first.

A table has its own deadline (an invitation's, the organizer's start window, the pause between
hands, the vote's, the turn clock's) beside its seats' presence deadlines (a silence, an absent
player's window). Both the pure table (`advance`) and the server's actor ask :func:`table_due` what
the first kind does now, given the table's facts, and :func:`presence_first` which of the two kinds
goes first. The actor's deadline may be stale (stored before the table moved on); the pure table's
never is, so only the actor ever hears ``LATER`` or ``FORGET``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from .effects import DeadlineKind
from .gathering import lapsed_invitations, next_lapse
from .model import Phase

#: A moment: seconds in this model, an aware datetime at the live server (which asks the same rules).
Moment = TypeVar("Moment", float, datetime)


class Due(enum.Enum):
    """What a table's own deadline does now."""

    EXPIRE_INVITATIONS = "expire_invitations"  # these invitations lapsed: the table is cancelled
    LATER = "later"  # the seat it timed answered meanwhile: the next open invitation lapses later
    NOT_STARTED = "not_started"  # the organizer never pressed the button: the table is cancelled
    DEAL = "deal"  # the pause between hands is over: the next hand is dealt
    HOLD_DEAL = "hold_deal"  # ... but the table waits for an absent player: the deal follows the return
    CLOSE_VOTE = "close_vote"  # the vote's time ran out: it closes with what it has
    CARD = "card"  # the turn's clock ran out (or 5 more seconds): a yellow card
    SYSTEM_PLAY = "system_play"  # the system moves for the seat in turn
    ABANDON = "abandon"  # a correspondence turn's day ran out: the seat to move abandons the match
    FORGET = "forget"  # nothing: the deadline no longer applies (the table moved on)


@dataclass(frozen=True, slots=True)
class DueNow(Generic[Moment]):
    """:func:`table_due`'s answer: what happens, the lapsed invitations' seats (``EXPIRE_INVITATIONS``)
    and when the next invitation lapses (``LATER``)."""

    what: Due
    lapsed: tuple[int, ...] = ()
    later: Moment | None = None


#: Which phase each kind of the table's own deadline applies in.
_PHASE = {
    DeadlineKind.INVITATION: Phase.INVITING,
    DeadlineKind.START: Phase.INVITING,
    DeadlineKind.DEAL: Phase.DEALING,
    DeadlineKind.VOTE: Phase.VOTING,
    DeadlineKind.CARD: Phase.PLAYING,
    DeadlineKind.SYSTEM_PLAY: Phase.PLAYING,
    DeadlineKind.TURN: Phase.PLAYING,
}

_CLOCK = {
    DeadlineKind.CARD: Due.CARD,
    DeadlineKind.SYSTEM_PLAY: Due.SYSTEM_PLAY,
    DeadlineKind.TURN: Due.ABANDON,
}


def table_due(
    kind: DeadlineKind | None,
    phase: Phase,
    *,
    paused: bool,
    awaits_start: bool,
    invitations: Mapping[int, Moment | None],
    now: Moment,
) -> DueNow[Moment]:
    """What the table's own deadline of ``kind`` (None: one this table does not know) does at
    ``now``. ``paused``: the match waits for an absent player; ``awaits_start``: every seat accepted
    and the organizer's button is awaited; ``invitations``: each seat whose invitation is still open,
    with when it lapses. A deadline of another phase than the table's is forgotten; no clock runs
    and nothing is dealt while the table waits for an absent player."""
    if kind is None or _PHASE.get(kind) is not phase:
        return DueNow(Due.FORGET)
    if kind is DeadlineKind.INVITATION:
        lapsed = lapsed_invitations(invitations, now)
        if lapsed:
            return DueNow(Due.EXPIRE_INVITATIONS, lapsed)
        later = next_lapse(invitations)
        return DueNow(Due.FORGET) if later is None else DueNow(Due.LATER, later=later)
    if kind is DeadlineKind.START:
        return DueNow(Due.NOT_STARTED if awaits_start else Due.FORGET)
    if kind is DeadlineKind.DEAL:
        return DueNow(Due.HOLD_DEAL if paused else Due.DEAL)
    if kind is DeadlineKind.VOTE:
        return DueNow(Due.CLOSE_VOTE)
    return DueNow(Due.FORGET if paused else _CLOCK[kind])


def presence_first(presence_at: Moment | None, table_at: Moment | None) -> bool:
    """Whether a seat's presence deadline (a silence, an absent player's window) at ``presence_at``
    goes before the table's own at ``table_at`` (None: there is none). Ties go to the table's
    deadline: a card or a system move that fell due with a lapsed heartbeat was earned before the
    seat was found away."""
    return presence_at is not None and (table_at is None or presence_at < table_at)
