"""amigos.engine: the rules of dominoes, pure and standard-library only.

It decides what is legal, what happened and who won, for every variant the platform plays.
Everything other packages need is re-exported here.
"""

from __future__ import annotations

from .actions import ILLEGAL_CODES, Action, Arm, IllegalAction, Pass, Play
from .deal import Deal, commitment, deal_from_key, new_deal_key, verify_commitment
from .line import Line, Placement
from .match import Match
from .outcome import HandEnd, HandOutcome, HandResult, Termination
from .record import Record, RecordError, RecordHand, parse_record, write_record
from .replay import HandReport, ReplayReport, replay_record
from .scoresheet import ScoreSheet, SheetRow
from .state import DealError, DrawEvent, Event, HandState, PassEvent, PlayEvent
from .tiles import Tile, pips, tile_set
from .variants import VARIANT_NAMES, Family, Scoring, UnknownVariant, Variant, find_variant
from .view import SeatView, replay_view, seat_view, spectator_view

__all__ = [
    "ILLEGAL_CODES",
    "VARIANT_NAMES",
    "Action",
    "Arm",
    "Deal",
    "DealError",
    "DrawEvent",
    "Event",
    "Family",
    "HandEnd",
    "HandOutcome",
    "HandReport",
    "HandResult",
    "HandState",
    "IllegalAction",
    "Line",
    "Match",
    "Pass",
    "PassEvent",
    "Placement",
    "Play",
    "PlayEvent",
    "Record",
    "RecordError",
    "RecordHand",
    "ReplayReport",
    "ScoreSheet",
    "Scoring",
    "SeatView",
    "SheetRow",
    "Termination",
    "Tile",
    "UnknownVariant",
    "Variant",
    "commitment",
    "deal_from_key",
    "find_variant",
    "new_deal_key",
    "parse_record",
    "pips",
    "replay_record",
    "replay_view",
    "seat_view",
    "spectator_view",
    "tile_set",
    "verify_commitment",
    "write_record",
]
