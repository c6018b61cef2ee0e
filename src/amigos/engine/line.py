"""The line of play (the tiles on the table) and where the next tile may go.

Two kinds of line exist:

* Two-ended lines (Amigos, Cuban): the lead sits in the middle and the line grows along two
  arms, UP (Arriba/Izquierda) and DOWN (Abajo/Derecha). A double lead lies crosswise and the next
  tile goes on UP; a mixed lead shows its higher half on UP. When both ends show the same value a
  tile goes on DOWN, except the second tile of the hand after a double lead, which goes on UP.
* Spinner lines (draw and fives games): the lead ``a-b`` shows ``a`` on LEFT and ``b`` on RIGHT.
  The first double laid is the spinner. Once both of its sides are covered, its UP and DOWN arms
  open (showing the double's value). Every open arm is a distinct place to play, even when two
  arms show the same value, because the record format names the arm.

The line also counts its open ends for the fives and threes games: a double at an open end counts
both halves; the spinner therefore counts both halves until both of its sides are covered; an
UP/DOWN arm of the spinner counts only once a tile lies on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Arm, IllegalAction, Play
from .tiles import Tile

#: Arms of a two-ended line, in display order.
TWO_ENDED_ARMS: tuple[Arm, ...] = (Arm.UP, Arm.DOWN)
#: Arms of a spinner line, in display order.
SPINNER_ARMS: tuple[Arm, ...] = (Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN)


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile on the table.

    ``inner`` is the half that touches the line and ``outer`` the half left showing. For the lead,
    ``inner`` is the half on the first arm (UP, or LEFT) and ``outer`` the one on the second.
    """

    tile: Tile
    arm: Arm | None
    inner: int
    outer: int


