"""The score sheet of one match at a physical table, hand by hand.

The scorekeeper enters each hand as it is played: which pair won it and the tantos, or a tied block
written as 0 on the side of the pair that closed. From the sheet we know the running score, who
leads the next hand (the lead passes to the right after every hand, a tied block included), and
when the match is over. Tiles are never seen: the players count them and the sheet only records.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from amigos.recreo.scoring import MatchEnd, Target, hands_match_over


class HandEnd(enum.Enum):
    DOMINO = "domino"
    BLOCK = "block"
    TIED_BLOCK = "tied_block"


class SheetError(ValueError):
    """A hand or action the sheet cannot accept in its current state."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand: ``side`` is the winning pair, or for a tied block the pair that closed."""

    end: HandEnd
    side: str
    points: int = 0

    def __post_init__(self) -> None:
        if self.side not in ("a", "b"):
            raise SheetError(f"side must be 'a' or 'b', not {self.side!r}")
        if self.points < 0:
            raise SheetError("a hand cannot be worth negative tantos")
        if self.end is HandEnd.TIED_BLOCK and self.points != 0:
            raise SheetError("a tied block is written as 0")


def turn_order(
    pair_a: tuple[int, int], pair_b: tuple[int, int], leader: int, right_of_leader: int
) -> tuple[int, int, int, int]:
    """The four players in the order they lead (and play): each next one sits to the right.

    The schedule says who partners whom, not how the table is oriented, so the scorekeeper tells us
    the first leader and who sits at their right; partners sit opposite, which fixes the rest.
    """
    seated = (*pair_a, *pair_b)
    if leader not in seated or right_of_leader not in seated:
        raise SheetError("the leader and the player at their right must both sit at this table")
    leader_pair, other_pair = (pair_a, pair_b) if leader in pair_a else (pair_b, pair_a)
    if right_of_leader not in other_pair:
        raise SheetError("the player at the leader's right is an opponent, never the partner")
    leader_partner = leader_pair[1] if leader_pair[0] == leader else leader_pair[0]
    right_partner = other_pair[1] if other_pair[0] == right_of_leader else other_pair[0]
    return (leader, right_of_leader, leader_partner, right_partner)


def leader_of_hand(order: Sequence[int], hand_index: int) -> int:
    """Who leads hand ``hand_index`` (0 = the first hand): the lead rotates one seat per hand."""
    return order[hand_index % len(order)]


def hands_display(mine: int, theirs: int) -> str:
    """How the juegos ganados count is called at the table: 0, 20, 40, 60, then "ventaja"."""
    if mine >= 4 or theirs >= 4:
        return "ventaja" if mine > theirs else "60"
    return str(20 * mine)


@dataclass(frozen=True, slots=True)
class SheetState:
    score: tuple[int, int]
    over: bool
    winner: str | None


def sheet_state(target: Target, hands: Sequence[HandEntry]) -> SheetState:
    """Running score and whether the match has ended, or :class:`SheetError` for a hand after the end."""
    a = b = 0
    winner: str | None = None
    for number, hand in enumerate(hands, start=1):
        if winner is not None:
            raise SheetError(f"hand {number} was entered after the match was over")
        gained = _gain(target, hand)
        if hand.side == "a":
            a += gained
        else:
            b += gained
        winner = _winner(target, a, b)
    return SheetState((a, b), winner is not None, winner)


def _gain(target: Target, hand: HandEntry) -> int:
    if target.is_points:
        return hand.points
    # Under juegos ganados only a domino wins a hand; any block leaves the count as it was.
    return 1 if hand.end is HandEnd.DOMINO else 0


def _winner(target: Target, a: int, b: int) -> str | None:
    if target.is_points:
        if a >= target.limit:
            return "a"
        if b >= target.limit:
            return "b"
        return None
    if hands_match_over(a, b):
        return "a"
    if hands_match_over(b, a):
        return "b"
    return None


def add_hand(target: Target, hands: Sequence[HandEntry], hand: HandEntry) -> SheetState:
    """Check that ``hand`` may follow ``hands`` and return the state after it."""
    if sheet_state(target, hands).over:
        raise SheetError("the match is already over")
    return sheet_state(target, [*hands, hand])


@dataclass(frozen=True, slots=True)
class Closing:
    """How a match ends, in the terms of the event file."""

    score: tuple[int, int]
    end: MatchEnd
    offender: str | None = None


def close_normally(target: Target, hands: Sequence[HandEntry]) -> Closing:
    state = sheet_state(target, hands)
    if not state.over:
        raise SheetError("the match has not reached its target yet")
    return Closing(state.score, MatchEnd.TARGET)


def suspend(target: Target, hands: Sequence[HandEntry]) -> Closing:
    """Stop a match for time: the pair ahead wins; a tie must be played out for one more hand."""
    state = sheet_state(target, hands)
    if state.over:
        raise SheetError("the match is already over: confirm it instead of suspending")
    a, b = state.score
    if a == b:
        raise SheetError("the score is tied: play one more hand before suspending")
    return Closing(state.score, MatchEnd.SUSPENDED)


def forfeit(target: Target, hands: Sequence[HandEntry], offender: str) -> Closing:
    """A default applied by the organizer: the other pair wins whatever the score."""
    if offender not in ("a", "b"):
        raise SheetError(f"offender must be 'a' or 'b', not {offender!r}")
    state = sheet_state(target, hands)
    if state.over:
        raise SheetError("the match is already over: there is nothing to forfeit")
    return Closing(state.score, MatchEnd.DEFAULT, offender)
