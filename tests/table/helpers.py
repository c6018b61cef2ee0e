"""Builders for table tests: a table in a chosen position, and a fake clock to drive it."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace

from amigos.engine import Arm, Deal, HandState, Match, commitment, deal_from_key, find_variant
from amigos.table import (
    Effect,
    HandInPlay,
    Invitation,
    Mode,
    Phase,
    SeatState,
    TableConfig,
    TableInput,
    TableState,
    Timing,
    advance,
    hand_id,
)
from amigos.table.clock import start_clock
from tests.engine.helpers import position, two_ended

KEY = "0b9a4c1e-7d2f-4a3b-9c8d-1e2f3a4b5c6d"
HUMANS = ("ana", "beto", "caro", "dani")


def config(
    variant: str = "amigos-100",
    players: Sequence[str | None] = HUMANS,
    mode: Mode = Mode.LIVE,
    organizer: int = 0,
    timing: Timing | None = None,
) -> TableConfig:
    return TableConfig(
        table_id="t1",
        variant=find_variant(variant, len(players)),
        players=tuple(players),
        organizer=organizer,
        mode=mode,
        timing=timing or Timing(),
    )


#: Heartbeats that never lapse, for tests about something else than connections.
PATIENT = Timing(heartbeat_timeout=1e9)


def playing(
    hand: HandState, cfg: TableConfig | None = None, now: float = 0.0, timing: Timing = PATIENT
) -> TableState:
    """A table in the middle of a hand at ``now``, the clock of the seat to move just started."""
    cfg = cfg or config(hand.variant.name, HUMANS[: hand.variant.players], timing=timing)
    seats = tuple(SeatState(player, Invitation.ACCEPTED, now) for player in cfg.players)
    names = tuple(player or f"computer:{seat}" for seat, player in enumerate(cfg.players))
    match = Match.new(cfg.variant, names, hand.leader)
    proof = commitment(KEY, hand_id(cfg.table_id, 1))
    in_play = HandInPlay(number=1, key=KEY, commitment=proof, started=now, state=hand)
    computer = seats[hand.to_move].plays_itself
    clock = start_clock(hand, cfg, now, computer)
    return TableState(cfg, Phase.PLAYING, seats, now, now, match=match, hand=in_play, clock=clock)


class Table:
    """A table driven by a fake clock: ``at(t, given)`` advances it and keeps every effect."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.log: list[tuple[float, Effect]] = []

    def at(self, now: float, given: TableInput) -> list[Effect]:
        self.state, effects = advance(self.state, given, now)
        self.log.extend((now, effect) for effect in effects)
        return effects

    def effects(self, kind: type) -> list[Effect]:
        return [effect for _, effect in self.log if isinstance(effect, kind)]


def with_seat(state: TableState, seat: int, **changes: object) -> TableState:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)  # type: ignore[arg-type]
    return replace(state, seats=tuple(seats))


# Positions (Amigos, seat 1 to move after the lead or later).

#: Seat 1 holds two tiles that fit (6-5, 6-4) and none of them can block: 20 s.
OPEN = position(
    "amigos-100",
    ["5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 1-0 2-0 3-0", "6-3 6-2 5-4", "6-1 6-0 5-3"],
    two_ended("6-6"),
    to_move=1,
)

#: Seat 1 holds a single tile that fits (6-5): 5 s, laid by the system at 6 s.
SINGLE = position(
    "amigos-100",
    ["5-5 4-4 3-3 2-2 1-1 0-0", "6-5 1-0 2-0 3-0 4-0 5-0 3-1", "6-3 6-2 6-4 4-3 3-2 2-1", "6-1 6-0"],
    two_ended("6-6"),
    to_move=1,
)

#: Every 0 is on the table but 3-0, which seat 1 holds: laying it on the 3 blocks the hand: 60 s.
BLOCKING = position(
    "amigos-100",
    ["6-6 5-5 4-4 1-1", "3-0 6-5 5-4 2-2", "3-3 6-4 4-2", "3-1 5-2 6-1"],
    two_ended(
        "0-0",
        ("0-2", Arm.UP),
        ("0-1", Arm.DOWN),
        ("2-3", Arm.UP),
        ("1-4", Arm.DOWN),
        ("4-0", Arm.DOWN),
        ("0-5", Arm.DOWN),
        ("5-6", Arm.DOWN),
        ("6-0", Arm.DOWN),
    ),
    to_move=1,
)


def find_key(variant: str, wanted: Callable[[Deal], bool], players: int | None = None) -> str:
    """The first deal key, of a fixed sequence (UUID5 of a counter), whose deal of ``variant``
    is ``wanted``: a test states what it needs of a deal, not a key found by hand."""
    rules = find_variant(variant, players)
    for number in range(100_000):
        key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"amigos-test-deal-{number}"))
        if wanted(deal_from_key(key, rules)):
            return key
    raise LookupError(f"no {variant} deal found")
