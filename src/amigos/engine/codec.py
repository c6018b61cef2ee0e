"""The engine's values as JSON: one module for the formats, apart from the values themselves.

The rules' values (a line, a seat's view, an outcome, a score sheet, a replay's report) know
nothing of how they travel. Their JSON forms, the ones the record format's `amigos replay` output,
the table protocol and the replay portal rely on (docs/record-format.md, docs/protocol.md), are
written here once, as python-chess keeps its notations apart from its board. Tiles are written as
``"a-b"`` text and arms by their names.
"""

from __future__ import annotations

from typing import Any

from .line import Line, Placement
from .notation import move_notation
from .outcome import HandOutcome
from .replay import HandReport, ReplayReport
from .scoresheet import ScoreSheet
from .state import Event, PassEvent, PlayEvent
from .tiles import sort_tiles
from .view import SeatView

__all__ = [
    "hand_report_json",
    "line_json",
    "move_json",
    "outcome_json",
    "placement_json",
    "replay_json",
    "sheet_json",
    "view_json",
]


def placement_json(placement: Placement) -> dict[str, Any]:
    """One tile on the table: the tile, its arm (None for the lead) and the halves in and out."""
    return {
        "tile": str(placement.tile),
        "arm": None if placement.arm is None else placement.arm.value,
        "inner": placement.inner,
        "outer": placement.outer,
    }


def line_json(line: Line) -> dict[str, Any]:
    """The line of play: its kind, its tiles in the order laid, its open ends and the spinner."""
    return {
        "kind": "spinner" if line.with_spinner else "two-ended",
        "placements": [placement_json(placement) for placement in line.placements],
        "ends": {arm.value: value for arm, value in line.ends},
        "spinner": None if line.spinner is None else str(line.spinner),
        "count": line.count(),
    }


def outcome_json(outcome: HandOutcome) -> dict[str, Any]:
    """How a hand ended and what it was worth."""
    return {
        "end": outcome.end.value,
        "winner": outcome.winner,
        "points": outcome.points,
        "closer": outcome.closer,
        "remaining": list(outcome.remaining),
        "side_remaining": list(outcome.side_remaining),
        "capicua": outcome.capicua,
        "viajera": outcome.viajera,
    }


def move_json(event: Event) -> dict[str, Any]:
    """One move of a hand's history, with the ends it left: a play (and its points), a pass, or a
    draw (its tile only when the reader may see it)."""
    if isinstance(event, PlayEvent):
        play = event.play
        return {
            "type": "play",
            "seat": event.seat,
            "tile": str(play.tile),
            "arm": None if play.arm is None else play.arm.value,
            "lead_left": play.lead_left,
            "points": event.points,
            "ends": list(event.ends),
        }
    if isinstance(event, PassEvent):
        return {"type": "pass", "seat": event.seat, "ends": list(event.ends)}
    return {"type": "draw", "seat": event.seat, "tile": None if event.tile is None else str(event.tile)}


def view_json(view: SeatView) -> dict[str, Any]:
    """What one seat (or a spectator) may see of a hand: the protocol's ``view`` object.

    Only the seat's own tiles are written; the others' appear only once the hand is over
    (``revealed``).
    """
    legal = view.legal_actions()
    return {
        "variant": view.variant.name,
        "players": view.variant.players,
        "seat": view.seat,
        "hand": [str(tile) for tile in sort_tiles(view.hand)],
        "hand_sizes": list(view.hand_sizes),
        "line": line_json(view.line),
        "to_move": view.to_move,
        "leader": view.leader,
        "history": [move_json(event) for event in view.history],
        "boneyard_size": view.boneyard_size,
        "play_points": list(view.play_points),
        "legal_actions": [move_notation(view.line, action) for action in legal],
        "outcome": None if view.outcome is None else outcome_json(view.outcome),
        "revealed": None
        if view.revealed is None
        else [[str(tile) for tile in sort_tiles(hand)] for hand in view.revealed],
    }


def sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    """A match's score sheet as written: rows of cells, marks and the totals shown."""
    return {
        "variant": sheet.variant.name,
        "sides": [list(names) for names in sheet.sides],
        "rows": [{"hand": row.hand, "cells": list(row.cells), "mark": row.mark} for row in sheet.rows],
        "totals": list(sheet.totals),
        "shown_totals": list(sheet.shown_totals),
        "no_score": list(sheet.no_score),
        "winner": sheet.winner,
    }


def hand_report_json(hand: HandReport) -> dict[str, Any]:
    """One hand of a replay's report."""
    return {"end": hand.end, "winner": hand.winner, "points": hand.points, "score": list(hand.score)}


def replay_json(report: ReplayReport) -> dict[str, Any]:
    """The JSON object `amigos replay` prints for a record (docs/record-format.md).

    A record of a live table (with any extension field) adds ``termination``, ``deals_verified``
    and ``voided`` (each voided deal, checked: its hand, the seat that asked for a new deal, its key
    and identity); a plain record's output is exactly the format's.
    """
    obj: dict[str, Any] = {
        "variant": report.variant_name,
        "hands": [hand_report_json(hand) for hand in report.hands],
        "complete": report.complete,
        "winner": report.winner,
        "score": list(report.score),
    }
    if report.extended:
        obj["termination"] = None if report.termination is None else report.termination.value
        obj["deals_verified"] = report.deals_verified
        obj["voided"] = [
            {"hand": number, "seat": deal.seat, "key": deal.key, "hand_id": deal.hand_id}
            for number, deal in report.voided
        ]
    return obj
