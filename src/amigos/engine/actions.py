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


#: The stable codes an :class:`IllegalAction` carries. Sites translate the code, never the text.
ILLEGAL_CODES = frozenset(
    {
        "illegal",  # a refusal with no more specific code
        "hand_over",  # the hand is finished
        "not_your_turn",  # the seat is not the one to move
        "not_an_action",  # neither a Play nor a Pass
        "not_a_tile",  # the play names something that is not a tile of the set
        "not_in_hand",  # the seat does not hold the tile
        "does_not_fit",  # the tile matches no open end (or not the named one)
        "arm_needed",  # the tile fits more than one place: say where
        "arm_not_allowed",  # an arm or orientation where none may be given (the lead)
        "arm_not_open",  # the named arm is not an open end
        "wrong_arm",  # both ends show the same value: the rules choose the arm
        "pass_refused",  # passing while holding a tile that fits
        "bad_notation",  # text that is no move in record notation
    }
)


class IllegalAction(ValueError):
    """An action the rules refuse.

    ``code`` is one of :data:`ILLEGAL_CODES` (stable, for translation); ``reason`` is a short
    English sentence for logs and the terminal.
    """

    def __init__(self, reason: str, code: str = "illegal") -> None:
        if code not in ILLEGAL_CODES:
            raise ValueError(f"unknown illegal-action code: {code}")
        super().__init__(reason)
        self.reason = reason
        self.code = code
