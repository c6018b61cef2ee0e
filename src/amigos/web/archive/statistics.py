"""Reads for the statistics page (§4.1): a player's last matches with their hands, the totals per
game, and the PR and quintile history. Only complete matches count: an unfinished one shows
nowhere here (and so never shows anybody's tiles).

Everything comes from the summaries stored at archive time, so the page reads a few indexed rows
whatever the length of the player's history (see bench/archive.py for the figures).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from amigos.web.archive.models import MatchSeat, PlayerRating, RatingChange, Result
from amigos.web.archive.selectors import quintiles_of

#: How many matches the page shows at match and hand level, and in the graph (the spec's 50).
RECENT = 50
FINISHED = (Result.WON, Result.LOST)


class HandPlayer(NamedTuple):
    """One seat of one hand seen from the page's owner (a tuple: thousands are built per page)."""

    name: str
    offset: int  # seats after the viewer's own (0: the viewer; 1: the next to play, on the right)
    players: int
    is_leader: bool
    pips: int
    doubles: int
    longest_suit: int
    longest_count: int
    fallas: tuple[int, ...]


class HandLine(NamedTuple):
    """One hand seen from the page's owner."""

    number: int
    players: tuple[HandPlayer, ...]
    end: str
    won: bool | None  # from the viewer's side; None when nobody won the hand
    points: int
    difference: int  # points won (+) or lost (-) by the viewer's side in this hand
    capicua: bool


@dataclass(frozen=True, slots=True)
class MatchLine:
    number: int
    match_id: int
    started_at: datetime
    ended_at: datetime
    table_name: str
    variant: str
    family: str
    hands_won: int
    hands_lost: int
    points_for: int
    points_against: int
    result: str
    shutout_for: bool
    shutout_against: bool
    hands: tuple[HandLine, ...]


@dataclass(frozen=True, slots=True)
class GameTotals:
    family: str
    matches: int
    won: int
    best_streak: int
    current_streak: int  # positive: matches won in a row now; negative: lost in a row
    capicuas: int
    pollonas: int
    viajeras: int

    @property
    def streak_length(self) -> int:
        return abs(self.current_streak)

    @property
    def win_rate(self) -> int:
        """Percentage of matches won, rounded to the nearest whole number."""
        return round(100 * self.won / self.matches) if self.matches else 0


@dataclass(frozen=True, slots=True)
class RatingPoint:
    pr: int
    quintile: int
    ended_at: datetime


@dataclass(frozen=True, slots=True)
class Standing:
    pr: int
    quintile: int | None
    rated_matches: int


def standing(user_id: int) -> Standing:
    row = PlayerRating.objects.filter(user_id=user_id).first()
    if row is None or row.matches == 0:
        return Standing(pr=0, quintile=None, rated_matches=0)
    return Standing(pr=row.pr, quintile=quintiles_of([user_id]).get(user_id), rated_matches=row.matches)


def recent_matches(user_id: int, limit: int = RECENT) -> list[MatchLine]:
    """The player's last ``limit`` complete matches, newest first, each with its hands seen from
    the player's seat. ``number`` counts the player's complete matches from 1 (the first ever)."""
    mine = MatchSeat.objects.filter(user_id=user_id, result__in=FINISHED)
    total = mine.count()
    seats = list(
        mine.order_by("-ended_at", "-match_id")
        .select_related("match")
        .only(
            "seat",
            "side",
            "result",
            "hands_won",
            "hands_lost",
            "points_for",
            "points_against",
            "shutout_for",
            "shutout_against",
            "ended_at",
            "variant",
            "family",
            "match__id",
            "match__table_name",
            "match__started_at",
            "match__hands",
        )[:limit]
    )
    names: dict[int, dict[int, str]] = {}
    for match_id, seat, name in MatchSeat.objects.filter(
        match_id__in=[s.match_id for s in seats]
    ).values_list("match_id", "seat", "name"):
        names.setdefault(match_id, {})[seat] = name
    return [
        MatchLine(
            number=total - index,
            match_id=seat.match_id,
            started_at=seat.match.started_at,
            ended_at=seat.ended_at,
            table_name=seat.match.table_name,
            variant=seat.variant,
            family=seat.family,
            hands_won=seat.hands_won,
            hands_lost=seat.hands_lost,
            points_for=seat.points_for,
            points_against=seat.points_against,
            result=seat.result,
            shutout_for=seat.shutout_for,
            shutout_against=seat.shutout_against,
            hands=tuple(
                _hand_line(hand, seat.seat, seat.side, names[seat.match_id]) for hand in seat.match.hands
            ),
        )
        for index, seat in enumerate(seats)
    ]


