"""What one finished match at a table is worth to each of its two pairs.

A match is summarised by its final score (tantos, or hands won under the juegos ganados target) and
how it ended. From that alone we derive, for each pair, the tournament points, the juego ganado,
tantos for and against, the efectividad and the bet units. Both partners of a pair receive the same
values; whether a player's values count at all (non-counting games) is the standings' business.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from amigos.engine.tiles import pips, tile_set
from amigos.engine.variants.amigos import hands_won_over
from amigos.recreo.errors import RecreoError, Refusal

#: No hand can be worth more than every pip of the double-six set.
MAX_HAND_TANTOS = pips(tile_set(6))
#: A juegos ganados match that is still level after this many hands won by a pair is beyond any
#: table's evening; a count above it is a typing error, and refusing it keeps stored numbers small.
MAX_HANDS_WON = 99


class Target(enum.Enum):
    """The meta of every match of an event."""

    POINTS_100 = 100
    POINTS_200 = 200
    HANDS_WON = "hands"

    @property
    def is_points(self) -> bool:
        return self is not Target.HANDS_WON

    @property
    def limit(self) -> int:
        """M, the tantos a pair must reach; meaningless (and refused) for the hands target."""
        if self is Target.HANDS_WON:
            raise ResultError(Refusal.NO_TANTOS_LIMIT, "the juegos ganados target has no tantos limit")
        return int(self.value)


class MatchEnd(enum.Enum):
    TARGET = "target"
    SUSPENDED = "suspended"
    DEFAULT = "default"


class ResultError(RecreoError):
    """A match result that cannot have happened under the rules."""


@dataclass(frozen=True, slots=True)
class SideOutcome:
    """One pair's share of a match; every partner gets exactly this.

    ``differential`` is what the head-to-head tie-break adds up: efectividad for tantos targets,
    hands won minus hands lost for the juegos ganados target.
    """

    points: int
    games_won: int
    points_for: int
    points_against: int
    effectiveness: int
    bet_units: int
    differential: int


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    winner: str
    a: SideOutcome
    b: SideOutcome

    def side(self, side: str) -> SideOutcome:
        return self.a if side == "a" else self.b


def win_units(losers_points: int, limit: int) -> int:
    """3 for a zapato, 2 when the losers made at most half the target, otherwise 1.

    The same table gives the winners' tournament points and the bet units, so it lives in one place.
    """
    if losers_points == 0:
        return 3
    if losers_points <= limit // 2:
        return 2
    return 1


def hands_match_over(mine: int, theirs: int) -> bool:
    """Whether the first pair has won a juegos ganados match: the engine's rule, asked for one side."""
    return hands_won_over((mine, theirs)) == 0


def _tied(a: int, b: int) -> ResultError:
    return ResultError(Refusal.TIED_SCORE, f"tied score {a}-{b}: a match always has a winning pair", a=a, b=b)


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def _pack(winner: str, won: SideOutcome, lost: SideOutcome) -> MatchOutcome:
    return MatchOutcome(winner=winner, a=won, b=lost) if winner == "a" else MatchOutcome(winner, lost, won)


def score_match(
    target: Target, score: tuple[int, int], end: MatchEnd, offender: str | None = None
) -> MatchOutcome:
    """Score a finished match, or raise :class:`ResultError` saying why it is impossible.

    ``score`` is (pair_a, pair_b) as written on the sheet (not capped); ``offender`` names the pair
    that forfeited when ``end`` is a default.
    """
    a, b = score
    if a < 0 or b < 0:
        raise ResultError(Refusal.NEGATIVE_SCORE, f"negative score {a}-{b}", a=a, b=b)
    if (end is MatchEnd.DEFAULT) != (offender is not None):
        raise ResultError(
            Refusal.OFFENDER_MISMATCH, "an offender is given exactly when the match ended by default"
        )
    if offender is not None and offender not in ("a", "b"):
        raise ResultError(Refusal.BAD_OFFENDER, f"offender must be 'a' or 'b', not {offender!r}")
    highest = max_match_score(target)
    if max(a, b) > highest:
        raise ResultError(
            Refusal.SCORE_TOO_HIGH,
            f"score {a}-{b}: no pair can end a match with more than {highest}",
            a=a,
            b=b,
            highest=highest,
        )
    if target.is_points:
        return _score_points(target.limit, a, b, end, offender)
    return _score_hands(a, b, end, offender)


