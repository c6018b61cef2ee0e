"""An independent referee for Recreo standings, written apart from ``amigos.recreo``.

It shares no code with the package (it does not import ``amigos``) and is built differently on
purpose: the schedules are typed again here from the rule book's tables rather than read from the
package's data file, every metric is computed by re-scanning the flat list of results, and ties are
resolved by comparing whole key tuples. If both implementations agree on many random events, a
mistake would have to be made twice in the same way.
"""

from __future__ import annotations

from typing import Any

# Each round: "a1 a2 v b1 b2" per table, tables separated by "|". Pair order as the rule book writes
# it (for the Rondas diagrams: top and bottom, then left and right).
_RONDAS_TEXT = {
    4: ["1 2 v 3 4", "1 3 v 4 2", "1 4 v 2 3"],
    5: ["1 2 v 3 4", "1 3 v 4 5", "1 4 v 5 2", "1 5 v 2 3", "3 5 v 2 4"],
    6: [
        "1 4 v 3 5",
        "1 2 v 5 6",
        "1 6 v 4 3",
        "2 5 v 3 6",
        "1 5 v 2 4",
        "1 3 v 6 4",
        "4 5 v 6 2",
        "1 4 v 3 2",
    ],
    7: [
        "1 3 v 2 4",
        "4 6 v 5 7",
        "1 2 v 3 5",
        "4 7 v 5 6",
        "1 5 v 2 6",
        "4 5 v 3 7",
        "1 6 v 3 4",
        "2 5 v 3 6",
        "6 7 v 2 3",
        "1 4 v 2 7",
        "1 7 v 3 6",
    ],
}
# The two repeated games that only settle the bet: (players, round) -> repeaters.
REPEATERS = {(6, 8): {1, 4}, (7, 11): {3, 6}}

_TCT_TEXT = {
    8: [
        "1 2 v 3 4 | 5 6 v 7 8",
        "1 3 v 5 7 | 2 4 v 6 8",
        "1 4 v 5 8 | 2 3 v 6 7",
        "1 5 v 2 6 | 3 7 v 4 8",
        "1 6 v 2 7 | 3 8 v 4 5",
        "1 7 v 4 6 | 2 8 v 3 5",
        "1 8 v 3 6 | 2 5 v 4 7",
    ],
    12: [
        "1 2 v 3 4 | 5 6 v 7 8 | 9 10 v 11 12",
        "5 7 v 2 4 | 1 3 v 10 12 | 9 11 v 6 8",
        "1 4 v 6 7 | 5 8 v 10 11 | 9 12 v 2 3",
        "1 5 v 2 6 | 3 9 v 4 10 | 7 11 v 8 12",
        "1 6 v 8 11 | 3 10 v 2 5 | 7 12 v 4 9",
        "1 7 v 4 12 | 3 11 v 6 9 | 5 10 v 2 8",
        "1 8 v 5 9 | 3 12 v 6 10 | 2 7 v 4 11",
        "1 9 v 5 11 | 3 7 v 4 8 | 2 10 v 6 12",
        "1 10 v 4 7 | 3 8 v 6 11 | 5 12 v 2 9",
        "1 11 v 8 10 | 3 5 v 2 12 | 7 9 v 4 6",
        "1 12 v 8 9 | 3 6 v 2 11 | 7 10 v 4 5",
    ],
    16: [
        "1 2 v 3 4 | 5 6 v 7 8 | 9 10 v 11 12 | 13 14 v 15 16",
        "1 3 v 2 4 | 5 7 v 6 8 | 9 11 v 10 12 | 13 15 v 14 16",
        "1 4 v 2 3 | 5 8 v 6 7 | 9 12 v 10 11 | 13 16 v 14 15",
        "1 5 v 9 13 | 2 6 v 10 14 | 3 7 v 11 15 | 4 8 v 12 16",
        "1 9 v 5 13 | 2 10 v 6 14 | 3 11 v 7 15 | 4 12 v 8 16",
        "1 13 v 5 9 | 2 14 v 6 10 | 3 15 v 7 11 | 4 16 v 8 12",
        "1 6 v 11 16 | 2 5 v 12 15 | 3 8 v 9 14 | 4 7 v 10 13",
        "1 11 v 6 16 | 2 12 v 5 15 | 3 9 v 8 14 | 4 10 v 7 13",
        "1 16 v 6 11 | 2 15 v 5 12 | 3 14 v 8 9 | 4 13 v 7 10",
        "1 7 v 12 14 | 2 8 v 11 13 | 3 5 v 10 16 | 4 6 v 9 15",
        "1 12 v 7 14 | 2 11 v 8 13 | 3 10 v 5 16 | 4 9 v 6 15",
        "1 14 v 7 12 | 2 13 v 8 11 | 3 16 v 5 10 | 4 15 v 6 9",
        "1 8 v 10 15 | 2 7 v 9 16 | 3 6 v 12 13 | 4 5 v 11 14",
        "1 10 v 8 15 | 2 9 v 7 16 | 3 12 v 6 13 | 4 11 v 5 14",
        "1 15 v 8 10 | 2 16 v 7 9 | 3 13 v 6 12 | 4 14 v 5 11",
    ],
}


