"""The hand level of one match as an HTML table, built in Python.

A statistics page holds 50 matches of often ten hands or more, four rows each: thousands of cells.
Django's template engine takes several hundred milliseconds for that; plain string building with
every text escaped takes a few, which keeps the page well under its 200 ms budget (bench/archive.py).
The words come translated from the caller, once per page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString

from amigos.web.archive.statistics import HandLine, HandPlayer


@dataclass(frozen=True, slots=True)
class HandWords:
    """Translated words of the hand table (see views.hand_words)."""

    caption: str  # "Hands of match #%(n)s"
    headers: tuple[str, ...]
    positions: dict[str, str]  # you, right, partner, left, opposite
    leads: str
    tiles_of: str  # "%(count)s tiles of %(suit)s"
    ends: dict[str, str]  # domino, block, tied-block
    won: str
    lost: str
    capicua: str
    review: str  # the link to the player's review of the hand


def position_key(player: HandPlayer) -> str:
    """Where a player sat seen from the page's owner (the next to play sits on the right)."""
    if player.offset == 0:
        return "you"
    if player.players == 2:
        return "opposite"
    if player.offset == 1:
        return "right"
    if player.offset == player.players - 1:
        return "left"
    return "partner" if player.players == 4 else "opposite"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("\u2212" + str(-value) if value < 0 else "0")


def hand_result(hand: HandLine, words: HandWords) -> str:
    how = words.ends.get(hand.end, hand.end)
    if hand.won is None:
        return how
    capicua = words.capicua if hand.capicua else ""
    return f"{how}{capicua} · {words.won if hand.won else words.lost}"


def hands_table(
    number: int, hands: tuple[HandLine, ...], words: HandWords, review_url: Callable[[int], str]
) -> SafeString:
    """The table of a match's hands; ``review_url(hand)`` links each finished hand to its review."""
    caption = escape(words.caption % {"n": number})
    out = [
        f'<div class="scroller" role="region" tabindex="0" aria-label="{caption}">',
        '<table class="grid hands"><thead><tr>',
        *(f'<th scope="col">{escape(header)}</th>' for header in words.headers),
        "</tr></thead>",
    ]
    for hand in hands:
        span = len(hand.players)
        out.append('<tbody class="hand">')
        for index, player in enumerate(hand.players):
            position = words.positions[position_key(player)]
            seat = f"{position}, {words.leads}" if player.is_leader else position
            fallas = str(len(player.fallas))
            if player.fallas:
                fallas += " (" + ", ".join(str(suit) for suit in player.fallas) + ")"
            longest = words.tiles_of % {"count": player.longest_count, "suit": player.longest_suit}
            out.append('<tr class="hand__own">' if player.offset == 0 else "<tr>")
            if index == 0:
                out.append(f'<th scope="rowgroup" rowspan="{span}">{hand.number}</th>')
            out.append(
                f'<td>{escape(player.name)} <span class="seat">({escape(seat)})</span></td>'
                f"<td>{player.pips}</td><td>{player.doubles}</td><td>{escape(longest)}</td><td>{fallas}</td>"
            )
            if index == 0:
                link = ""
                if hand.end != "unfinished":
                    href = escape(review_url(hand.number))
                    link = f' <a class="review-link" href="{href}">{escape(words.review)}</a>'
                out.append(
                    f'<td rowspan="{span}">{escape(hand_result(hand, words))}{link}</td>'
                    f'<td rowspan="{span}" class="diff">{signed(hand.difference)}</td>'
                )
            out.append("</tr>")
        out.append("</tbody>")
    out.append("</table></div>")
    # Every text above went through escape(); numbers are formatted ints.
    return SafeString("".join(out))
