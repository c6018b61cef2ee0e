"""What one seat can infer about the hidden tiles, and sampling of hidden worlds.

From a seat's view alone a player knows: the tiles it holds, the tiles on the
table, how many tiles every other seat holds (and how many are in the boneyard
or set aside), and which suits each seat lacked when it passed or had to draw.
Those voids are the whole of the inference: a pass on ends 4 and 2 proves the
seat holds no 4 and no 2 from then on in games without drawing; in games with
a boneyard a draw proves the same about the seat's whole hand right after its
draw-and-play (the tile that finally fitted is the one it laid); before it has
laid that tile nothing is certain, and each later draw brings in unknown
tiles, so the void list of that seat starts over.

``sample_world`` deals the unseen tiles to the hidden places at random, always
respecting sizes and voids, so each sample is a world the viewer cannot tell
apart from the real one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from amigos.engine import DrawEvent, PassEvent, Play, PlayEvent, Tile
from amigos.engine.line import Line
from amigos.engine.view import SeatView

BONEYARD = -1  # the slot of the boneyard (or Cuban's set-aside tiles) in a sampled world


@dataclass(frozen=True)
class Knowledge:
    """Everything a seat knows about where the unseen tiles are."""

    seat: int
    unseen: tuple[Tile, ...]  # sorted, for reproducible sampling
    sizes: dict[int, int]  # hidden slot (other seats, BONEYARD) -> number of tiles
    voids: dict[int, frozenset[int]]  # other seat -> suits it cannot hold

    def allowed(self, tile: Tile) -> tuple[int, ...]:
        """The hidden slots that may hold ``tile``."""
        out = []
        for slot, size in self.sizes.items():
            if size == 0:
                continue
            void = self.voids.get(slot, frozenset())
            if tile.high in void or tile.low in void:
                continue
            out.append(slot)
        return tuple(out)

    @cached_property
    def options(self) -> dict[Tile, tuple[int, ...]]:
        """``allowed`` for every unseen tile, worked out once: a decision of the hard level samples
        hundreds of worlds from the same knowledge, and reading the voids again for every tile of
        every world was most of its sampling time."""
        return {tile: self.allowed(tile) for tile in self.unseen}

    @cached_property
    def open_slots(self) -> tuple[int, ...]:
        """The hidden slots that hold any tile, in ``allowed``'s order: exactly the slots
        ``allowed`` gives a tile that no void rules out."""
        return tuple(slot for slot, size in self.sizes.items() if size > 0)


def infer(view: SeatView) -> Knowledge:
    """Read the voids of every other seat from the public history."""
    if view.seat is None:
        raise ValueError("a spectator's view holds no hand to reason from")
    voids: dict[int, set[int]] = {seat: set() for seat in range(view.variant.players) if seat != view.seat}
    line = Line.empty(view.variant.spinner)
    drawing: int | None = None  # the seat in the middle of a draw sequence
    pending: dict[int, set[int]] = {}  # seat -> ends it drew on, proven once it has laid the drawn tile
    for event in view.history:
        if isinstance(event, PlayEvent):
            if event.seat in pending:
                # New tiles arrived: only what it lacked when it drew is certain for its whole hand.
                voids[event.seat] = pending.pop(event.seat)
            line = line.lay(event.play)
            drawing = None
        elif isinstance(event, PassEvent):
            if event.seat in voids:
                voids[event.seat] = pending.pop(event.seat, voids[event.seat]) | set(event.ends)
            drawing = None
        elif isinstance(event, DrawEvent):
            if event.seat in voids and drawing != event.seat:
                pending[event.seat] = set(line.open_ends())
                voids[event.seat] = set()  # its hand now holds tiles nobody has seen
            drawing = event.seat
    sizes: dict[int, int] = {
        seat: view.hand_sizes[seat] for seat in range(view.variant.players) if seat != view.seat
    }
    sizes[BONEYARD] = view.boneyard_size
    return Knowledge(
        seat=view.seat,
        unseen=tuple(sorted(view.unseen_tiles())),
        sizes=sizes,
        voids={seat: frozenset(suits) for seat, suits in voids.items()},
    )


def sample_world(knowledge: Knowledge, rng: random.Random) -> dict[int, list[Tile]]:
    """Deal the unseen tiles to the hidden slots at random, respecting sizes and voids.

    Tiles with the fewest possible places go first, each to a slot drawn with
    probability proportional to its free room (close to uniform over the
    consistent deals); when a tile finds every allowed slot full, tiles already
    placed are moved along an augmenting path, which always succeeds because
    the real deal is one consistent assignment.

    The tiles no void rules out come last, and most unseen tiles are such tiles:
    for them the room left is the number of tiles left, so the draw needs no
    list of free slots (a slot without room takes nothing). The worlds, and the
    generator's draws, are exactly those of dealing them like the others: every
    figure measured with a given seed stays reproducible.
    """
    tiles = list(knowledge.unseen)
    rng.shuffle(tiles)
    options = knowledge.options
    tiles.sort(key=lambda tile: len(options[tile]))
    room = dict(knowledge.sizes)
    held: dict[int, list[Tile]] = {slot: [] for slot in room}
    anywhere = knowledge.open_slots
    draw = rng.random
    for position, tile in enumerate(tiles):
        if options[tile] == anywhere:  # so is every later tile (sorted by their number of slots)
            left = len(tiles) - position
            for rest in tiles[position:]:
                slot = _slot_at(draw() * left, anywhere, room)
                held[slot].append(rest)
                room[slot] -= 1
                left -= 1
            break
        free = [slot for slot in options[tile] if room[slot] > 0]
        if free:
            slot = _slot_at(draw() * sum(room[each] for each in free), free, room)
            held[slot].append(tile)
            room[slot] -= 1
        elif not _augment(tile, options, held, room, set()):
            raise ValueError("no deal of the unseen tiles fits the view")
    return held


def _slot_at(pick: float, slots: Sequence[int], room: dict[int, int]) -> int:
    """The slot at ``pick`` once the room of ``slots`` is laid end to end (``pick`` is a uniform
    draw times that total room, so each slot comes up in proportion to its room; a slot without
    room takes nothing)."""
    for slot in slots:
        pick -= room[slot]
        if pick < 0:
            break
    return slot


def _augment(
    tile: Tile,
    options: dict[Tile, tuple[int, ...]],
    held: dict[int, list[Tile]],
    room: dict[int, int],
    visited: set[int],
) -> bool:
    """Place ``tile`` by moving other tiles along a path to a slot with room (Kuhn's algorithm)."""
    for slot in options[tile]:
        if slot in visited:
            continue
        visited.add(slot)
        if room[slot] > 0:
            held[slot].append(tile)
            room[slot] -= 1
            return True
        for other in list(held[slot]):
            held[slot].remove(other)
            room[slot] += 1
            if _augment(other, options, held, room, visited):
                held[slot].append(tile)
                room[slot] -= 1
                return True
            held[slot].append(other)
            room[slot] -= 1
    return False


def shown_suits(play: Play, line: Line) -> tuple[int, ...]:
    """The suits a seat shows by laying ``play`` (``line``: the line once it is laid): both halves
    of a lead, else the outer half of the tile, the end it leaves for the others to follow."""
    if play.arm is None:
        return (play.tile.high, play.tile.low)
    return (line.placements[-1].outer,)