def schedule(n: int) -> list[list[tuple[list[int], list[int]]]]:
    """rounds -> tables -> (pair_a, pair_b), as lists of player numbers."""
    text = _RONDAS_TEXT.get(n) or _TCT_TEXT[n]
    rounds = []
    for line in text:
        tables = []
        for chunk in line.split("|"):
            left, right = chunk.split("v")
            tables.append(([int(x) for x in left.split()], [int(x) for x in right.split()]))
        rounds.append(tables)
    return rounds


def _units(loser: int, m: int) -> int:
    if loser == 0:
        return 3
    return 2 if 2 * loser <= m else 1


def _match(target: Any, res: dict[str, Any]) -> dict[str, Any]:
    """Per-side values of one result: winner side plus a dict per side."""
    sa, sb = res["score"]
    end = res.get("end", "target")
    if end == "default":  # the pair that did not forfeit wins, whatever the score
        winner = {"a": "b", "b": "a"}[res["offender"]]
    elif sa > sb:
        winner = "a"
    else:
        winner = "b"
    w_score, l_score = (sa, sb) if winner == "a" else (sb, sa)
    loser = "b" if winner == "a" else "a"
    if target == "hands":
        diff = w_score - l_score
        win = {"pts": 0, "jg": 1, "af": 0, "ec": 0, "ef": 0, "bet": 1, "h2h": diff}
        lose = {"pts": 0, "jg": 0, "af": 0, "ec": 0, "ef": 0, "bet": -1, "h2h": -diff}
    elif end == "suspended":
        d = w_score - l_score
        win = {"pts": 1, "jg": 1, "af": w_score, "ec": l_score, "ef": d, "bet": 1, "h2h": d}
        lose = {"pts": 0, "jg": 0, "af": l_score, "ec": w_score, "ef": -d, "bet": -1, "h2h": -d}
    else:
        m = target
        u = _units(l_score, m)
        d = m - l_score
        win = {"pts": u, "jg": 1, "af": m, "ec": l_score, "ef": d, "bet": u, "h2h": d}
        lose = {"pts": 0, "jg": 0, "af": l_score, "ec": m, "ef": -d, "bet": -u, "h2h": -d}
    return {winner: win, loser: lose}


def _number(x: float) -> Any:
    return int(x) if float(x).is_integer() else x


