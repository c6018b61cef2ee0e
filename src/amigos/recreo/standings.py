"""Standings of an event: accumulate every counting result, then rank with one comparator.

The same comparator serves after every round and at the end (so the final standings are simply the
last partial ones): points, juegos ganados, eficiencia total, tantos for, tantos against, then the
head-to-head differential among the players still tied, then the lower player number. Under the
juegos ganados target only juegos ganados, the head-to-head hands differential and the number exist.

Money (bet value and the extra payment) is reported beside the ranking but never ranks anyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import groupby
from typing import Any

from amigos.recreo.event import EventFile
from amigos.recreo.formats import TableAssignment
from amigos.recreo.scoring import SideOutcome

ROW_KEYS: tuple[str, ...] = (
    "rank",
    "player",
    "name",
    "points",
    "games_won",
    "effectiveness",
    "points_for",
    "points_against",
    "penalties",
    "bet_value",
    "extra_payment",
    "money",
)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One counting game from one player's point of view, kept for the head-to-head tie-break."""

    opponents: frozenset[int]
    differential: int


@dataclass(slots=True)
class Totals:
    player: int
    points: int = 0
    games_won: int = 0
    points_for: int = 0
    points_against: int = 0
    effectiveness: int = 0
    penalties: int = 0
    bet_units: int = 0
    games: list[PlayedGame] = field(default_factory=list)

    @property
    def effectiveness_total(self) -> int:
        """Eficiencia total: the sum of efectividad minus the castigos."""
        return self.effectiveness - self.penalties

    def add(self, outcome: SideOutcome, opponents: frozenset[int]) -> None:
        self.points += outcome.points
        self.games_won += outcome.games_won
        self.points_for += outcome.points_for
        self.points_against += outcome.points_against
        self.effectiveness += outcome.effectiveness
        self.games.append(PlayedGame(opponents, outcome.differential))


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player: int
    name: str
    points: int
    games_won: int
    effectiveness: int
    points_for: int
    points_against: int
    penalties: int
    bet_value: Decimal
    extra_payment: Decimal
    money: Decimal

    def as_dict(self) -> dict[str, Any]:
        return {key: _plain(getattr(self, key)) for key in ROW_KEYS}


@dataclass(frozen=True, slots=True)
class Standings:
    rounds_complete: int
    rows: tuple[StandingRow, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"rounds_complete": self.rounds_complete, "standings": [row.as_dict() for row in self.rows]}


def _plain(value: Any) -> Any:
    """Money as an int when whole (the usual case), otherwise a float, for JSON and CSV."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def rounds_complete(event: EventFile) -> int:
    """How many rounds, from the first, have a result at every table."""
    played = {(r.round, r.table) for r in event.results}
    count = 0
    for rnd in event.format.rounds:
        if all((rnd.number, t.table) in played for t in rnd.tables):
            count += 1
        else:
            break
    return count


def accumulate(event: EventFile) -> dict[int, Totals]:
    """Per-player totals over every result and castigo entered so far."""
    totals = {n: Totals(n) for n in range(1, len(event.players) + 1)}
    for result in event.results:
        assignment = event.format.assignment(result.round, result.table)
        assert assignment is not None  # an EventFile only holds results of existing tables
        outcome = event.outcome(result)
        for player in assignment.players:
            side = assignment.side_of(player)
            mine = outcome.side(side)
            totals[player].bet_units += mine.bet_units
            if assignment.counts(player):
                totals[player].add(mine, _counting_opponents(assignment, side))
    for penalty in event.penalties:
        totals[penalty.player].penalties += penalty.points
    return totals


def _counting_opponents(assignment: TableAssignment, side: str) -> frozenset[int]:
    """Opponents for whom the game also counted: only they can be met head to head."""
    other = assignment.pair("b" if side == "a" else "a")
    return frozenset(p for p in other if assignment.counts(p))


def head_to_head(player: Totals, tied: Iterable[int]) -> int:
    """The differential of ``player`` in the counting games where a tied rival sat opposite."""
    rivals = frozenset(tied) - {player.player}
    return sum(game.differential for game in player.games if game.opponents & rivals)


def rank(event: EventFile, totals: dict[int, Totals]) -> list[Totals]:
    """The classification order; a total order because the player number settles what is left."""
    if event.target.is_points:

        def primary(t: Totals) -> tuple[int, ...]:
            return (-t.points, -t.games_won, -t.effectiveness_total, -t.points_for, t.points_against)
    else:

        def primary(t: Totals) -> tuple[int, ...]:
            return (-t.games_won,)

    ordered: list[Totals] = []
    for _key, group_iter in groupby(sorted(totals.values(), key=primary), key=primary):
        group = sorted(group_iter, key=lambda t: t.player)
        if len(group) > 1:
            tied = [t.player for t in group]
            group.sort(key=lambda t: (-head_to_head(t, tied), t.player))
        ordered.extend(group)
    return ordered


def compute_standings(event: EventFile) -> Standings:
    totals = accumulate(event)
    order = rank(event, totals)
    complete = rounds_complete(event)
    is_rondas = event.format.is_rondas
    stake = event.stake if is_rondas else Decimal(0)
    settle_extra = is_rondas and event.extra_payment and complete == len(event.format.rounds)
    count = len(order)
    rows: list[StandingRow] = []
    for position, t in enumerate(order, start=1):
        bet = t.bet_units * stake
        extra = Decimal(0)
        if settle_extra:
            if position == 1:
                extra = (count - 2) * stake
            elif position >= 3:
                extra = -stake
        rows.append(
            StandingRow(
                rank=position,
                player=t.player,
                name=event.players[t.player - 1],
                points=t.points,
                games_won=t.games_won,
                effectiveness=t.effectiveness_total,
                points_for=t.points_for,
                points_against=t.points_against,
                penalties=t.penalties,
                bet_value=bet,
                extra_payment=extra,
                money=bet + extra,
            )
        )
    return Standings(rounds_complete=complete, rows=tuple(rows))
