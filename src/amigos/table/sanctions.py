"""The card ladder: how the cards a player collects turn into account suspensions (spec §3.3.3).

28 yellow cards suspend the account for a week, 2 blue cards for two weeks, a red card for a
month (30 days). The counters start again from the moment a suspension is imposed, so the cards
that caused it are spent when it has been served, and a card given later in the same match (after
the suspension fell) counts towards the next one. A suspension imposed while another runs is
served after it, never at the same time. Time is seconds since the epoch, passed in.

The server applies this to each :class:`amigos.table.CardGiven` and sends the table a
:class:`amigos.table.Suspend` when :func:`give` returns a suspension.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .effects import CardReason
from .model import Colour

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Ladder:
    """The thresholds and lengths (the spec's numbers by default)."""

    yellow_limit: int = 28
    blue_limit: int = 2
    yellow_days: float = 7.0
    blue_days: float = 14.0
    red_days: float = 30.0

    def days_for(self, colour: Colour) -> float:
        if colour is Colour.YELLOW:
            return self.yellow_days
        if colour is Colour.BLUE:
            return self.blue_days
        return self.red_days


LADDER = Ladder()


class CardFate(enum.Enum):
    """What becomes of a card a table's rules would give a seat."""

    NOT_GIVEN = "not_given"  # a computer player's seat: nobody to warn or suspend
    PRACTICE = "practice"  # shown and counted at the table, never on the account's ladder
    LADDER = "ladder"  # counts toward the account's suspensions


def card_fate(accounts: Sequence[object | None], seat: int, reason: CardReason) -> CardFate:
    """Whether the card for ``reason`` at ``seat`` is given and whether it reaches the ladder.

    ``accounts``: each seat's account, None for a computer player. A table with a computer
    player is practice (docs/rules.md, "Cards"): its clock and absence cards are shown, so the
    table's rules hold, but they never count toward a suspension, so a newcomer exploring the site
    against the computer cannot be suspended for it. An administrator's red card is a judgement
    on the person, not a table rule, and counts wherever it is given.
    """
    if accounts[seat] is None:
        return CardFate.NOT_GIVEN
    if reason is not CardReason.ADMINISTRATOR and any(account is None for account in accounts):
        return CardFate.PRACTICE
    return CardFate.LADDER


@dataclass(frozen=True, slots=True)
class Suspension:
    """The account is suspended from ``starts`` to ``ends`` because of ``colour`` cards."""

    colour: Colour
    starts: float
    ends: float


@dataclass(frozen=True, slots=True)
class Standing:
    """Where an account stands: cards counted since the last suspension, and when the last
    suspension ends (None: never suspended, or lifted)."""

    yellow: int = 0
    blue: int = 0
    suspended_until: float | None = None

    def is_suspended(self, now: float) -> bool:
        return self.suspended_until is not None and now < self.suspended_until

    def yellow_left(self, ladder: Ladder = LADDER) -> int:
        """Yellow cards still to collect before the next suspension (what the player is shown)."""
        return ladder.yellow_limit - self.yellow

    def blue_left(self, ladder: Ladder = LADDER) -> int:
        return ladder.blue_limit - self.blue


def give(
    standing: Standing, colour: Colour, at: float, ladder: Ladder = LADDER
) -> tuple[Standing, Suspension | None]:
    """The standing after a ``colour`` card given at ``at``, and the suspension it causes, if any."""
    yellow = standing.yellow + (colour is Colour.YELLOW)
    blue = standing.blue + (colour is Colour.BLUE)
    if colour is Colour.RED:
        cause = Colour.RED
    elif yellow >= ladder.yellow_limit:
        cause = Colour.YELLOW
    elif blue >= ladder.blue_limit:
        cause = Colour.BLUE
    else:
        return Standing(yellow, blue, standing.suspended_until), None
    starts = at
    if standing.suspended_until is not None and standing.suspended_until > at:
        starts = standing.suspended_until  # served after the one that runs now
    suspension = Suspension(cause, starts, starts + ladder.days_for(cause) * DAY)
    return Standing(0, 0, suspension.ends), suspension


def lift(standing: Standing, at: float, until: float | None = None) -> Standing:
    """An administrator lifts the suspension (``until`` None) or shortens it to end at ``until``.

    Shortening never lengthens: an ``until`` later than the current end changes nothing.
    """
    current = standing.suspended_until
    if current is None or current <= at:
        return standing
    if until is None or until <= at:
        return Standing(standing.yellow, standing.blue, None)
    return Standing(standing.yellow, standing.blue, min(current, until))
