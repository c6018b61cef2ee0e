"""What a player can do on their turn: lay a tile on an arm of the line, or pass."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .tiles import Tile


class Arm(enum.Enum):
    """An arm of the line of play.

    Two-ended lines (Amigos, Cuban) grow along UP (Arriba/Izquierda) and DOWN (Abajo/Derecha).
    Spinner lines (draw and fives games) grow LEFT and RIGHT, and UP and DOWN off the spinner.
    """

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on ``arm``.

    ``arm`` is None only for the lead, the first tile of the hand. In spinner games a lead that is
    not a double also says which half faces left (``lead_left``), because the record format names
    the arms after that orientation; everywhere else ``lead_left`` stays None.
    """

    tile: Tile
    arm: Arm | None = None
    lead_left: int | None = None

    def __str__(self) -> str:
        if self.arm is None:
            if self.lead_left is not None:
                return f"{self.lead_left}-{self.tile.other(self.lead_left)}"
            return str(self.tile)
        return f"{self.tile}@{self.arm}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn (only allowed with no playable tile and nothing left to draw)."""

    def __str__(self) -> str:
        return "pass"


Action = Play | Pass


class IllegalAction(ValueError):
    """An action the rules refuse. ``reason`` is a short English sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
