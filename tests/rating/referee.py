"""An independent reading of RATING-FORMAT.md, written from the text alone, never importing amigos.

Deliberately naive: it recounts every player's rank from scratch before every match, and follows
the PP and PT tables of the spec line by line (the project's code uses arithmetic on the quintile
difference and a sorted index). The two agreeing on generated sequences is the check.
"""

from __future__ import annotations

from typing import Any

TARGETS = {"amigos-100": 100, "amigos-200": 200}


def _quintiles(pr: dict[str, int]) -> dict[str, int]:
    everyone = list(pr.values())
    total = len(everyone)
    result = {}
    for name, points in pr.items():
        above = len([other for other in everyone if other > points])
        result[name] = (above * 5) // total + 1
    return result


def _winner(match: dict[str, Any]) -> int:
    a, b = match["score"]
    if match["variant"] == "amigos-hands":
        return 0 if a > b else 1
    target = TARGETS[match["variant"]]
    return 0 if a >= target else 1


def _pp(match: dict[str, Any], won: bool) -> int:
    if match["variant"] == "amigos-hands":
        return 0
    target = TARGETS[match["variant"]]
    loser_total = match["score"][1 - _winner(match)]
    d = target - loser_total
    if won:
        if d > 50:
            return 3
        if d >= 10:
            return 2
        return 1
    if d > 50:
        return -2
    if d >= 10:
        return -1
    return 0


def _pt(mine: int, theirs: int, won: bool) -> int:
    # The spec's table: beating someone 1, 2, 3 or 4 quintiles above gives 2, 3, 4 or 5; beating the
    # same or a lower quintile gives 1. Losing to someone below costs the distance; else nothing.
    if won:
        table = {1: 2, 2: 3, 3: 4, 4: 5}
        return table.get(mine - theirs, 1)
    if theirs > mine:
        return mine - theirs
    return 0


def referee_rating(data: dict[str, Any]) -> dict[str, Any]:
    """The output `amigos rating` should print for a valid input ``data``."""
    pr = {name: 0 for name in data["players"]}
    counted = {name: 0 for name in data["players"]}
    for match in data["matches"]:
        if match.get("complete", True) is False:
            continue
        q = _quintiles(pr)
        winner = _winner(match)
        new = dict(pr)
        for side in (0, 1):
            won = side == winner
            for player in match["teams"][side]:
                gain = 1 + _pp(match, won)
                for opponent in match["teams"][1 - side]:
                    gain += _pt(q[player], q[opponent], won)
                new[player] = pr[player] + gain
                counted[player] += 1
        pr = new
    q = _quintiles(pr)
    return {
        "players": [
            {"name": name, "pr": pr[name], "quintile": q[name], "matches": counted[name]}
            for name in data["players"]
        ]
    }
