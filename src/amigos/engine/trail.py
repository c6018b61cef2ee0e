"""What a live match adds to its record (still ``amigos-record/1``), and its JSON codec.

A record of a live table carries, besides the fields every record has, the proof of each deal
(its key, the hand's identity and the commitment published when the hand began), the time of
every move, which moves the system made rather than the player, the cards given, and how the
match ended. All of it is optional, so plain records stay valid and older readers, which keep
unknown fields, still read these. docs/record-format.md describes the fields.

The values here are plain frozen data; reading and writing JSON are functions of this module, not
methods of the values (STYLE.md: the wire format stays out of the rules' values).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .deal import deal_from_key, normalise_key, verify_commitment
from .outcome import Termination
from .record import BASE_FIELDS, BASE_HAND_FIELDS, RecordError, RecordHand
from .variants import Variant

#: Hand fields of the extension, in the order they are written.
HAND_FIELDS = ("key", "hand_id", "commitment", "started", "times", "system", "voided")
#: Record fields of the extension, in the order they are written.
MATCH_FIELDS = ("table", "mode", "started", "ended", "termination", "offender", "cards", "absent")

#: Keys of one entry of ``cards`` and of ``voided``.
CARD_FIELDS = ("seat", "colour", "reason", "at", "hand")
VOIDED_FIELDS = ("seat", "key", "hand_id", "commitment")

#: Why the system (or a computer player) made a move, as written in ``system``.
SYSTEM_REASONS = frozenset({"auto_pass", "single_tile", "timeout", "computer_late", "computer"})
CARD_COLOURS = frozenset({"yellow", "blue", "red"})
MODES = frozenset({"live", "correspondence"})


@dataclass(frozen=True, slots=True)
class CardNote:
    """A card given during the match: to ``seat``, at ``at`` (seconds since the epoch), during
    hand ``hand`` (from 1; 0 between hands)."""

    seat: int
    colour: str
    reason: str
    at: float
    hand: int


@dataclass(frozen=True, slots=True)
class VoidedDeal:
    """A deal of this hand voided at ``seat``'s request (Cuban: 5 or more doubles) before the one
    played; its key is revealed so anyone can check it against its commitment."""

    seat: int
    key: str
    hand_id: str
    commitment: str


@dataclass(frozen=True, slots=True)
class HandTrail:
    """A hand's proof and timing. ``times[i]`` is when move ``i`` was made; ``system[i]`` is None
    for the player's own move, else why the system (or a computer player) made it."""

    key: str | None = None
    hand_id: str | None = None
    commitment: str | None = None
    started: float | None = None
    times: tuple[float, ...] | None = None
    system: tuple[str | None, ...] | None = None
    voided: tuple[VoidedDeal, ...] = ()

    @property
    def is_empty(self) -> bool:
        return self == HandTrail()


@dataclass(frozen=True, slots=True)
class MatchTrail:
    """The live table's story around the hands: where, when, how it ended, and the cards."""

    table: str | None = None
    mode: str | None = None
    started: float | None = None
    ended: float | None = None
    termination: Termination | None = None
    offender: int | None = None
    cards: tuple[CardNote, ...] = ()
    # The seats whose player was away when the match ended (a computer player held the seat, or
    # the match ended by their absence): whoever finished the match, it is not those players' win.
    absent: tuple[int, ...] = ()

    @property
    def is_empty(self) -> bool:
        return self == MatchTrail()