def _hand_line(hand: dict[str, Any], own_seat: int, own_side: int, names: dict[int, str]) -> HandLine:
    count = len(hand["seats"])
    players = tuple(
        HandPlayer(
            name=names.get(seat, "?"),
            offset=(seat - own_seat) % count,
            players=count,
            is_leader=seat == hand["leader"],
            pips=info["pips"],
            doubles=info["doubles"],
            longest_suit=info["longest_suit"],
            longest_count=info["longest_count"],
            fallas=tuple(info["fallas"]),
        )
        for seat, info in sorted(enumerate(hand["seats"]), key=lambda item: (item[0] - own_seat) % count)
    )
    winner = hand["winner"]
    won = None if winner is None else winner == own_side
    points = hand["points"]
    return HandLine(
        number=hand["number"],
        players=players,
        end=hand["end"],
        won=won,
        points=points,
        difference=0 if won is None else (points if won else -points),
        capicua=hand["capicua"],
    )


def game_totals(user_id: int) -> list[GameTotals]:
    """Per game family (Amigos, Cuban, draw and fives): matches, wins, streaks, capicúas, pollonas
    (matches won with the others at 0) and viajeras (hands won worth 100 or more)."""
    rows = (
        MatchSeat.objects.filter(user_id=user_id, result__in=FINISHED)
        .order_by("ended_at", "match_id")
        .values_list("family", "result", "capicuas", "viajeras", "shutout_for")
    )
    acc: dict[str, dict[str, int]] = {}
    for family, result, capicuas, viajeras, shutout in rows.iterator(chunk_size=2000):
        totals = acc.setdefault(
            family, {"matches": 0, "won": 0, "best": 0, "run": 0, "capicuas": 0, "pollonas": 0, "viajeras": 0}
        )
        totals["matches"] += 1
        totals["capicuas"] += capicuas
        totals["viajeras"] += viajeras
        if result == Result.WON:
            totals["won"] += 1
            totals["pollonas"] += int(shutout)
            totals["run"] = totals["run"] + 1 if totals["run"] > 0 else 1
            totals["best"] = max(totals["best"], totals["run"])
        else:
            totals["run"] = totals["run"] - 1 if totals["run"] < 0 else -1
    order = ["amigos", "cuban", "draw"]
    return [
        GameTotals(
            family=family,
            matches=t["matches"],
            won=t["won"],
            best_streak=t["best"],
            current_streak=t["run"],
            capicuas=t["capicuas"],
            pollonas=t["pollonas"],
            viajeras=t["viajeras"],
        )
        for family, t in sorted(acc.items(), key=lambda item: order.index(item[0]))
    ]


def rating_history(user_id: int, limit: int = RECENT) -> list[RatingPoint]:
    """PR after each of the player's last ``limit`` rated matches and the quintile it left them
    in, oldest first (the order a graph reads)."""
    rows = list(
        RatingChange.objects.filter(user_id=user_id)
        .order_by("-ended_at", "-match_id")
        .values_list("pr_after", "quintile_after", "ended_at")[:limit]
    )
    return [RatingPoint(pr=pr, quintile=q, ended_at=when) for pr, q, when in reversed(rows)]
