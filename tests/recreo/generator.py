"""Random VALID event files for comparing the standings command with the referee.

Seeded and steered: roughly half of the events draw their results from a tiny set of scores so that
players end up level on every numeric key and only the head-to-head differential or the player
number can separate them; others stop part-way through a round, suspend matches, apply defaults or
castigos, and every format and target is visited.
"""

from __future__ import annotations

import random
from typing import Any

from tests.recreo.referee import schedule

PLAYER_COUNTS = (4, 5, 6, 7, 8, 12, 16)
TARGETS: tuple[Any, ...] = (100, 200, "hands")
_NAMES = ("Ana", "Beto", "Caro", "Dani", "Eva", "Fer", "Gus", "Ñoño")
_HANDS_FINALS = ((4, 0), (4, 1), (4, 2), (5, 3), (6, 4), (7, 5))


def _hands_open(a: int, b: int) -> bool:
    return not ((a >= 4 and a - b >= 2) or (b >= 4 and b - a >= 2))


def _points_result(rng: random.Random, m: int, level: bool) -> dict[str, Any]:
    roll = rng.random()
    if level:
        won, lost = m, rng.choice((0, m // 2))
        end = "target"
    elif roll < 0.7:
        lost = rng.choice((0, 1, m // 2, m // 2 + 1, m - 1, rng.randrange(0, m)))
        won = m + rng.randrange(0, 45)
        end = "target"
    elif roll < 0.85:
        won = rng.randrange(1, m)
        lost = rng.randrange(0, won)
        end = "suspended"
    else:
        a, b = rng.randrange(0, m), rng.randrange(0, m)
        if rng.random() < 0.2:
            b = a
        return {"score": [a, b], "end": "default", "offender": rng.choice("ab")}
    score = [won, lost] if rng.random() < 0.5 else [lost, won]
    result: dict[str, Any] = {"score": score}
    if end != "target" or rng.random() < 0.3:
        result["end"] = end
    return result


def _hands_result(rng: random.Random, level: bool) -> dict[str, Any]:
    roll = rng.random()
    if level or roll < 0.7:
        won, lost = (4, 0) if level else rng.choice(_HANDS_FINALS)
        return {"score": [won, lost] if rng.random() < 0.5 else [lost, won]}
    while True:
        a, b = rng.randrange(0, 7), rng.randrange(0, 7)
        if _hands_open(a, b):
            break
    if roll < 0.85 and a != b:
        return {"score": [a, b], "end": "suspended"}
    return {"score": [a, b], "end": "default", "offender": rng.choice("ab")}


def random_event(rng: random.Random, players: int | None = None, target: Any = None) -> dict[str, Any]:
    n = players if players is not None else rng.choice(PLAYER_COUNTS)
    tgt = target if target is not None else rng.choice(TARGETS)
    sched = schedule(n)
    level = rng.random() < 0.5
    shape = rng.random()
    if shape < 0.45:
        last_round, tables_in_last = len(sched), len(sched[-1])
    else:
        last_round = rng.randrange(1, len(sched) + 1)
        tables_in_last = rng.randrange(0, len(sched[last_round - 1]) + 1)
    results: list[dict[str, Any]] = []
    for rnd in range(1, last_round + 1):
        tables = range(1, len(sched[rnd - 1]) + 1)
        if rnd == last_round:
            in_order = rng.random() < 0.5
            tables = range(1, tables_in_last + 1) if in_order else rng.sample(tables, tables_in_last)
        for table in tables:
            body = _hands_result(rng, level) if tgt == "hands" else _points_result(rng, tgt, level)
            results.append({"round": rnd, "table": table, **body})
    if rng.random() < 0.3:
        rng.shuffle(results)
    penalties = []
    if rng.random() < (0.25 if level or tgt == "hands" else 0.5):
        for _ in range(rng.randrange(1, 4)):
            penalties.append(
                {
                    "round": rng.randrange(1, len(sched) + 1),
                    "player": rng.randrange(1, n + 1),
                    "points": rng.choice((5, 10, 15, rng.randrange(0, 40))),
                }
            )
    return {
        "format": "amigos-event/1",
        "name": f"Recreo {rng.randrange(1000)}",
        "origin": rng.choice(("Club Roma", "Casa de Ana", "Parque México")),
        "date": "2026-11-21",
        "players": [f"{rng.choice(_NAMES)} {i}" for i in range(n)],
        "target": tgt,
        "stake": rng.choice((0, 1, 5, 10, 2.5)),
        "extra_payment": rng.random() < 0.6,
        "results": results,
        "penalties": penalties,
    }