def own_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with only the fields a record has (RECORD-FORMAT.md, and this project's live-table
    fields of docs/record-format.md), at the top, in each hand and in each card and voided deal.

    Readers keep unknown fields so that newer records survive a round trip; a store that takes
    records from outside (the archive's import) keeps this instead, so whatever else a file
    carries is not stored. Values are not checked here: replaying the record does that."""
    kept = {key: record[key] for key in (*BASE_FIELDS, *MATCH_FIELDS) if key in record}
    if isinstance(kept.get("hands"), list):
        kept["hands"] = [_own_hand(hand) for hand in kept["hands"]]
    if isinstance(kept.get("cards"), list):
        kept["cards"] = [_only(card, CARD_FIELDS) for card in kept["cards"]]
    return kept


def _own_hand(hand: Any) -> Any:
    if not isinstance(hand, Mapping):
        return hand
    kept = _only(hand, (*BASE_HAND_FIELDS, *HAND_FIELDS))
    if isinstance(kept.get("voided"), list):
        kept["voided"] = [_only(deal, VOIDED_FIELDS) for deal in kept["voided"]]
    return kept


def _only(obj: Any, fields: tuple[str, ...]) -> Any:
    return {key: obj[key] for key in fields if key in obj} if isinstance(obj, Mapping) else obj


# -- writing -------------------------------------------------------------------------------------


def hand_trail_json(trail: HandTrail) -> dict[str, Any]:
    """The hand fields of ``trail`` (only those it has), ready to go into a record's hand."""
    values: dict[str, Any] = {
        "key": trail.key,
        "hand_id": trail.hand_id,
        "commitment": trail.commitment,
        "started": trail.started,
        "times": None if trail.times is None else list(trail.times),
        "system": None if trail.system is None else list(trail.system),
        "voided": [
            {"seat": deal.seat, "key": deal.key, "hand_id": deal.hand_id, "commitment": deal.commitment}
            for deal in trail.voided
        ]
        or None,
    }
    return {name: values[name] for name in HAND_FIELDS if values[name] is not None}


def match_trail_json(trail: MatchTrail) -> dict[str, Any]:
    """The record fields of ``trail`` (only those it has)."""
    values: dict[str, Any] = {
        "table": trail.table,
        "mode": trail.mode,
        "started": trail.started,
        "ended": trail.ended,
        "termination": None if trail.termination is None else trail.termination.value,
        "offender": trail.offender,
        "cards": [
            {
                "seat": card.seat,
                "colour": card.colour,
                "reason": card.reason,
                "at": card.at,
                "hand": card.hand,
            }
            for card in trail.cards
        ]
        or None,
        "absent": list(trail.absent) or None,
    }
    return {name: values[name] for name in MATCH_FIELDS if values[name] is not None}


def _card_json(card: CardNote) -> dict[str, Any]:
    return {"seat": card.seat, "colour": card.colour, "reason": card.reason, "at": card.at, "hand": card.hand}


# -- reading -------------------------------------------------------------------------------------


def read_hand_trail(number: int, extra: Mapping[str, Any]) -> HandTrail:
    """The extension fields of hand ``number`` (absent ones None). Raises RecordError."""
    key = extra.get("key")
    if key is not None:
        try:
            key = normalise_key(key)
        except ValueError as exc:
            raise RecordError(number, 0, "key must be the deal's UUID key") from exc
    hand_id = _text(number, extra, "hand_id")
    proof = _text(number, extra, "commitment")
    if proof is not None and (
        len(proof) != 64 or any(char not in "0123456789abcdef" for char in proof.lower())
    ):
        raise RecordError(number, 0, "commitment must be 64 hexadecimal digits")
    started = _time(number, 0, extra.get("started"), "started")
    times = extra.get("times")
    if times is not None:
        if not isinstance(times, list):
            raise RecordError(number, 0, "times must be a list of times")
        times = tuple(_time(number, index, value, "a move's time") for index, value in enumerate(times, 1))
    system = extra.get("system")
    if system is not None:
        if not isinstance(system, list) or any(
            reason is not None and reason not in SYSTEM_REASONS for reason in system
        ):
            raise RecordError(number, 0, f"system must list null or one of {sorted(SYSTEM_REASONS)}")
        system = tuple(system)
    voided = extra.get("voided", [])
    if not isinstance(voided, list):
        raise RecordError(number, 0, "voided must be a list of voided deals")
    return HandTrail(
        key, hand_id, proof, started, times, system, tuple(_voided(number, obj) for obj in voided)
    )


def _voided(number: int, obj: Any) -> VoidedDeal:
    if not isinstance(obj, Mapping):
        raise RecordError(number, 0, "a voided deal is an object")
    seat, key, hand_id, proof = obj.get("seat"), obj.get("key"), obj.get("hand_id"), obj.get("commitment")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RecordError(number, 0, "a voided deal names the seat that asked for it")
    if not all(isinstance(value, str) for value in (key, hand_id, proof)):
        raise RecordError(number, 0, "a voided deal has its key, hand_id and commitment")
    return VoidedDeal(seat, str(key), str(hand_id), str(proof))


def read_match_trail(extra: Mapping[str, Any], players: int) -> MatchTrail:
    """The record-level extension fields. Raises RecordError (hand 0)."""
    table = _text(0, extra, "table")
    mode = _text(0, extra, "mode")
    if mode is not None and mode not in MODES:
        raise RecordError(0, 0, f"mode must be one of {sorted(MODES)}")
    started = _time(0, 0, extra.get("started"), "started")
    ended = _time(0, 0, extra.get("ended"), "ended")
    termination = extra.get("termination")
    if termination is not None:
        try:
            termination = Termination(termination)
        except ValueError as exc:
            raise RecordError(0, 0, "termination must be target, abandonment or suspension") from exc
    offender = extra.get("offender")
    if offender is not None and not _is_seat(offender, players):
        raise RecordError(0, 0, f"offender must be a seat from 0 to {players - 1}")
    cards = extra.get("cards", [])
    if not isinstance(cards, list):
        raise RecordError(0, 0, "cards must be a list")
    notes = tuple(_card(index, card, players) for index, card in enumerate(cards, start=1))
    absent = extra.get("absent", [])
    if not isinstance(absent, list) or not all(_is_seat(seat, players) for seat in absent):
        raise RecordError(0, 0, f"absent must be a list of seats from 0 to {players - 1}")
    if len(set(absent)) != len(absent):
        raise RecordError(0, 0, "absent names a seat twice")
    return MatchTrail(table, mode, started, ended, termination, offender, notes, tuple(sorted(absent)))


def _card(index: int, obj: Any, players: int) -> CardNote:
    if not isinstance(obj, Mapping):
        raise RecordError(0, 0, f"card {index} must be an object")
    seat: Any = obj.get("seat")
    colour, reason, hand = obj.get("colour"), obj.get("reason"), obj.get("hand", 0)
    if not _is_seat(seat, players):
        raise RecordError(0, 0, f"card {index}: seat must be a seat from 0 to {players - 1}")
    if colour not in CARD_COLOURS:
        raise RecordError(0, 0, f"card {index}: colour must be yellow, blue or red")
    if not isinstance(reason, str):
        raise RecordError(0, 0, f"card {index}: reason must be text")
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 0:
        raise RecordError(0, 0, f"card {index}: hand must be a hand number (0 between hands)")
    at = _time(0, 0, obj.get("at"), f"card {index}'s time")
    if at is None:
        raise RecordError(0, 0, f"card {index}: at must be a time")
    return CardNote(seat, colour, reason, at, hand)


def _text(number: int, extra: Mapping[str, Any], name: str) -> str | None:
    value = extra.get(name)
    if value is not None and not isinstance(value, str):
        raise RecordError(number, 0, f"{name} must be text")
    return value


def _time(number: int, move: int, value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RecordError(number, move, f"{what} must be a number of seconds")
    return float(value)


def _is_seat(value: Any, players: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < players


# -- checking ------------------------------------------------------------------------------------


def check_hand_trail(number: int, variant: Variant, hand: RecordHand, trail: HandTrail) -> bool:
    """Check ``trail`` against its hand: one time and one system mark per move, times in order,
    and the deal is the one its key gives (and the key the one committed to). Returns whether a
    deal key was verified. Raises RecordError."""
    moves = len(hand.moves)
    if trail.times is not None:
        if len(trail.times) != moves:
            raise RecordError(number, 0, f"times has {len(trail.times)} entries for {moves} moves")
        previous = trail.started
        for index, at in enumerate(trail.times, start=1):
            if previous is not None and at < previous:
                raise RecordError(number, index, "a move's time is before the one before it")
            previous = at
    if trail.system is not None and len(trail.system) != moves:
        raise RecordError(number, 0, f"system has {len(trail.system)} entries for {moves} moves")
    for voided in trail.voided:
        _check_voided(number, variant, voided)
    if trail.key is None:
        if trail.commitment is not None:
            raise RecordError(number, 0, "a commitment needs its key to be checked")
        return False
    dealt = deal_from_key(trail.key, variant)
    same_hands = [frozenset(tiles) for tiles in dealt.hands] == [frozenset(tiles) for tiles in hand.deal]
    if not same_hands or dealt.boneyard != hand.boneyard:
        raise RecordError(number, 0, "the deal is not the one its key gives")
    if trail.commitment is not None:
        if trail.hand_id is None:
            raise RecordError(number, 0, "a commitment needs the hand_id it was made for")
        if not verify_commitment(trail.key, trail.hand_id, trail.commitment):
            raise RecordError(number, 0, "the key does not match the commitment published for the hand")
    return True


def _check_voided(number: int, variant: Variant, voided: VoidedDeal) -> None:
    """A voided deal must be a reshuffle (Cuban) the rules allowed, proven by its commitment."""
    if not verify_commitment(voided.key, voided.hand_id, voided.commitment):
        raise RecordError(number, 0, "a voided deal's key does not match its commitment")
    if not variant.allows_reshuffle:
        raise RecordError(number, 0, f"{variant.name} has no reshuffle: none of its deals can be voided")
    if voided.seat >= variant.players or voided.seat not in variant.reshuffle_seats(
        deal_from_key(voided.key, variant).hands
    ):
        raise RecordError(number, 0, f"seat {voided.seat} was not dealt enough doubles to ask for a new deal")