@dataclass(frozen=True, slots=True)
class Line:
    """An immutable line of play. Build one with :meth:`empty` and :meth:`place`.

    ``ends`` maps each open arm to the value it shows; ``outers`` maps each open arm to the
    outermost tile at that end (None for an empty UP/DOWN arm of the spinner), which decides how
    the end counts in the fives games.
    """

    with_spinner: bool
    placements: tuple[Placement, ...] = ()
    ends: tuple[tuple[Arm, int], ...] = ()
    outers: tuple[tuple[Arm, Tile | None], ...] = ()
    spinner: Tile | None = None
    spinner_covered: int = 0

    @classmethod
    def empty(cls, with_spinner: bool) -> Line:
        """A table with nothing on it."""
        return cls(with_spinner=with_spinner)

    # -- reading the line ------------------------------------------------------------------------

    @property
    def arm_order(self) -> tuple[Arm, ...]:
        return SPINNER_ARMS if self.with_spinner else TWO_ENDED_ARMS

    @property
    def is_empty(self) -> bool:
        return not self.placements

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Tiles in the order they were laid."""
        return tuple(placement.tile for placement in self.placements)

    @property
    def lead(self) -> Tile | None:
        return self.placements[0].tile if self.placements else None

    def open_arms(self) -> tuple[Arm, ...]:
        """The arms a tile can be laid on now, in display order."""
        return tuple(arm for arm, _ in self.ends)

    def open_ends(self) -> tuple[int, ...]:
        """The values showing at the open arms, in display order (empty before the lead)."""
        return tuple(value for _, value in self.ends)

    def end(self, arm: Arm) -> int | None:
        """The value showing on ``arm``, or None if that arm is not open."""
        for open_arm, value in self.ends:
            if open_arm is arm:
                return value
        return None

    def arm_tiles(self, arm: Arm) -> tuple[Tile, ...]:
        """Tiles laid on ``arm``, from the centre outwards (the lead is not included)."""
        return tuple(placement.tile for placement in self.placements if placement.arm is arm)

    @property
    def double_lead_pending(self) -> bool:
        """Two-ended line whose only tile is a double lead: the next tile goes on UP."""
        return not self.with_spinner and len(self.placements) == 1 and self.placements[0].tile.is_double

    def fits(self, tile: Tile) -> tuple[Arm, ...]:
        """Every open arm ``tile`` matches (any arm at all for the lead is handled by the caller)."""
        high, low = tile.high, tile.low
        return tuple(arm for arm, value in self.ends if value in (high, low))

    def mandated_arm(self) -> Arm:
        """On a two-ended line whose ends show the same value: the arm the rules choose."""
        return Arm.UP if self.double_lead_pending else Arm.DOWN

    def legal_arms(self, tile: Tile) -> tuple[Arm, ...]:
        """The distinct places ``tile`` may go (one per different resulting position)."""
        arms = self.fits(tile)
        if not self.with_spinner and len(arms) == 2 and self.end(Arm.UP) == self.end(Arm.DOWN):
            return (self.mandated_arm(),)
        return arms

    def count(self) -> int:
        """The sum of the open ends as counted in the fives and threes games."""
        if not self.placements:
            return 0
        if len(self.placements) == 1:
            return self.placements[0].tile.pips
        total = 0
        for (_, value), (_, outer) in zip(self.ends, self.outers, strict=True):
            if outer is None:
                continue
            total += 2 * value if outer.is_double else value
        return total

    # -- laying tiles ----------------------------------------------------------------------------

    def place_lead(self, tile: Tile, lead_left: int | None = None) -> Line:
        """Lay the first tile of the hand.

        Two-ended line: a double shows its value on both arms; a mixed tile shows its higher half
        on UP. Spinner line: ``lead_left`` is the half facing LEFT (default: the higher half); a
        double lead is the spinner.
        """
        if self.placements:
            raise IllegalAction("the lead has already been played", "arm_needed")
        if lead_left is not None and not tile.has(lead_left):
            raise IllegalAction(f"{tile} has no {lead_left} to face left", "arm_not_allowed")
        if not self.with_spinner:
            if lead_left is not None and lead_left != tile.high:
                raise IllegalAction("the lead shows its higher half on the up arm", "arm_not_allowed")
            first, second = (Arm.UP, Arm.DOWN)
            inner, outer = tile.high, tile.low
        else:
            first, second = (Arm.LEFT, Arm.RIGHT)
            inner = tile.high if lead_left is None else lead_left
            outer = tile.other(inner)
        spinner = tile if (self.with_spinner and tile.is_double) else None
        return Line(
            with_spinner=self.with_spinner,
            placements=(Placement(tile, None, inner, outer),),
            ends=((first, inner), (second, outer)),
            outers=((first, tile), (second, tile)),
            spinner=spinner,
            spinner_covered=0,
        )

    def lay(self, play: Play) -> Line:
        """Lay ``play`` on the line: the lead when it names no arm, else on its arm.

        The one place every module (the hand state, the computer players, the solver) turns a
        :class:`Play` into a new line, so they cannot disagree about it. Checks only what the line
        knows (the tile fits the arm); whether the player holds the tile is the hand's business.
        """
        if play.arm is None:
            return self.place_lead(play.tile, play.lead_left)
        return self.place(play.tile, play.arm)

    def ends_after(self, play: Play) -> tuple[int, ...]:
        """The open ends once the legal ``play`` is laid, as ``lay(play).open_ends()`` would say.

        On a two-ended line only the played arm's end changes, and a lead shows its higher half
        up and its lower down, so the answer needs no new line: the Amigos turn clock asks it for
        every legal tile on every turn. A spinner line (whose arms open as the spinner is
        covered) is laid out in full.
        """
        arm = play.arm
        if self.with_spinner:
            return self.lay(play).open_ends()
        tile = play.tile
        if arm is None:
            return (tile.high, tile.low)
        return tuple(tile.other(value) if open_arm is arm else value for open_arm, value in self.ends)

    def place(self, tile: Tile, arm: Arm) -> Line:
        """Lay ``tile`` on ``arm`` (an open arm whose end it matches). Returns the new line."""
        if not self.placements:
            raise IllegalAction("the first tile is the lead: it takes no arm", "arm_not_allowed")
        value = self.end(arm)
        if value is None:
            raise IllegalAction(f"the {arm} arm is not open", "arm_not_open")
        if not tile.has(value):
            raise IllegalAction(f"{tile} does not fit the {arm} end ({value})", "does_not_fit")
        if arm not in self.legal_arms(tile):
            raise IllegalAction(
                f"both ends show {value}: {tile} goes on the {self.mandated_arm()} arm", "wrong_arm"
            )
        outer_value = tile.other(value)
        previous_outer = next(outer for open_arm, outer in self.outers if open_arm is arm)
        ends = tuple((a, outer_value if a is arm else end) for a, end in self.ends)
        outers: tuple[tuple[Arm, Tile | None], ...] = tuple(
            (a, tile if a is arm else outer) for a, outer in self.outers
        )
        spinner, covered = self.spinner, self.spinner_covered
        if self.with_spinner:
            if spinner is None and tile.is_double:
                # The first double laid off the lead becomes the spinner; the tile it joins
                # already covers one of its sides.
                spinner, covered = tile, 1
            elif spinner is not None and arm in (Arm.LEFT, Arm.RIGHT) and previous_outer == spinner:
                covered += 1
                if covered == 2:
                    # UP and DOWN come last in the display order, so they are simply appended.
                    ends += ((Arm.UP, spinner.high), (Arm.DOWN, spinner.high))
                    outers += ((Arm.UP, None), (Arm.DOWN, None))
        return Line(
            with_spinner=self.with_spinner,
            placements=(*self.placements, Placement(tile, arm, value, outer_value)),
            ends=ends,
            outers=outers,
            spinner=spinner,
            spinner_covered=covered,
        )

    def __str__(self) -> str:
        """The line as players read it, e.g. ``[4|6][6|6][6|3]`` from the first arm's end to the
        second's; a spinner line adds its up and down arms."""
        if not self.placements:
            return "(empty)"
        first, second = (Arm.LEFT, Arm.RIGHT) if self.with_spinner else (Arm.UP, Arm.DOWN)
        lead = self.placements[0]
        cells = [f"[{p.outer}|{p.inner}]" for p in reversed(self._arm(first))]
        cells.append(f"[{lead.inner}|{lead.outer}]")
        cells += [f"[{p.inner}|{p.outer}]" for p in self._arm(second)]
        text = "".join(cells)
        if self.with_spinner:
            for arm in (Arm.UP, Arm.DOWN):
                placed = self._arm(arm)
                if placed:
                    text += f"  {arm}: " + "".join(f"[{p.inner}|{p.outer}]" for p in placed)
        return text

    def _arm(self, arm: Arm) -> list[Placement]:
        return [placement for placement in self.placements if placement.arm is arm]
