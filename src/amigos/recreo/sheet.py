"""The score sheet of one match at a physical table, hand by hand.

The scorekeeper enters each hand as it is played: which pair won it and the tantos, or a tied block
written as 0 on the side of the pair that closed. From the sheet we know the running score, who
leads the next hand (the lead passes to the right after every hand, a tied block included), and
when the match is over. Tiles are never seen: the players count them and the sheet only records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from amigos.engine.outcome import HandEnd
from amigos.engine.variants.amigos import hands_won_labels, hands_won_over
from amigos.recreo.errors import RecreoError, Refusal
from amigos.recreo.scoring import MAX_HAND_TANTOS, MatchEnd, Target

# How a hand ended is the engine's vocabulary (``HandEnd``): a sheet records what a played hand's
# outcome would say, so both must name it alike (stored values included).
__all__ = ["HandEnd", "HandEntry", "SheetError", "SheetState"]


class SheetError(RecreoError):
    """A hand or action the sheet cannot accept in its current state."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand: ``side`` is the winning pair, or for a tied block the pair that closed."""

    end: HandEnd
    side: str
    points: int = 0

    def __post_init__(self) -> None:
        if self.side not in ("a", "b"):
            raise SheetError(Refusal.BAD_SIDE, f"side must be 'a' or 'b', not {self.side!r}")
        if self.end is HandEnd.TIED_BLOCK:
            if self.points != 0:
                raise SheetError(Refusal.TIED_BLOCK_POINTS, "a tied block is written as 0")
        elif not 0 <= self.points <= MAX_HAND_TANTOS:
            # Zero is allowed for juegos ganados, where a hand carries no tantos; the sheet's
            # target check (``check_points``) refuses it where tantos are counted.
            raise SheetError(
                Refusal.HAND_POINTS,
                f"a hand is worth 1 to {MAX_HAND_TANTOS} tantos, not {self.points}",
                points=self.points,
                highest=MAX_HAND_TANTOS,
            )


def turn_order(
    pair_a: tuple[int, int], pair_b: tuple[int, int], leader: int, right_of_leader: int
) -> tuple[int, int, int, int]:
    """The four players in the order they lead (and play): each next one sits to the right.

    The schedule says who partners whom, not how the table is oriented, so the scorekeeper tells us
    the first leader and who sits at their right; partners sit opposite, which fixes the rest.
    """
    seated = (*pair_a, *pair_b)
    if leader not in seated or right_of_leader not in seated:
        raise SheetError(
            Refusal.LEADER_NOT_SEATED, "the leader and the player at their right must both sit at this table"
        )
    if right_of_leader == leader:
        raise SheetError(Refusal.RIGHT_IS_LEADER, "the leader cannot sit at their own right")
    leader_pair, other_pair = (pair_a, pair_b) if leader in pair_a else (pair_b, pair_a)
    if right_of_leader not in other_pair:
        raise SheetError(
            Refusal.RIGHT_IS_PARTNER, "the player at the leader's right is an opponent, never the partner"
        )
    leader_partner = leader_pair[1] if leader_pair[0] == leader else leader_pair[0]
    right_partner = other_pair[1] if other_pair[0] == right_of_leader else other_pair[0]
    return (leader, right_of_leader, leader_partner, right_partner)


def leader_of_hand(order: Sequence[int], hand_index: int) -> int:
    """Who leads hand ``hand_index`` (0 = the first hand): the lead rotates one seat per hand."""
    return order[hand_index % len(order)]


def hands_display(score: tuple[int, int]) -> tuple[str, str]:
    """How a juegos ganados count is written on the sheet, for both pairs: the engine's labels
    (0, 20, 40, 60, Ventaja, and Juego for the winners)."""
    return hands_won_labels(score)


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
            raise SheetError(
                Refusal.HAND_AFTER_END, f"hand {number} was entered after the match was over", hand=number
            )
        check_points(target, hand)
        gained = _gain(target, hand)
        if hand.side == "a":
            a += gained
        else:
            b += gained
        winner = _winner(target, a, b)
    return SheetState((a, b), winner is not None, winner)


def check_points(target: Target, hand: HandEntry) -> None:
    """Under a tantos target a domino or a block always scores something: the losing pair (or, to
    200, everyone) still holds at least one pip, since only one tile (0-0) has none."""
    if target.is_points and hand.end is not HandEnd.TIED_BLOCK and hand.points < 1:
        raise SheetError(
            Refusal.HAND_POINTS,
            f"a hand is worth 1 to {MAX_HAND_TANTOS} tantos, not {hand.points}",
            points=hand.points,
            highest=MAX_HAND_TANTOS,
        )


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
    over = hands_won_over((a, b))
    return None if over is None else "ab"[over]


def add_hand(target: Target, hands: Sequence[HandEntry], hand: HandEntry) -> SheetState:
    """Check that ``hand`` may follow ``hands`` and return the state after it."""
    if sheet_state(target, hands).over:
        raise SheetError(Refusal.MATCH_OVER, "the match is already over")
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
        raise SheetError(Refusal.MATCH_NOT_OVER, "the match has not reached its target yet")
    return Closing(state.score, MatchEnd.TARGET)


def suspend(target: Target, hands: Sequence[HandEntry]) -> Closing:
    """Stop a match for time: the pair ahead wins; a tie must be played out for one more hand."""
    state = sheet_state(target, hands)
    if state.over:
        raise SheetError(Refusal.SUSPEND_OVER, "the match is already over: confirm it instead of suspending")
    a, b = state.score
    if a == b:
        raise SheetError(Refusal.SUSPEND_TIED, "the score is tied: play one more hand before suspending")
    return Closing(state.score, MatchEnd.SUSPENDED)


def forfeit(target: Target, hands: Sequence[HandEntry], offender: str) -> Closing:
    """A default applied by the organizer: the other pair wins whatever the score."""
    if offender not in ("a", "b"):
        raise SheetError(Refusal.BAD_OFFENDER, f"offender must be 'a' or 'b', not {offender!r}")
    state = sheet_state(target, hands)
    if state.over:
        raise SheetError(Refusal.FORFEIT_OVER, "the match is already over: there is nothing to forfeit")
    return Closing(state.score, MatchEnd.DEFAULT, offender)