def max_match_score(target: Target) -> int:
    """The most a pair can have written when a match ends: one tanto short of the target plus the
    richest hand, or the juegos ganados ceiling. Anything above was mistyped."""
    if target.is_points:
        return target.limit - 1 + MAX_HAND_TANTOS
    return MAX_HANDS_WON


def _score_points(limit: int, a: int, b: int, end: MatchEnd, offender: str | None) -> MatchOutcome:
    if end is MatchEnd.DEFAULT:
        assert offender is not None
        if max(a, b) >= limit:
            raise ResultError(
                Refusal.DEFAULT_AFTER_TARGET,
                f"score {a}-{b} already reached the target {limit}: nothing left to forfeit",
                a=a,
                b=b,
                limit=limit,
            )
        winner = _other(offender)
        losers = a if offender == "a" else b
        units = win_units(losers, limit)
        return _pack(
            winner,
            SideOutcome(units, 1, limit, losers, limit - losers, units, limit - losers),
            SideOutcome(0, 0, losers, limit, losers - limit, -units, losers - limit),
        )
    if a == b:
        raise _tied(a, b)
    winner = "a" if a > b else "b"
    won, lost = max(a, b), min(a, b)
    if end is MatchEnd.SUSPENDED:
        if won >= limit:
            raise ResultError(
                Refusal.SUSPENDED_AFTER_TARGET,
                f"score {a}-{b} reached the target {limit}: it ended normally, not suspended",
                a=a,
                b=b,
                limit=limit,
            )
        return _pack(
            winner,
            SideOutcome(1, 1, won, lost, won - lost, 1, won - lost),
            SideOutcome(0, 0, lost, won, lost - won, -1, lost - won),
        )
    if won < limit:
        raise ResultError(
            Refusal.TARGET_NOT_REACHED,
            f"score {a}-{b} did not reach the target {limit}",
            a=a,
            b=b,
            limit=limit,
        )
    if lost >= limit:
        raise ResultError(
            Refusal.BOTH_REACHED,
            f"score {a}-{b}: both pairs reached the target {limit}, only one can",
            a=a,
            b=b,
            limit=limit,
        )
    units = win_units(lost, limit)
    return _pack(
        winner,
        SideOutcome(units, 1, limit, lost, limit - lost, units, limit - lost),
        SideOutcome(0, 0, lost, limit, lost - limit, -units, lost - limit),
    )


def _score_hands(a: int, b: int, end: MatchEnd, offender: str | None) -> MatchOutcome:
    if end is MatchEnd.TARGET:
        if a == b:
            raise _tied(a, b)
        winner = "a" if a > b else "b"
        won, lost = max(a, b), min(a, b)
        if not hands_match_over(won, lost):
            raise ResultError(
                Refusal.HANDS_NOT_OVER,
                f"hands {a}-{b} did not reach the target (4 hands with a lead of 2)",
                a=a,
                b=b,
            )
        if hands_match_over(won - 1, lost):
            raise ResultError(
                Refusal.HANDS_ALREADY_OVER,
                f"hands {a}-{b}: the match was already over at {won - 1}-{lost}",
                a=a,
                b=b,
            )
    else:
        if hands_match_over(a, b) or hands_match_over(b, a):
            raise ResultError(
                Refusal.HANDS_ENDED_NORMALLY,
                f"hands {a}-{b} reached the target: the match ended normally",
                a=a,
                b=b,
            )
        if end is MatchEnd.DEFAULT:
            assert offender is not None
            winner = _other(offender)
        elif a == b:
            raise _tied(a, b)
        else:
            winner = "a" if a > b else "b"
    won_hands, lost_hands = (a, b) if winner == "a" else (b, a)
    diff = won_hands - lost_hands
    return _pack(
        winner,
        SideOutcome(0, 1, 0, 0, 0, 1, diff),
        SideOutcome(0, 0, 0, 0, 0, -1, -diff),
    )
