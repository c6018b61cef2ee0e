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
LEVELS = {"easy": "fácil", "normal": "normal", "hard": "difícil", "expert": "experto"}


def _point(seat: int, players: int) -> str:
    """The seat's compass point (its number, counted from 1, at a table of another size)."""
    points = POINTS.get(players)
    return points[seat] if points is not None and 0 <= seat < len(points) else str(seat + 1)


def computer_name(seat: int, players: int, level: str) -> str:
    """``Computadora Norte (difícil)`` for a hard computer player in seat 2 of four."""
    return f"Computadora {_point(seat, players)} ({LEVELS.get(level, level)})"


def computer_label(seat: int, players: int, level: str) -> str:
    """The same name in the reader's language, for pages rendered for one reader (the lobby's list
    of tables): "Computer North (hard)" in English. What every audience of a table shares (its
    seats and its record) keeps `computer_name`."""
    from django.utils.translation import gettext as _

    where = _point(seat, players)
    words = {
        "Sur": _("South"),
        "Norte": _("North"),
        "Este": _("East"),
        "Oeste": _("West"),
        "fácil": _("easy"),
        "normal": _("normal"),
        "difícil": _("hard"),
        "experto": _("expert"),
    }
    named = LEVELS.get(level, level)
    return _("Computer %(point)s (%(level)s)") % {
        "point": words.get(where, where),
        "level": words.get(named, named),
    }
