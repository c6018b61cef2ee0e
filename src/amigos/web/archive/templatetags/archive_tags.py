"""Words of the statistics and replay pages: the names of games and targets, moves in words."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from amigos.web.archive import words

register = template.Library()


@register.filter
def variant_label(variant: str) -> str:
    """The target or game of a match as players say it ("100 tantos", "Juegos ganados", ...)."""
    if variant == "amigos-100":
        return _("100 points")
    if variant == "amigos-200":
        return _("200 points")
    if variant == "amigos-hands":
        return _("Hands won")
    if variant == "cuban-2v2":
        return _("Cuban, pairs")
    if variant == "cuban-1v1":
        return _("Cuban, one against one")
    game, _dash, target = variant.rpartition("-")
    names = {
        "draw": _("Draw"),
        "all-fives": _("All fives"),
        "all-threes": _("All threes"),
        "fives-and-threes": _("Fives and threes"),
    }
    if game in names:
        return _("%(game)s to %(target)s") % {"game": names[game], "target": target}
    return variant


@register.filter
def family_label(family: str) -> str:
    return {"amigos": _("Amigos"), "cuban": _("Cuban"), "draw": _("Draw and fives")}.get(family, family)


@register.filter
def move_words(text: str) -> str:
    """A move of the record in words ("4-3 por el 4"), never the notation ``4-3@4``."""
    return words.move_words(text)


@register.filter
def item(values: list[str], index: int | None) -> str:
    """``values[index]`` (a side's name by its number); empty when the index is missing."""
    if index is None or not 0 <= index < len(values):
        return ""
    return values[index]


@register.filter
def moves_words(texts: list[str]) -> str:
    """Several moves in words, separated by commas."""
    return ", ".join(words.move_words(text) for text in texts)
