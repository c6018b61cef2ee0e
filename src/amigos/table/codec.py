"""Table events as JSON objects, for the server's durable log (and nothing else).

The log is what a table is rebuilt from after a restart, so every event must survive the trip
exactly. Kept apart from the event classes (STYLE.md: wire formats stay out of the rules' values).
An action is ``{"pass": true}`` or ``{"tile": "6-4", "arm": "up" | null, "lead_left": n | null}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amigos.engine import Action, Arm, Pass, Play, Tile

from . import events as ev
from .errors import TableError
from .model import VoteChoice

_SEATED: dict[str, type] = {
    "accept": ev.Accept,
    "refuse": ev.Refuse,
    "heartbeat": ev.Heartbeat,
    "disconnected": ev.Disconnected,
    "reconnected": ev.Reconnected,
    "leave": ev.Leave,
    "suspend": ev.Suspend,
    "red_card": ev.RedCard,
    "ask_reshuffle": ev.AskReshuffle,
}
_NAMES = {cls: name for name, cls in _SEATED.items()}


def event_to_json(event: ev.TableEvent) -> dict[str, Any]:
    """The JSON object of ``event``."""
    name = _NAMES.get(type(event))
    if name is not None:
        return {"type": name, "seat": event.seat}  # type: ignore[union-attr]
    if isinstance(event, ev.Deal):
        return {"type": "deal", "key": event.key, "leader": event.leader}
    if isinstance(event, ev.Move):
        return {
            "type": "move",
            "seat": event.seat,
            "action": action_to_json(event.action),
            "by_computer": event.by_computer,
        }
    if isinstance(event, ev.Vote):
        return {"type": "vote", "seat": event.seat, "choice": event.choice.value}
    if isinstance(event, ev.TakeOver):
        return {"type": "take_over"}
    if isinstance(event, ev.Tick):
        return {"type": "tick"}
    raise TypeError(f"not a table event: {event!r}")


def event_from_json(obj: Any) -> ev.TableEvent:
    """The event ``obj`` describes. Raises TableError ``bad_event`` for anything else."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("type"), str):
        raise TableError("bad_event", "an event is an object with a type")
    kind = obj["type"]
    if kind == "take_over":
        return ev.TakeOver()
    if kind == "tick":
        return ev.Tick()
    if kind == "deal":
        key, leader = obj.get("key"), obj.get("leader")
        if not isinstance(key, str) or not (leader is None or _is_int(leader)):
            raise TableError("bad_event", "a deal has a key and a leader (or null)")
        return ev.Deal(key, leader)
    seat: Any = obj.get("seat")
    if not _is_int(seat):
        raise TableError("bad_event", f"{kind}: the seat must be a number")
    cls = _SEATED.get(kind)
    if cls is not None:
        event: ev.TableEvent = cls(seat)
        return event
    if kind == "move":
        by_computer = obj.get("by_computer", False)
        if not isinstance(by_computer, bool):
            raise TableError("bad_event", "by_computer must be true or false")
        return ev.Move(seat, action_from_json(obj.get("action")), by_computer)
    if kind == "vote":
        try:
            return ev.Vote(seat, VoteChoice(obj.get("choice")))
        except ValueError as exc:
            raise TableError("bad_vote", "choice must be rematch, rotate or lobby") from exc
    raise TableError("bad_event", f"unknown event type {kind[:40]!r}")


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
        raise TableError("bad_event", "an action is an object")
    if obj.get("pass") is True:
        return Pass()
    tile, arm, lead_left = obj.get("tile"), obj.get("arm"), obj.get("lead_left")
    if not isinstance(tile, str):
        raise TableError("bad_event", 'a play names its tile, e.g. "6-4"')
    try:
        parsed = Tile.parse(tile)
        where = None if arm is None else Arm(arm)
    except ValueError as exc:
        raise TableError("bad_event", f"not a tile and arm: {tile[:10]!r} {str(arm)[:10]!r}") from exc
    if lead_left is not None and not _is_int(lead_left):
        raise TableError("bad_event", "lead_left must be a number or null")
    return Play(parsed, where, lead_left)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
