"""Match records, format ``amigos-record/1``: read, check the structure, write, build.

A record is the whole story of a match: the variant, who sat where, and for every hand the deal,
the boneyard, the leader and the moves in notation. Reading checks structure and types only;
:mod:`amigos.engine.replay` checks the rules by replaying it. Fields this project does not know are
kept (``extra``) and written back, so records from newer versions survive a round trip.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .state import HandState
from .tiles import Tile, sort_tiles

FORMAT = "amigos-record/1"

#: The fields RECORD-FORMAT.md gives every record, and every hand of one.
BASE_FIELDS = ("format", "variant", "players", "hands")
BASE_HAND_FIELDS = ("deal", "boneyard", "leader", "moves")
_TOP_FIELDS = BASE_FIELDS
_HAND_FIELDS = BASE_HAND_FIELDS


class RecordError(ValueError):
    """A record that cannot be read or breaks the rules.

    ``hand`` and ``move`` count from 1; 0 means "not in a hand" (the record's header) or "not at a
    move" (the hand's deal or leader).
    """

    def __init__(self, hand: int, move: int, reason: str) -> None:
        super().__init__(f"hand {hand}, move {move}: {reason}")
        self.hand = hand
        self.move = move
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RecordHand:
    """One hand of a record."""

    deal: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    leader: int
    moves: tuple[str, ...]
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "deal": [[str(tile) for tile in hand] for hand in self.deal],
            "boneyard": [str(tile) for tile in self.boneyard],
            "leader": self.leader,
            "moves": list(self.moves),
        }
        obj.update({key: value for key, value in self.extra.items() if key not in obj})
        return obj


@dataclass(frozen=True, slots=True)
class Record:
    """A whole match record."""

    variant: str
    players: tuple[str, ...]
    hands: tuple[RecordHand, ...] = ()
    format: str = FORMAT
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "format": self.format,
            "variant": self.variant,
            "players": list(self.players),
            "hands": [hand.to_obj() for hand in self.hands],
        }
        obj.update({key: value for key, value in self.extra.items() if key not in obj})
        return obj


def write_record(record: Record) -> str:
    """The record as JSON text: one line per top-level field and per field of each hand, so that
    records read well and diff well."""
    obj = record.to_obj()
    lines = ["{"]
    keys = list(obj)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        if key == "hands" and obj["hands"]:
            lines.append(f"  {_dump(key)}: [")
            hands = obj["hands"]
            for number, hand in enumerate(hands):
                hand_keys = list(hand)
                lines.append("    {")
                for inner, hand_key in enumerate(hand_keys):
                    inner_comma = "," if inner < len(hand_keys) - 1 else ""
                    lines.append(f"      {_dump(hand_key)}: {_dump(hand[hand_key])}{inner_comma}")
                lines.append("    }" + ("," if number < len(hands) - 1 else ""))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {_dump(key)}: {_dump(obj[key])}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def parse_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read a record from JSON text or an already decoded object. Raises RecordError on any
    structural problem (never anything else)."""
    obj: Any = source
    if isinstance(source, bytes):
        try:
            obj = source.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(0, 0, "the record is not UTF-8 text") from exc
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except RecursionError as exc:
            raise RecordError(0, 0, "the record is nested too deeply") from exc
        except ValueError as exc:  # JSONDecodeError, and integers too long to read
            raise RecordError(0, 0, f"not JSON: {_short(exc)}") from exc
    if not isinstance(obj, Mapping):
        raise RecordError(0, 0, "a record is a JSON object")
    if obj.get("format") != FORMAT:
        raise RecordError(0, 0, f"the format must be {FORMAT!r}")
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise RecordError(0, 0, "the variant must be a name")
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise RecordError(0, 0, "players must be a list of names")
    hands = obj.get("hands")
    if not isinstance(hands, list):
        raise RecordError(0, 0, "hands must be a list")
    return Record(
        variant=variant,
        players=tuple(players),
        hands=tuple(_parse_hand(number, hand) for number, hand in enumerate(hands, start=1)),
        extra={key: value for key, value in obj.items() if key not in _TOP_FIELDS},
    )


def _parse_hand(number: int, obj: Any) -> RecordHand:
    if not isinstance(obj, Mapping):
        raise RecordError(number, 0, "a hand is a JSON object")
    deal = obj.get("deal")
    if not isinstance(deal, list) or not all(isinstance(hand, list) for hand in deal):
        raise RecordError(number, 0, "deal must be a list of lists of tiles")
    boneyard = obj.get("boneyard")
    if not isinstance(boneyard, list):
        raise RecordError(number, 0, "boneyard must be a list of tiles")
    leader = obj.get("leader")
    if isinstance(leader, bool) or not isinstance(leader, int):
        raise RecordError(number, 0, "leader must be a seat number")
    moves = obj.get("moves")
    if not isinstance(moves, list):
        raise RecordError(number, 0, "moves must be a list")
    for index, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise RecordError(number, index, "a move must be text")
    return RecordHand(
        deal=tuple(_parse_tiles(number, hand) for hand in deal),
        boneyard=_parse_tiles(number, boneyard),
        leader=leader,
        moves=tuple(moves),
        extra={key: value for key, value in obj.items() if key not in _HAND_FIELDS},
    )


def _parse_tiles(number: int, texts: Iterable[Any]) -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for text in texts:
        if not isinstance(text, str):
            raise RecordError(number, 0, 'a tile is written as text, e.g. "6-4"')
        try:
            tiles.append(Tile.parse(text))
        except ValueError as exc:
            raise RecordError(number, 0, str(exc)) from exc
    return tuple(tiles)


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def record_hand(start: HandState, actions: Sequence[Action]) -> RecordHand:
    """The record of a hand that began at ``start`` and went on with ``actions``.

    Moves are written in canonical notation (positions only where needed).
    """
    state = start
    moves: list[str] = []
    for action in actions:
        moves.append(state.move_notation(action))
        state = state.apply(action, state.to_move)
    return hand_with_moves(start, moves)


def hand_with_moves(start: HandState, moves: Sequence[str]) -> RecordHand:
    """The record of a hand that began at ``start``, whose moves' notation is already known.

    For a caller that wrote each move's notation as the move was made (the live table), so the
    hand need not be played again to write its record. The moves are trusted as given."""
    return RecordHand(
        deal=tuple(tuple(sort_tiles(hand)) for hand in start.hands),
        boneyard=start.boneyard,
        leader=start.leader,
        moves=tuple(moves),
    )
