"""Standings as CSV that a spreadsheet opens safely and a terminal prints safely.

A player's name is text typed by the organizer (or read from a file someone sent). Written raw, a
name like ``=HYPERLINK(...)`` or ``@SUM(A1)`` becomes a formula when the CSV is opened in a
spreadsheet, and a name holding ESC sequences repaints the terminal that prints it. Text cells are
therefore neutralised: a leading formula character gets an apostrophe in front (what spreadsheets
themselves do to show text), and control characters are written as visible ``\\xNN`` escapes.
Numbers are written as numbers (a negative efectividad keeps its minus).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from amigos.recreo.standings import ROW_KEYS

#: What starts a formula (or a DDE call) in the common spreadsheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "|")


def _visible(char: str) -> str:
    if unicodedata.category(char) in ("Cc", "Cf") and char not in ("\u200d",):
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return char


def safe_text(value: str) -> str:
    """``value`` as a CSV text cell that is never a formula and holds no control characters."""
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    return "".join(_visible(char) for char in value)


def safe_cell(value: Any) -> Any:
    return safe_text(value) if isinstance(value, str) else value


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The standings rows (``StandingRow.as_dict()``) as CSV with a header line."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(ROW_KEYS), lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: safe_cell(value) for key, value in row.items()} for row in rows)
    return out.getvalue()
