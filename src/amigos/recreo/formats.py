"""Event formats and their fixed schedules.

An event's player count decides everything about its shape: 4 to 7 players play *Rondas* at one
table with some players resting each round; 8, 12 or 16 play *Todos con Todos* at 2, 3 or 4 tables.
The pairings are not computed: they are the published ones, transcribed into ``data/schedules.json``
and shipped inside the package so that the rules never depend on files outside it.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

PLAYER_COUNTS: tuple[int, ...] = (4, 5, 6, 7, 8, 12, 16)


class FormatKind(enum.Enum):
    """The two families of events; betting and the extra payment exist only in Rondas."""

    RONDAS = "rondas"
    TODOS_CON_TODOS = "todos_con_todos"


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """Who plays at one table in one round.

    ``counts_for`` is every seated player except the two repeaters of a non-counting game, whose
    result only settles the bet.
    """

    round: int
    table: int
    pair_a: tuple[int, int]
    pair_b: tuple[int, int]
    counts_for: frozenset[int]

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (*self.pair_a, *self.pair_b)

    def side_of(self, player: int) -> str:
        """``"a"`` or ``"b"``; a player who is not seated here is a caller's bug."""
        if player in self.pair_a:
            return "a"
        if player in self.pair_b:
            return "b"
        raise ValueError(f"player {player} does not play at round {self.round} table {self.table}")

    def pair(self, side: str) -> tuple[int, int]:
        return self.pair_a if side == "a" else self.pair_b

    def counts(self, player: int) -> bool:
        return player in self.counts_for


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[TableAssignment, ...]
    resting: tuple[int, ...]
    seats: dict[str, int] | None

    def table(self, number: int) -> TableAssignment | None:
        for table in self.tables:
            if table.table == number:
                return table
        return None


@dataclass(frozen=True, slots=True)
class Format:
    """One of the seven formats, with its whole schedule."""

    players: int
    kind: FormatKind
    rounds: tuple[Round, ...]
    scorekeepers: tuple[int, ...]

    @property
    def is_rondas(self) -> bool:
        return self.kind is FormatKind.RONDAS

    @property
    def tables_per_round(self) -> int:
        return len(self.rounds[0].tables)

    def round(self, number: int) -> Round | None:
        if 1 <= number <= len(self.rounds):
            return self.rounds[number - 1]
        return None

    def assignment(self, round_number: int, table: int) -> TableAssignment | None:
        found = self.round(round_number)
        return None if found is None else found.table(table)


def _pair(raw: Any) -> tuple[int, int]:
    first, second = raw
    return (int(first), int(second))


def _build_round(raw: dict[str, Any]) -> Round:
    number = int(raw["round"])
    counts_for = frozenset(int(p) for p in raw["counts_for"])
    tables = tuple(
        TableAssignment(
            round=number,
            table=int(t["table"]),
            pair_a=_pair(t["pair_a"]),
            pair_b=_pair(t["pair_b"]),
            counts_for=counts_for & frozenset((*t["pair_a"], *t["pair_b"])),
        )
        for t in raw["tables"]
    )
    seats = raw.get("seats")
    return Round(
        number=number,
        tables=tables,
        resting=tuple(int(p) for p in raw["resting"]),
        seats=None if seats is None else {str(k): int(v) for k, v in seats.items()},
    )


@cache
def _load() -> dict[int, Format]:
    text = resources.files("amigos.recreo").joinpath("data/schedules.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    keepers = {int(k): tuple(v) for k, v in raw["_meta"]["scorekeepers_required"].items()}
    formats: dict[int, Format] = {}
    for family, kind in (("rondas", FormatKind.RONDAS), ("todos_con_todos", FormatKind.TODOS_CON_TODOS)):
        for count, rounds in raw[family].items():
            n = int(count)
            formats[n] = Format(
                players=n,
                kind=kind,
                rounds=tuple(_build_round(r) for r in rounds),
                scorekeepers=keepers.get(n, ()),
            )
    return formats


def format_for(players: int) -> Format:
    """The format for this many players; ``KeyError`` if the count is not one of the seven."""
    return _load()[players]


def all_formats() -> tuple[Format, ...]:
    return tuple(_load()[n] for n in PLAYER_COUNTS)
