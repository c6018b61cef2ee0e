"""Small builders for engine tests: positions written the way players write them."""

from __future__ import annotations

from collections.abc import Sequence

from amigos.engine import Arm, HandState, Line, Tile, Variant, find_variant
from amigos.engine.outcome import HandOutcome


def tiles(text: str) -> list[Tile]:
    """``"6-6 6-5 4-1"`` -> the tiles (empty text: no tile)."""
    return [Tile.parse(part) for part in text.split()]


def t(text: str) -> Tile:
    return Tile.parse(text)


def two_ended(lead: str, *plays: tuple[str, Arm]) -> Line:
    """A two-ended line: the lead, then (tile, arm) placements."""
    line = Line.empty(False).place_lead(t(lead))
    for tile, arm in plays:
        line = line.place(t(tile), arm)
    return line


def spinner_line(lead: str, *plays: tuple[str, Arm]) -> Line:
    """A spinner line: ``lead`` written with its left half first, then placements."""
    first = int(lead[0])
    tile = t(lead)
    line = Line.empty(True).place_lead(tile, None if tile.is_double else first)
    for text, arm in plays:
        line = line.place(t(text), arm)
    return line


def position(
    variant: Variant | str,
    hands: Sequence[str],
    line: Line,
    to_move: int,
    boneyard: str = "",
    leader: int = 0,
    tie_winner: int | None = None,
    play_points: Sequence[int] | None = None,
) -> HandState:
    """A hand in the middle of play. Tiles need not form a whole set: only the rules are tested."""
    if isinstance(variant, str):
        variant = find_variant(variant, len(hands))
    return HandState(
        variant=variant,
        hands=tuple(frozenset(tiles(hand)) for hand in hands),
        boneyard=tuple(tiles(boneyard)),
        line=line,
        to_move=to_move,
        leader=leader,
        play_points=tuple(play_points) if play_points is not None else (0,) * variant.sides,
        tie_winner=tie_winner,
    )


def finished(
    variant: Variant, leader: int, outcome: HandOutcome, play_points: Sequence[int] = ()
) -> HandState:
    """A finished hand with the given outcome, for match bookkeeping tests."""
    return HandState(
        variant=variant,
        hands=tuple(frozenset() for _ in range(variant.players)),
        boneyard=(),
        line=Line.empty(variant.spinner),
        to_move=leader,
        leader=leader,
        play_points=tuple(play_points) if play_points else (0,) * variant.sides,
        outcome=outcome,
    )


def full_deal(variant: Variant, hands: Sequence[str]) -> tuple[list[list[Tile]], list[Tile]]:
    """Complete partial hands with the remaining tiles in canonical order, then the boneyard."""
    from amigos.engine import tile_set

    given = [tiles(hand) for hand in hands] + [[] for _ in range(variant.players - len(hands))]
    used = {tile for hand in given for tile in hand}
    rest = [tile for tile in tile_set(variant.max_pip) if tile not in used]
    for hand in given:
        while len(hand) < variant.hand_size:
            hand.append(rest.pop(0))
    return given, rest
