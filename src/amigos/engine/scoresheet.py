"""The score sheet (plantilla de anotación): what each hand wrote, the totals, the winner.

The sheet is laid out here; what each hand writes, and how the totals read, is asked of the
variant (:meth:`Variant.sheet_cells`, :meth:`Variant.sheet_mark`, :meth:`Variant.shown_totals`):
the award on the winners' side and a 0 for a tied block in the points games, the new count of
hands won (20, 40, 60, Ventaja) and a "C" for a block in juegos ganados, every player's points in
the draw games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .outcome import HandResult
from .variants import Variant


@dataclass(frozen=True, slots=True)
class SheetRow:
    """What one hand (numbered from 1) wrote: a cell per side ("" for nothing) and, in juegos
    ganados, the "C" mark of a block."""

    hand: int
    cells: tuple[str, ...]
    mark: str = ""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A whole sheet. ``totals`` are as counted; ``shown_totals`` as written on the sheet."""

    variant: Variant
    sides: tuple[tuple[str, ...], ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    shown_totals: tuple[str, ...]
    no_score: tuple[str, ...]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name,
            "sides": [list(names) for names in self.sides],
            "rows": [{"hand": row.hand, "cells": list(row.cells), "mark": row.mark} for row in self.rows],
            "totals": list(self.totals),
            "shown_totals": list(self.shown_totals),
            "no_score": list(self.no_score),
            "winner": self.winner,
        }


def build_sheet(
    variant: Variant,
    players: Sequence[str],
    hands: Sequence[HandResult],
    official_score: Sequence[int],
    winner: int | None,
) -> ScoreSheet:
    """The sheet of a match so far, from its hands (``Match.sheet()`` is the usual way in).

    It takes the match's parts rather than the match so that the sheet never imports the match,
    which keeps the two modules free of an import cycle.
    """
    sides = tuple(tuple(players[seat] for seat in variant.seats_of(side)) for side in range(variant.sides))
    rows: list[SheetRow] = []
    no_score: list[str] = []
    won = [0] * variant.sides
    totals = [0] * variant.sides
    for number, result in enumerate(hands, start=1):
        for side, points in enumerate(result.points):
            totals[side] += points
        if result.outcome.winner is not None:
            won[result.outcome.winner] += 1
        mark = variant.sheet_mark(result)
        if mark:
            no_score.append(mark)
        rows.append(SheetRow(hand=number, cells=variant.sheet_cells(result, tuple(won)), mark=mark))
    shown = variant.shown_totals(official_score, tuple(won))
    return ScoreSheet(
        variant=variant,
        sides=sides,
        rows=tuple(rows),
        totals=tuple(totals),
        shown_totals=tuple(shown),
        no_score=tuple(no_score),
        winner=winner,
    )