def _prepare(event: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Per-player stats, the ranking key of a player, and the head-to-head differential function."""
    n = len(event["players"])
    target = event["target"]
    sched = schedule(n)
    results = event["results"]

    # Flatten every (player, game) appearance once: who, which round, which side, opponents, values.
    rows = []
    for res in results:
        rnd, tbl = res["round"], res["table"]
        pa, pb = sched[rnd - 1][tbl - 1]
        vals = _match(target, res)
        repeaters = REPEATERS.get((n, rnd), set())
        for side, mine, theirs in (("a", pa, pb), ("b", pb, pa)):
            for p in mine:
                rows.append(
                    {
                        "p": p,
                        "counts": p not in repeaters,
                        "opp": [q for q in theirs if q not in repeaters],
                        "v": vals[side],
                    }
                )

    def total(p: int, key: str, counting_only: bool = True) -> int:
        return sum(r["v"][key] for r in rows if r["p"] == p and (r["counts"] or not counting_only))

    castigo = {p: 0 for p in range(1, n + 1)}
    for pen in event.get("penalties", []):
        castigo[pen["player"]] += pen["points"]

    stats = {}
    for p in range(1, n + 1):
        stats[p] = {
            "points": total(p, "pts"),
            "games_won": total(p, "jg"),
            "effectiveness": total(p, "ef") - castigo[p],
            "points_for": total(p, "af"),
            "points_against": total(p, "ec"),
            "penalties": castigo[p],
            "bet": total(p, "bet", counting_only=False),
        }

    def keys(p: int) -> tuple[int, ...]:
        s = stats[p]
        if target == "hands":
            return (s["games_won"],)
        return (s["points"], s["games_won"], s["effectiveness"], s["points_for"], -s["points_against"])

    def h2h(p: int, tied: list[int]) -> int:
        return sum(
            r["v"]["h2h"]
            for r in rows
            if r["p"] == p and r["counts"] and any(q in tied and q != p for q in r["opp"])
        )

    return stats, keys, h2h


def referee_standings(event: dict[str, Any]) -> dict[str, Any]:
    """The standings of a VALID event file, as ``amigos recreo standings`` must print them."""
    names = event["players"]
    n = len(names)
    rondas = n <= 7
    stake = event.get("stake", 0) if rondas else 0
    sched = schedule(n)
    results = event["results"]
    stats, keys, h2h = _prepare(event)

    # Best first: for each player, count how many others beat them.
    def beats(q: int, p: int) -> bool:
        if keys(q) != keys(p):
            return keys(q) > keys(p)
        tied = [x for x in range(1, n + 1) if keys(x) == keys(p)]
        hq, hp = h2h(q, tied), h2h(p, tied)
        if hq != hp:
            return hq > hp
        return q < p

    position = {p: 1 + sum(beats(q, p) for q in range(1, n + 1) if q != p) for p in range(1, n + 1)}
    assert sorted(position.values()) == list(range(1, n + 1)), "the order must be total"

    played = {(r["round"], r["table"]) for r in results}
    complete = 0
    for rnd_index, tables in enumerate(sched, start=1):
        if all((rnd_index, t) in played for t in range(1, len(tables) + 1)):
            complete += 1
        else:
            break
    extra_on = rondas and event.get("extra_payment", False) and complete == len(sched)

    out = []
    for p in sorted(position, key=lambda x: position[x]):
        s = stats[p]
        rank = position[p]
        extra = 0
        if extra_on:
            extra = (n - 2) * stake if rank == 1 else (0 if rank == 2 else -stake)
        bet = s["bet"] * stake
        out.append(
            {
                "rank": rank,
                "player": p,
                "name": names[p - 1],
                "points": s["points"],
                "games_won": s["games_won"],
                "effectiveness": s["effectiveness"],
                "points_for": s["points_for"],
                "points_against": s["points_against"],
                "penalties": s["penalties"],
                "bet_value": _number(bet),
                "extra_payment": _number(extra),
                "money": _number(bet + extra),
            }
        )
    return {"rounds_complete": complete, "standings": out}


def tie_breaks_used(event: dict[str, Any]) -> set[str]:
    """Which last-resort rules split some tied group: "h2h" (differential) and/or "number"."""
    _stats, keys, h2h = _prepare(event)
    n = len(event["players"])
    groups: dict[tuple[int, ...], list[int]] = {}
    for p in range(1, n + 1):
        groups.setdefault(keys(p), []).append(p)
    used: set[str] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        values = [h2h(p, members) for p in members]
        if len(set(values)) > 1:
            used.add("h2h")
        if len(set(values)) < len(values):
            used.add("number")
    return used
