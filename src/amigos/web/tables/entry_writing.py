"""The writers of a live table's log entries about its play: one function per kind of entry.

Why these are apart from `effect_entries.entries_of`, which writes a step of the pure table
(`amigos.table.advance`) with them: each kind of entry is spelt once, where the codec's tests and
the record's game (`Game`, which reads them back) find it, and a log written before a field was
added still reads the same.

Each writer takes what the rules already decided (`amigos.table.hand`: the states before and after
a move, the dealt hand, the voided deal; the engine's match for the score sheet) and only spells
it as an entry; none decides anything. A move's writer is on the path of every play (bench/load.py
measures it): its entries are built with positional fields and each state's fields read once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amigos.engine import Action, DrawEvent, HandState, Match, Play, PlayEvent, Variant
from amigos.engine.codec import outcome_json, placement_json, sheet_json
from amigos.engine.trail import VoidedDeal
from amigos.engine.variants.base import LeadDraw
from amigos.table.model import DealtHand
from amigos.web.tables.log_entries import (
    Drew,
    HandEnded,
    HandStarted,
    HandVoided,
    LogEntry,
    MatchEnded,
    Passed,
    Played,
    no_cards,
)


def legal_plays(state: HandState, seat: int) -> list[dict[str, Any]]:
    """The seat's legal plays grouped by tile (a turn clock's entry carries them): which arms each
    tile fits. Empty unless it is the seat's turn, as the seat's own view would say; asked on the
    seat's turn, they are the state's own legal actions, which the turn clock has just computed and
    the state keeps (building the seat's whole view to compute them again was a twentieth of a
    play's time)."""
    if state.outcome is not None or seat != state.to_move:
        return []
    grouped: dict[str, dict[str, Any]] = {}
    for action in state.legal_actions():
        if not isinstance(action, Play):
            continue
        text = str(action.tile)
        entry = grouped.get(text)
        if entry is None:
            entry = grouped[text] = {"tile": text, "arms": [], "lead_left": None}
        if action.arm is not None and action.arm.value not in entry["arms"]:
            entry["arms"].append(action.arm.value)
        if action.lead_left is not None:
            entry["lead_left"] = [*(entry["lead_left"] or []), action.lead_left]
    return list(grouped.values())


def move_entries(
    seat: int,
    action: Action,
    before: HandState,
    after: HandState,
    at: str,
    system: bool,
    mark: str | None,
) -> list[LogEntry]:
    """The entries of ``seat`` doing ``action`` in ``before``, which left the hand ``after``
    (`amigos.table.hand.apply_move` decided it): `Played` (its placement, the line's ends, its
    points, the hands' sizes after it) or `Passed` (the ends it could not follow), then a `Drew`
    for each tile drawn after it (the draw games: the next seat draws until a tile fits), each
    telling the boneyard as the move leaves it. ``system``: the system or a computer player moved,
    for the reason ``mark`` (the record's ``system`` mark); ``at``: when, as the protocol writes a
    moment."""
    history = after.history
    moved = len(before.history)
    entries: list[LogEntry]
    if isinstance(action, Play):
        line = after.line
        played = history[moved]
        assert isinstance(played, PlayEvent)
        # Fields in their order, not by name: a frozen entry's keyword arguments cost a play a
        # microsecond more (`Played` says which is which).
        entries = [
            Played(
                seat,
                str(action.tile),
                None if action.arm is None else action.arm.value,
                action.lead_left,
                {arm.value: value for arm, value in line.ends},
                placement_json(line.placements[-1]),
                played.points,
                system,
                mark,
                tuple([len(hand) for hand in after.hands]),
                at,
            )
        ]
    else:
        entries = [Passed(seat, tuple(before.line.open_ends()), system, mark, at)]
    if len(history) > moved + 1:
        remaining = len(after.boneyard)
        for event in history[moved + 1 :]:
            if isinstance(event, DrawEvent):
                assert event.tile is not None
                entries.append(Drew(event.seat, str(event.tile), remaining))
    return entries


def hand_started_entry(
    dealt: DealtHand, draws: bool, lead_draw: LeadDraw | None = None, at: str | None = None
) -> HandStarted:
    """The entry of the hand ``dealt`` (`amigos.table.hand.deal_hand`): its identity and
    commitment, its leader, the key and every seat's tiles (secret until the hand ends: the codec
    tells each seat its own), the boneyard's size where the rules draw (``draws``), the seats
    offered a new deal (each told alone: the count of doubles says something of its tiles), and
    ``lead_draw``: the draw that chose the match's first leader (Cuban, first deal only), told to
    everyone; the tiles drawn are set aside, never played."""
    hands = dealt.deal.hands
    return HandStarted(
        dealt.number,
        dealt.hand_id,
        dealt.commitment,
        dealt.state.leader,
        dealt.key,
        tuple(tuple(str(tile) for tile in hand) for hand in hands),
        tuple(len(hand) for hand in hands),
        len(dealt.deal.boneyard) if draws else 0,
        dealt.offer,
        None if lead_draw is None else tuple((seat, str(tile)) for seat, tile in lead_draw.draws),
        at,
    )


def hand_voided_entry(number: int, voided: VoidedDeal) -> HandVoided:
    """Cuban: the deal of hand ``number`` voided at a seat's request (`amigos.table.hand.void_deal`
    described it), its key revealed; the same hand is dealt again under its next identity."""
    return HandVoided(number, voided.seat, voided.hand_id, voided.key, voided.commitment)


def hand_ended_entry(
    number: int, hand_id: str, key: str, commitment: str, final: HandState, match: Match
) -> HandEnded:
    """The end of hand ``number`` (``hand_id``, dealt from ``key`` under ``commitment``), left
    ``final`` by its last move: the outcome, every seat's tiles revealed (highest first), the key,
    and the score sheet of ``match``, the match with this hand counted (as the table names its
    players: the sheet shows their names)."""
    outcome = final.outcome
    assert outcome is not None
    return HandEnded(
        number,
        hand_id,
        outcome_json(outcome),
        tuple(tuple(sorted((str(tile) for tile in hand), reverse=True)) for hand in final.hands),
        key,
        commitment,
        sheet_json(match.sheet()),
    )


def match_ended_entry(
    termination: str,
    match: Match,
    *,
    winner: int | None = None,
    offender: int | None = None,
    at: str | None = None,
) -> MatchEnded:
    """The end of ``match`` (as the table names its players) by ``termination``: ``winner``, the
    side that took it to its target (None when it ended unfinished), ``offender`` the seat whose
    doing ended it unfinished (abandonment, suspension), ``at`` when (the record's ``ended``). The
    vote's deadline, when one opens, is the caller's to add."""
    return MatchEnded(
        termination,
        winner,
        sheet_json(match.sheet()),
        termination == "target",
        offender,
        None,
        at or None,
    )


POSITIONS_4 = ("organizer", "right", "partner", "left")
POSITIONS_N = ("organizer", "right", "left")


def position(seat: int, players: int, organizer_seat: int = 0) -> str:
    """Where ``seat`` sits as seen from the organizer's seat (after a rematch or a rotation the
    organizer may sit elsewhere than seat 0)."""
    relative = (seat - organizer_seat) % players
    return POSITIONS_4[relative] if players == 4 else POSITIONS_N[relative]


def seat_json(
    number: int,
    variant: Variant,
    organizer_seat: int,
    *,
    user_id: int | None,
    name: str,
    level: str,
    away: bool,
    held_by_computer: bool,
    invitation: str,
    reconnect_deadline: str | None,
    cards: Mapping[str, int] | None,
) -> dict[str, Any]:
    """A seat as every page draws it (a `SeatChanged` entry, a snapshot's seats): who sits there
    (``name``: the seat's label, a computer player's naming its seat), where, on which side, and
    how it stands. Written here once for the actor's snapshot and for a seat change, whether the
    actor or `effect_entries` writes it."""
    return {
        "seat": number,
        "position": position(number, variant.players, organizer_seat),
        "user_id": user_id,
        "name": name,
        # The scoring side, so that every screen can say who plays with whom.
        "team": variant.team_of(number),
        "kind": "computer" if user_id is None and level else "human" if user_id is not None else "empty",
        "level": level or None,
        "connected": not away,
        "held_by_computer": held_by_computer,
        "invitation": invitation,
        "reconnect_deadline": reconnect_deadline,
        "cards": dict(cards) if cards is not None else no_cards(),
    }
