"""The line of play, kept as explicit chains of oriented tiles.

A two-ended line (Amigos, Cuban) is one list of (inner, outer) pairs read left to right; only the
values at its two ends matter for what may be laid next. A spinner line (draw and fives games)
keeps the lead and four arms, each a list of (inner, outer) pairs growing outwards.
"""

from __future__ import annotations

from .rules import Tile

ARMS = ("left", "right", "up", "down")


class ChainLine:
    """Two-ended line: `chain` holds the tiles in table order, each as (left value, right value)."""

    def __init__(self) -> None:
        self.chain: list[tuple[int, int]] = []

    def copy(self) -> ChainLine:
        twin = ChainLine()
        twin.chain = list(self.chain)
        return twin

    def ends(self) -> list[int]:
        if not self.chain:
            return []
        return [self.chain[0][0], self.chain[-1][1]]

    def targets(self, tile: Tile) -> list[int]:
        """The distinct open-end values `tile` can be laid on."""
        return sorted({end for end in self.ends() if end in tile})

    def lay(self, tile: Tile, on_value: int | None) -> None:
        if not self.chain:
            self.chain.append((tile[1], tile[0]))
            return
        assert on_value is not None and on_value in tile
        other = tile[0] + tile[1] - on_value
        if self.chain[-1][1] == on_value:  # which end does not matter when both show the value
            self.chain.append((on_value, other))
        else:
            self.chain.insert(0, (other, on_value))


class SpinnerLine:
    """Line with a spinner: the first double laid may grow on four sides."""

    def __init__(self) -> None:
        self.lead: tuple[int, int] | None = None  # as written: first half faces left
        self.arms: dict[str, list[tuple[int, int]]] = {arm: [] for arm in ARMS}
        # Where the spinner lies: ("lead", -1) or (arm, index in that arm); None until a double is laid.
        self.spinner: tuple[str, int] | None = None

    def copy(self) -> SpinnerLine:
        twin = SpinnerLine()
        twin.lead, twin.spinner = self.lead, self.spinner
        twin.arms = {arm: list(tiles) for arm, tiles in self.arms.items()}
        return twin

    def spinner_value(self) -> int | None:
        if self.spinner is None:
            return None
        arm, index = self.spinner
        if arm == "lead":
            assert self.lead is not None
            return self.lead[0]
        return self.arms[arm][index][1]

    def cross_open(self) -> bool:
        """Up and down open once both sides of the spinner are covered."""
        if self.spinner is None:
            return False
        arm, index = self.spinner
        if arm == "lead":
            return bool(self.arms["left"]) and bool(self.arms["right"])
        return len(self.arms[arm]) > index + 1

    def open_arms(self) -> dict[str, int]:
        """Arm name -> value showing at its open end, for every arm a tile may be laid on."""
        if self.lead is None:
            return {}
        result: dict[str, int] = {}
        for side, base in (("left", self.lead[0]), ("right", self.lead[1])):
            tiles = self.arms[side]
            result[side] = tiles[-1][1] if tiles else base
        if self.cross_open():
            value = self.spinner_value()
            assert value is not None
            for side in ("up", "down"):
                tiles = self.arms[side]
                result[side] = tiles[-1][1] if tiles else value
        return result

    def targets(self, tile: Tile) -> list[str]:
        return [arm for arm, value in self.open_arms().items() if value in tile]

    def lay_lead(self, first: int, second: int) -> None:
        self.lead = (first, second)
        if first == second:
            self.spinner = ("lead", -1)

    def lay(self, tile: Tile, arm: str) -> None:
        value = self.open_arms()[arm]
        assert value in tile
        other = tile[0] + tile[1] - value
        self.arms[arm].append((value, other))
        if tile[0] == tile[1] and self.spinner is None:
            self.spinner = (arm, len(self.arms[arm]) - 1)

    def count(self) -> int:
        """Sum of the open ends as the fives games count it.

        A double at an end counts both halves; the spinner counts while one of its two sides is
        still open, and arms with no tile yet add nothing.
        """
        assert self.lead is not None
        total = 0
        for side in ARMS:
            tiles = self.arms[side]
            if tiles:
                inner, outer = tiles[-1]
                total += 2 * outer if inner == outer else outer
        first, second = self.lead
        if first == second:
            if not self.arms["left"] or not self.arms["right"]:
                total += 2 * first
        else:
            total += (0 if self.arms["left"] else first) + (0 if self.arms["right"] else second)
        return total
