"""Move notation of match records: ``"6-4"``, ``"5-3@3"`` (two-ended lines), ``"6-6@left"``
(spinner lines) and ``"pass"``.

In two-ended lines ``@v`` names the value of the open end the tile joins; it is needed only when
the tile fits two ends showing different values. In spinner lines ``@arm`` names the arm; it is
needed whenever the tile fits more than one open arm. The lead of a spinner game is written with
the half facing left first.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .actions import Action, Arm, IllegalAction, Pass, Play
from .tiles import Tile

if TYPE_CHECKING:
    from .state import HandState

_MOVE = re.compile(r"([0-9])-([0-9])(?:@([a-z0-9]+))?")
_ARMS = {arm.value: arm for arm in Arm}


def parse_move(state: HandState, text: str) -> Action:
    """The action written as ``text`` in ``state`` (see the module docstring)."""
    if not isinstance(text, str):
        raise IllegalAction("a move must be text")
    if text == "pass":
        return Pass()
    match = _MOVE.fullmatch(text)
    if match is None:
        raise IllegalAction(f"not a move: {text[:40]!r}")
    first, second, where = int(match.group(1)), int(match.group(2)), match.group(3)
    max_pip = state.variant.max_pip
    if first > max_pip or second > max_pip:
        raise IllegalAction(f"{first}-{second} is not a tile of the double-{max_pip} set")
    tile = Tile(first, second)
    line = state.line
    if line.is_empty:
        if where is not None:
            raise IllegalAction("the lead takes no position")
        if state.variant.spinner and not tile.is_double:
            return Play(tile, None, first)
        return Play(tile)
    if state.variant.spinner:
        return Play(tile, _spinner_arm(state, tile, where))
    return Play(tile, _two_ended_arm(state, tile, where))


def _spinner_arm(state: HandState, tile: Tile, where: str | None) -> Arm:
    line = state.line
    if where is not None:
        arm = _ARMS.get(where)
        if arm is None:
            raise IllegalAction(f"unknown arm: {where} (left, right, up or down)")
        return arm
    fits = line.fits(tile)
    if not fits:
        raise IllegalAction(f"{tile} does not fit the open ends {_ends_text(state)}")
    if len(fits) > 1:
        names = ", ".join(f"@{arm}" for arm in fits)
        raise IllegalAction(f"{tile} fits several arms: say which ({names})")
    return fits[0]


def _two_ended_arm(state: HandState, tile: Tile, where: str | None) -> Arm:
    line = state.line
    fits = line.fits(tile)
    if where is not None:
        if not where.isdigit() or len(where) != 1:
            raise IllegalAction(f"@{where} is not an end value")
        value = int(where)
        fits = tuple(arm for arm in fits if line.end(arm) == value)
        if not fits:
            raise IllegalAction(f"{tile} cannot join an open end showing {value}")
    if not fits:
        raise IllegalAction(f"{tile} does not fit the open ends {_ends_text(state)}")
    if len(fits) == 1:
        return fits[0]
    values = {line.end(arm) for arm in fits}
    if len(values) == 1:
        return line.mandated_arm()
    a, b = sorted(value for value in values if value is not None)
    raise IllegalAction(f"{tile} fits both ends: missing @{a} or @{b}")


def move_notation(state: HandState, action: Action) -> str:
    """The canonical notation of ``action`` in ``state``: positions written only where needed."""
    if isinstance(action, Pass):
        return "pass"
    tile = action.tile
    if action.arm is None:
        return str(action)
    line = state.line
    fits = line.fits(tile)
    if line.with_spinner:
        return f"{tile}@{action.arm}" if len(fits) > 1 else str(tile)
    values = {line.end(arm) for arm in fits}
    if len(values) > 1:
        return f"{tile}@{line.end(action.arm)}"
    return str(tile)


def _ends_text(state: HandState) -> str:
    return " and ".join(str(value) for value in state.line.open_ends())
