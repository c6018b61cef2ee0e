"""A match's codes in a player's words: the sides named by their players and the moves as players
say them ("4-3 por el 4"), so the replay never shows the record's notation or a side's number.

The record's notation stays what the links carry (a position or a variation is shared by it); only
what is read goes through here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _

from amigos.engine.variants.base import Variant

_MOVE = re.compile(r"^(?P<tile>\d+-\d+)(?:@(?P<at>\d+|left|right|up|down))?$")


def side_names(variant: Variant | None, players: Sequence[str]) -> list[str]:
    """Each scoring side by its players' names ("Ana and Luis"); a side per seat without partners."""
    if variant is None:
        return [_("Side %(n)s") % {"n": side + 1} for side in range(2)]
    names = []
    for side in range(variant.sides):
        seats = [players[seat] for seat in variant.seats_of(side) if seat < len(players)]
        if len(seats) == 2:
            names.append(_("%(first)s and %(second)s") % {"first": seats[0], "second": seats[1]})
        else:
            names.append(", ".join(seats) or _("Side %(n)s") % {"n": side + 1})
    return names


def move_words(text: str) -> str:
    """A move of the record as a player says it: "pass", "4-3", "4-3 on the 4", "6-5 up"."""
    if text == "pass":
        return _("pass")
    found = _MOVE.match(text)
    if found is None:
        return text
    tile, at = found["tile"], found["at"]
    if at is None:
        return tile
    arms = {
        "left": _("%(tile)s on the left"),
        "right": _("%(tile)s on the right"),
        "up": _("%(tile)s upwards"),
        "down": _("%(tile)s downwards"),
    }
    if at in arms:
        return arms[at] % {"tile": tile}
    return _("%(tile)s on the %(end)s") % {"tile": tile, "end": at}
