"""A finished match, position by position, for the replay portal (no Django here).

The record is replayed by the engine (so a stored record that breaks the rules is refused, never
shown half-right), and every position is described from the engine's own state: each seat's tiles,
the line, whose turn it is, the last move. Every hand is shown open because the portal only ever
serves matches that are over; the views check that before calling anything here.

A position is named by (hand, move): move 0 is the hand as dealt, move n the table after its n-th
move. That pair is what the page's URL carries, so any position can be shared as a link.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from amigos.engine.actions import Arm
from amigos.engine.deal import deal_from_key, verify_commitment
from amigos.engine.line import Line
from amigos.engine.line_layout import layout
from amigos.engine.record import Record, RecordError, parse_record
from amigos.engine.replay import ReplayReport, replay_record
from amigos.engine.state import HandState
from amigos.engine.tiles import Tile
from amigos.web.archive.errors import ArchiveError


@dataclass(frozen=True, slots=True)
class ReplayedMatch:
    """A parsed record and the engine's replay of it with every state kept."""

    record: Record
    report: ReplayReport

    @property
    def hand_count(self) -> int:
        return len(self.report.hands)

    def moves_in(self, hand: int) -> int:
        return len(self.record.hands[hand - 1].moves)

    def state(self, hand: int, move: int) -> HandState:
        return self.report.hands[hand - 1].states[move]


def replay_match(record: Mapping[str, Any]) -> ReplayedMatch:
    """Replay a stored record, keeping every state; ``record-invalid`` if it breaks the rules."""
    try:
        parsed = parse_record(record)
        report = replay_record(parsed, keep_states=True)
    except RecordError as exc:
        raise ArchiveError("record-invalid", str(exc)) from exc
    return ReplayedMatch(parsed, report)


def check_position(replayed: ReplayedMatch, hand: int, move: int) -> None:
    """``position-unknown`` unless (hand, move) is a position of the match."""
    if not 1 <= hand <= replayed.hand_count or not 0 <= move <= replayed.moves_in(hand):
        raise ArchiveError("position-unknown", f"the match has no position {hand}/{move}")


# -- the line of play as cells to draw ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """One tile as it lies in the line: ``first`` is the half drawn on the left (or top)."""

    first: int
    second: int

    @property
    def double(self) -> bool:
        return self.first == self.second


@dataclass(frozen=True, slots=True)
class LineCells:
    """The line in reading order: the main row from one end to the other and, on a spinner line,
    the tiles laid up and down off the spinner (read outwards)."""

    row: tuple[Cell, ...]
    up: tuple[Cell, ...] = ()
    down: tuple[Cell, ...] = ()
    #: Where each tile lies: the same layout the live table draws (amigos.engine.line_layout).
    laid: dict[str, Any] | None = field(default=None, compare=False)


#: The replay's drawing is a little wider than tall (it sits above the move list on every screen).
LAYOUT_ASPECT = 1.6


def line_cells(line: Line) -> LineCells:
    if not line.placements:
        return LineCells(())
    first, second = (Arm.LEFT, Arm.RIGHT) if line.with_spinner else (Arm.UP, Arm.DOWN)
    lead = line.placements[0]

    def arm(which: Arm) -> list[Cell]:
        return [Cell(p.inner, p.outer) for p in line.placements if p.arm is which]

    row = [Cell(c.second, c.first) for c in reversed(arm(first))]
    row.append(Cell(lead.inner, lead.outer))
    row += arm(second)
    laid = layout(line.to_dict(), LAYOUT_ASPECT)
    if not line.with_spinner:
        return LineCells(tuple(row), laid=laid)
    return LineCells(tuple(row), tuple(arm(Arm.UP)), tuple(arm(Arm.DOWN)), laid=laid)


# -- a position as the page shows it --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatTiles:
    seat: int
    name: str
    tiles: tuple[str, ...]
    to_move: bool
    last: bool  # this seat made the move that led here


@dataclass(frozen=True, slots=True)
class Position:
    hand: int
    move: int
    moves: int  # moves in the hand
    seats: tuple[SeatTiles, ...]
    line: LineCells
    ends: tuple[int, ...]
    boneyard: int
    last_move: str | None  # the notation of the move that led here
    last_seat: int | None
    over: bool
    end: str | None  # "domino", "block", ... when the hand is over here
    winner: int | None
    points: int


def _sorted_tiles(tiles: Sequence[Tile] | frozenset[Tile]) -> tuple[str, ...]:
    return tuple(str(tile) for tile in sorted(tiles, reverse=True))


def position(replayed: ReplayedMatch, hand: int, move: int) -> Position:
    """Everything shown at (hand, move) of the match as it was played."""
    check_position(replayed, hand, move)
    states = replayed.report.hands[hand - 1].states
    return position_in(states, replayed.record.hands[hand - 1].moves, replayed.record.players, hand, move)


