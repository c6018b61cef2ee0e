"""Small builders shared by the Recreo tests."""

from __future__ import annotations

from typing import Any

from amigos.recreo.event import EventFile, event_from_dict
from amigos.recreo.standings import Standings, compute_standings


def event_dict(players: int, results: list[Any], **fields: Any) -> dict[str, Any]:
    """An event file as a dict; ``results`` items are dicts or (round, table, a, b) tuples."""
    items = [
        r if isinstance(r, dict) else {"round": r[0], "table": r[1], "score": [r[2], r[3]]} for r in results
    ]
    base: dict[str, Any] = {
        "format": "amigos-event/1",
        "name": "Prueba",
        "origin": "Club",
        "date": "2026-11-21",
        "players": [f"P{i}" for i in range(1, players + 1)],
        "target": 100,
        "stake": 0,
        "extra_payment": False,
        "results": items,
        "penalties": [],
    }
    base.update(fields)
    return base


def build(players: int, results: list[Any], **fields: Any) -> EventFile:
    return event_from_dict(event_dict(players, results, **fields))


def standings(players: int, results: list[Any], **fields: Any) -> Standings:
    return compute_standings(build(players, results, **fields))


def row(table: Standings, player: int) -> dict[str, Any]:
    return next(r.as_dict() for r in table.rows if r.player == player)
