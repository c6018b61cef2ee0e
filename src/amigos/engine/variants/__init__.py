"""The variant registry: every variant name a match record may carry, and how to find one.

Each rule family lives in its own module as subclasses of :class:`Variant` that answer the
questions the rest of the program asks (who leads, what a hand scores, when the match is won);
this package is the only place that knows which family a variant belongs to.
"""

from __future__ import annotations

from .amigos import AMIGOS_VARIANTS, Amigos200Variant, AmigosPointsVariant, AmigosVariant, HandsWonVariant
from .base import Family, Scoring, UnknownVariant, Variant
from .cuban import CUBAN_VARIANTS, CubanVariant
from .draw_fives import NAMES as DRAW_NAMES
from .draw_fives import (
    PLAYER_COUNTS,
    AllFivesVariant,
    AllThreesVariant,
    DrawVariant,
    FivesAndThreesVariant,
    draw_variant,
)

_FIXED: dict[str, Variant] = {variant.name: variant for variant in AMIGOS_VARIANTS + CUBAN_VARIANTS}

#: Every variant name of the record format, in a stable order.
VARIANT_NAMES: tuple[str, ...] = tuple(_FIXED) + DRAW_NAMES


def find_variant(name: str, players: int | None = None) -> Variant:
    """The variant called ``name``.

    The draw and fives games need ``players`` (2 to 4); for the others ``players`` may be given
    and must then match the variant's fixed seating.
    """
    if not isinstance(name, str):
        raise UnknownVariant("the variant must be a name")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise UnknownVariant("the number of players must be an integer")
    fixed = _FIXED.get(name)
    if fixed is not None:
        if players is not None and players != fixed.players:
            raise UnknownVariant(f"{name} is played by {fixed.players} players, not {players}")
        return fixed
    if name in DRAW_NAMES:
        if players is None:
            raise UnknownVariant(f"{name} needs the number of players (2 to 4)")
        if players not in PLAYER_COUNTS:
            raise UnknownVariant(f"{name} is played by 2 to 4 players, not {players}")
        return draw_variant(name, players)
    raise UnknownVariant(f"unknown variant: {name!r}")


__all__ = [
    "VARIANT_NAMES",
    "AllFivesVariant",
    "AllThreesVariant",
    "Amigos200Variant",
    "AmigosPointsVariant",
    "AmigosVariant",
    "CubanVariant",
    "DrawVariant",
    "Family",
    "FivesAndThreesVariant",
    "HandsWonVariant",
    "Scoring",
    "UnknownVariant",
    "Variant",
    "find_variant",
]
