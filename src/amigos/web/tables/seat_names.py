"""The name a computer player goes by: one per seat, so that three computer players at a table are
told apart on the seats, the score sheet and the record (issue 38: all three were "Computadora
(normal)").

Named by where the seat sits (the compass points of a card table, seat 0 in the south and the turn
going east) and by level. The record keeps the name as written, so it is the site's one language
(Spanish) rather than the reader's.
"""

from __future__ import annotations

#: The compass point of each seat, by the number of players.
POINTS = {
    2: ("Sur", "Norte"),
    3: ("Sur", "Este", "Oeste"),
    4: ("Sur", "Este", "Norte", "Oeste"),
}
LEVELS = {"easy": "fácil", "normal": "normal", "hard": "difícil"}


def computer_name(seat: int, players: int, level: str) -> str:
    """``Computadora Norte (difícil)`` for a hard computer player in seat 2 of four."""
    points = POINTS.get(players)
    where = points[seat] if points is not None and 0 <= seat < len(points) else str(seat + 1)
    return f"Computadora {where} ({LEVELS.get(level, level)})"
