"""Who sits where in the next match after a rematch or a rotation (spec §2.9.3).

Seats are in turn order (seat ``i+1`` plays after seat ``i``, "to the right"), so from the
organizer's seat ``o`` the right-hand player is ``o+1``, the partner ``o+2`` and the left ``o+3``.
"""

from __future__ import annotations

from .model import VoteChoice


def reseat(
    players: tuple[str | None, ...], organizer: int, choice: VoteChoice
) -> tuple[tuple[str | None, ...], int]:
    """The seating and the organizer's seat for the next match.

    Four seats: a rematch swaps the organizer and the partner; a rotation sends the partner to the
    organizer's left, the left to the right, and the right across as the new partner. With two or
    three seats there is no partner: a rematch keeps the seating and a rotation moves everyone one
    seat on (docs/rules.md). LOBBY keeps the seating (nobody plays again).
    """
    count = len(players)
    if choice is VoteChoice.LOBBY or (choice is VoteChoice.REMATCH and count != 4):
        return players, organizer
    seated = list(players)
    if count == 4:
        right, partner, left = ((organizer + step) % 4 for step in (1, 2, 3))
        if choice is VoteChoice.REMATCH:
            seated[organizer], seated[partner] = players[partner], players[organizer]
            return tuple(seated), partner
        seated[left] = players[partner]
        seated[right] = players[left]
        seated[partner] = players[right]
        return tuple(seated), organizer
    moved = tuple(players[(seat - 1) % count] for seat in range(count))
    return moved, (organizer + 1) % count
