"""One match's change of PR for its four players, given their quintiles before the match.

Kept apart from the bookkeeping of a whole ladder (:mod:`.ladder`) so the site, which keeps the
PRs in its database, applies exactly this function to each match it archives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: The three Amigos targets that carry PR; other games have statistics but no rating.
AMIGOS_VARIANTS: dict[str, int | None] = {"amigos-100": 100, "amigos-200": 200, "amigos-hands": None}

#: Juegos ganados: a winner needs at least this many hands won.
HANDS_TO_WIN = 4


class RatingInputError(ValueError):
    """A rating input that breaks RATING-FORMAT. ``match`` counts from 1 (None: the file itself)."""

    def __init__(self, match: int | None, reason: str) -> None:
        self.match = match
        self.reason = reason
        super().__init__(f"match {match}: {reason}" if match is not None else reason)


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A match as the rating sees it: two teams of two players, their final totals as counted."""

    variant: str
    teams: tuple[tuple[str, str], tuple[str, str]]
    score: tuple[int, int]
    complete: bool = True


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Who won a complete match and the margin PP reads (None in juegos ganados)."""

    winner: int
    margin: int | None


def quintile(rank: int, players: int) -> int:
    """The quintile (1 best .. 5) of a player with ``rank`` players strictly above, among ``players``."""
    if players <= 0 or not 0 <= rank < players:
        raise ValueError(f"rank {rank} is not a place among {players} players")
    return 5 * rank // players + 1


def outcome_of(variant: str, score: tuple[int, int], match: int | None = None) -> MatchOutcome:
    """The winner of a complete match, checking that the score is one a finished match can have."""
    if variant not in AMIGOS_VARIANTS:
        raise RatingInputError(match, f"unknown variant {variant!r}")
    target = AMIGOS_VARIANTS[variant]
    first, second = score
    if target is None:
        high, low = max(first, second), min(first, second)
        finished = high >= HANDS_TO_WIN and (high - low == 2 or (high == HANDS_TO_WIN and low <= 2))
        if not finished:
            raise RatingInputError(match, f"{first}-{second} is not the end of a match of hands won")
        return MatchOutcome(winner=0 if first > second else 1, margin=None)
    reached = [total >= target for total in score]
    if reached.count(True) != 1:
        raise RatingInputError(match, f"{first}-{second}: exactly one team must reach {target}")
    winner = reached.index(True)
    # The winners are written with exactly the target, so the margin is the target minus the losers.
    return MatchOutcome(winner=winner, margin=target - score[1 - winner])


def _pp(margin: int | None, won: bool) -> int:
    if margin is None:
        return 0
    if margin < 10:
        return 1 if won else 0
    if margin <= 50:
        return 2 if won else -1
    return 3 if won else -2


def _pt(own: int, opponent: int, won: bool) -> int:
    up = own - opponent  # positive when the opponent stands in a better (lower-numbered) quintile
    if won:
        return up + 1 if up >= 1 else 1
    return up if up <= -1 else 0


def match_changes(
    match: RatedMatch, quintiles: Mapping[str, int], index: int | None = None
) -> dict[str, int]:
    """What each of the four players of a complete ``match`` gains (or loses), from the quintiles
    every player had before it. An incomplete match changes nothing."""
    if not match.complete:
        return {}
    outcome = outcome_of(match.variant, match.score, index)
    changes: dict[str, int] = {}
    for side, team in enumerate(match.teams):
        won = side == outcome.winner
        opponents = match.teams[1 - side]
        for player in team:
            own = quintiles[player]
            changes[player] = (
                1
                + _pp(outcome.margin, won)
                + sum(_pt(own, quintiles[opponent], won) for opponent in opponents)
            )
    return changes
