"""A table's inputs as JSON objects, for a durable log of them (and nothing else).

Such a log is what a table is rebuilt from after a restart, so every input must survive the trip
exactly. Kept apart from the input classes (STYLE.md: wire formats stay out of the rules' values).
An action is ``{"pass": true}`` or ``{"tile": "6-4", "arm": "up" | null, "lead_left": n | null}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amigos.engine import Action, Arm, Pass, Play, Tile

from . import inputs
from .errors import TableError
from .model import VoteChoice

_SEATED: dict[str, type] = {
    "accept": inputs.Accept,
    "start": inputs.Start,
    "cancel": inputs.Cancel,
    "refuse": inputs.Refuse,
    "heartbeat": inputs.Heartbeat,
    "command_heard": inputs.CommandHeard,
    "disconnected": inputs.Disconnected,
    "reconnected": inputs.Reconnected,
    "leave": inputs.Leave,
    "suspend": inputs.Suspend,
    "red_card": inputs.RedCard,
    "ask_reshuffle": inputs.AskReshuffle,
}
_NAMES = {cls: name for name, cls in _SEATED.items()}


def input_to_json(given: inputs.TableInput) -> dict[str, Any]:
    """The JSON object of ``given``."""
    name = _NAMES.get(type(given))
    if name is not None:
        return {"type": name, "seat": given.seat}  # type: ignore[union-attr]
    if isinstance(given, inputs.Deal):
        return {"type": "deal", "key": given.key, "leader": given.leader}
    if isinstance(given, inputs.Move):
        return {
            "type": "move",
            "seat": given.seat,
            "action": action_to_json(given.action),
            "by_computer": given.by_computer,
        }
    if isinstance(given, inputs.Vote):
        return {"type": "vote", "seat": given.seat, "choice": given.choice.value}
    if isinstance(given, inputs.TakeOver):
        return {"type": "take_over"}
    if isinstance(given, inputs.Tick):
        return {"type": "tick"}
    raise TypeError(f"not a table input: {given!r}")


def input_from_json(obj: Any) -> inputs.TableInput:
    """The input ``obj`` describes. Raises TableError ``bad_input`` for anything else."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("type"), str):
        raise TableError("bad_input", "an input is an object with a type")
    kind = obj["type"]
    if kind == "take_over":
        return inputs.TakeOver()
    if kind == "tick":
        return inputs.Tick()
    if kind == "deal":
        key, leader = obj.get("key"), obj.get("leader")
        if not isinstance(key, str) or not (leader is None or _is_int(leader)):
            raise TableError("bad_input", "a deal has a key and a leader (or null)")
        return inputs.Deal(key, leader)
    seat: Any = obj.get("seat")
    if not _is_int(seat):
        raise TableError("bad_input", f"{kind}: the seat must be a number")
    cls = _SEATED.get(kind)
    if cls is not None:
        seated: inputs.TableInput = cls(seat)
        return seated
    if kind == "move":
        by_computer = obj.get("by_computer", False)
        if not isinstance(by_computer, bool):
            raise TableError("bad_input", "by_computer must be true or false")
        return inputs.Move(seat, action_from_json(obj.get("action")), by_computer)
    if kind == "vote":
        try:
            return inputs.Vote(seat, VoteChoice(obj.get("choice")))
        except ValueError as exc:
            raise TableError("bad_vote", "choice must be rematch, rotate or lobby") from exc
    raise TableError("bad_input", f"unknown input type {kind[:40]!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Pass):
        return {"pass": True}
    return {
        "tile": str(action.tile),
        "arm": None if action.arm is None else action.arm.value,
        "lead_left": action.lead_left,
    }


def action_from_json(obj: Any) -> Action:
    """The action ``obj`` describes (not yet checked against any position)."""
    if not isinstance(obj, Mapping):
        raise TableError("bad_input", "an action is an object")
    if obj.get("pass") is True:
        return Pass()
    tile, arm, lead_left = obj.get("tile"), obj.get("arm"), obj.get("lead_left")
    if not isinstance(tile, str):
        raise TableError("bad_input", 'a play names its tile, e.g. "6-4"')
    try:
        parsed = Tile.parse(tile)
        where = None if arm is None else Arm(arm)
    except ValueError as exc:
        raise TableError("bad_input", f"not a tile and arm: {tile[:10]!r} {str(arm)[:10]!r}") from exc
    if lead_left is not None and not _is_int(lead_left):
        raise TableError("bad_input", "lead_left must be a number or null")
    return Play(parsed, where, lead_left)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