def position_in(
    states: Sequence[HandState], moves: Sequence[str], names: Sequence[str], hand: int, move: int
) -> Position:
    """Position ``move`` of a hand given as its states (``states[n]``: after n moves) and moves:
    the hand as played, or a variation of it played out by the computer."""
    state = states[move]
    last_seat = states[move - 1].to_move if move else None
    seats = tuple(
        SeatTiles(
            seat=seat,
            name=names[seat],
            tiles=_sorted_tiles(state.hands[seat]),
            to_move=not state.is_over and state.to_move == seat,
            last=last_seat == seat,
        )
        for seat in range(state.variant.players)
    )
    outcome = state.outcome
    return Position(
        hand=hand,
        move=move,
        moves=len(moves),
        seats=seats,
        line=line_cells(state.line),
        ends=state.open_ends(),
        boneyard=len(state.boneyard),
        last_move=moves[move - 1] if move else None,
        last_seat=last_seat,
        over=state.is_over,
        end=None if outcome is None else outcome.end.value,
        winner=None if outcome is None else outcome.winner,
        points=0 if outcome is None else outcome.points,
    )


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One hand on the score sheet: how it ended, for whom, and the totals after it."""

    hand: int
    end: str
    winner: int | None
    points: int
    score: tuple[int, ...]


def score_sheet(replayed: ReplayedMatch) -> tuple[SheetRow, ...]:
    return tuple(
        SheetRow(number, report.end, report.winner, report.points, report.score)
        for number, report in enumerate(replayed.report.hands, start=1)
    )


# -- the deal's key and commitment ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VoidedCheck:
    """A deal voided before the hand was played (Cuban reshuffle), as the record keeps it, and
    whether it holds: its key matches its commitment, and it dealt the seat that asked enough
    doubles to ask (``doubles``: how many, shown to the reader; None when the key gives no deal;
    ``allowed``: the variant's rules let that seat ask for a new deal)."""

    seat: int
    player: str
    key: str
    hand_id: str
    commitment: str
    commitment_ok: bool
    doubles: int | None
    allowed: bool

    @property
    def verified(self) -> bool:
        return self.commitment_ok and self.allowed


@dataclass(frozen=True, slots=True)
class DealCheck:
    """What the live table published for a hand (its key, the hand's id and the commitment) and
    whether they prove the dealt tiles: the key gives exactly this deal, and the commitment
    published before the hand binds that key to that hand."""

    hand: int
    key: str | None
    hand_id: str | None
    commitment: str | None
    commitment_ok: bool
    deal_ok: bool
    #: Cuban: the deals of this hand voided before it (a seat dealt 5 or more doubles asked for a
    #: new deal), each checked in turn.
    voided: tuple[VoidedCheck, ...] = ()

    @property
    def available(self) -> bool:
        return bool(self.key and self.hand_id and self.commitment)

    @property
    def verified(self) -> bool:
        return self.available and self.commitment_ok and self.deal_ok


def deal_check(replayed: ReplayedMatch, hand: int) -> DealCheck:
    """Check a hand's deal against its key and commitment (imported records often have none)."""
    check_position(replayed, hand, 0)
    record_hand = replayed.record.hands[hand - 1]
    extra = record_hand.extra
    key, hand_id, published = (
        _text(extra.get("key")),
        _text(extra.get("hand_id")),
        _text(extra.get("commitment")),
    )
    voided = _voided_checks(replayed, hand)
    if not (key and hand_id and published):
        return DealCheck(hand, key, hand_id, published, False, False, voided)
    commitment_ok = verify_commitment(key, hand_id, published)
    try:
        dealt = deal_from_key(key, replayed.state(hand, 0).variant)
    except ValueError:
        return DealCheck(hand, key, hand_id, published, commitment_ok, False, voided)
    deal_ok = [frozenset(tiles) for tiles in dealt.hands] == [
        frozenset(tiles) for tiles in record_hand.deal
    ] and frozenset(dealt.boneyard) == frozenset(record_hand.boneyard)
    return DealCheck(hand, key, hand_id, published, commitment_ok, deal_ok, voided)


def _voided_checks(replayed: ReplayedMatch, hand: int) -> tuple[VoidedCheck, ...]:
    """The hand's voided deals (``voided`` in the record, as the engine's replay read them)."""
    variant = replayed.state(hand, 0).variant
    players = replayed.record.players
    checks = []
    for number, deal in replayed.report.voided:
        if number != hand:
            continue
        try:
            hands = deal_from_key(deal.key, variant).hands
            doubles: int | None = sum(1 for tile in hands[deal.seat] if tile.is_double)
            allowed = deal.seat in variant.reshuffle_seats(hands)
        except (ValueError, IndexError):
            doubles, allowed = None, False
        player = players[deal.seat] if 0 <= deal.seat < len(players) else str(deal.seat)
        commitment_ok = verify_commitment(deal.key, deal.hand_id, deal.commitment)
        checks.append(
            VoidedCheck(
                deal.seat, player, deal.key, deal.hand_id, deal.commitment, commitment_ok, doubles, allowed
            )
        )
    return tuple(checks)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
