"""Move notation of match records: ``"6-4"``, ``"5-3@3"`` (two-ended lines), ``"6-6@left"``
(spinner lines) and ``"pass"``.

In two-ended lines ``@v`` names the value of the open end the tile joins; it is needed only when
the tile fits two ends showing different values. In spinner lines ``@arm`` names the arm; it is
needed whenever the tile fits more than one open arm. The lead of a spinner game is written with
the half facing left first.

The notation needs only the variant (its set and its kind of line) and the line of play, never
the hand state, so the hand state can use it without an import cycle.
"""

from __future__ import annotations

import re

from .actions import Action, Arm, IllegalAction, Pass, Play
from .line import Line
from .tiles import Tile
from .variants import Variant

_MOVE = re.compile(r"([0-9])-([0-9])(?:@([a-z0-9]+))?")
_ARMS = {arm.value: arm for arm in Arm}


def parse_move(variant: Variant, line: Line, text: str) -> Action:
    """The action written as ``text`` at ``line`` in ``variant`` (see the module docstring)."""
    if not isinstance(text, str):
        raise IllegalAction("a move must be text", "bad_notation")
    if text == "pass":
        return Pass()
    match = _MOVE.fullmatch(text)
    if match is None:
        raise IllegalAction(f"not a move: {text[:40]!r}", "bad_notation")
    first, second, where = int(match.group(1)), int(match.group(2)), match.group(3)
    max_pip = variant.max_pip
    if first > max_pip or second > max_pip:
        raise IllegalAction(f"{first}-{second} is not a tile of the double-{max_pip} set", "not_a_tile")
    tile = Tile(first, second)
    if line.is_empty:
        if where is not None:
            raise IllegalAction("the lead takes no position", "arm_not_allowed")
        if variant.spinner and not tile.is_double:
            return Play(tile, None, first)
        return Play(tile)
    if variant.spinner:
        return Play(tile, _spinner_arm(line, tile, where))
    return Play(tile, _two_ended_arm(line, tile, where))


def _spinner_arm(line: Line, tile: Tile, where: str | None) -> Arm:
    if where is not None:
        arm = _ARMS.get(where)
        if arm is None:
            raise IllegalAction(f"unknown arm: {where} (left, right, up or down)", "bad_notation")
        return arm
    fits = line.fits(tile)
    if not fits:
        raise IllegalAction(f"{tile} does not fit the open ends {_ends_text(line)}", "does_not_fit")
    if len(fits) > 1:
        names = ", ".join(f"@{arm}" for arm in fits)
        raise IllegalAction(f"{tile} fits several arms: say which ({names})", "arm_needed")
    return fits[0]


def _two_ended_arm(line: Line, tile: Tile, where: str | None) -> Arm:
    fits = line.fits(tile)
    if where is not None:
        if not where.isdigit() or len(where) != 1:
            raise IllegalAction(f"@{where} is not an end value", "bad_notation")
        value = int(where)
        fits = tuple(arm for arm in fits if line.end(arm) == value)
        if not fits:
            raise IllegalAction(f"{tile} cannot join an open end showing {value}", "does_not_fit")
    if not fits:
        raise IllegalAction(f"{tile} does not fit the open ends {_ends_text(line)}", "does_not_fit")
    if len(fits) == 1:
        return fits[0]
    values = {line.end(arm) for arm in fits}
    if len(values) == 1:
        return line.mandated_arm()
    a, b = sorted(value for value in values if value is not None)
    raise IllegalAction(f"{tile} fits both ends: missing @{a} or @{b}", "arm_needed")


def move_notation(line: Line, action: Action) -> str:
    """The canonical notation of ``action`` at ``line``: positions written only where needed."""
    if isinstance(action, Pass):
        return "pass"
    tile = action.tile
    if action.arm is None:
        return str(action)
    fits = line.fits(tile)
    if line.with_spinner:
        return f"{tile}@{action.arm}" if len(fits) > 1 else str(tile)
    values = {line.end(arm) for arm in fits}
    if len(values) > 1:
        return f"{tile}@{line.end(action.arm)}"
    return str(tile)


def _ends_text(line: Line) -> str:
    return " and ".join(str(value) for value in line.open_ends())
