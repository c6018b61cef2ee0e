"""The one codec of a live table's log: typed entries (`log_entries`) to stored rows and back, and
each row as an audience may see it on the wire.

A stored row is a kind (its name, e.g. ``"played"``) and a JSON object (its data). `encode` writes
an entry as the row the database keeps and the protocol publishes (docs/protocol.md names each kind
and its fields); `decode` reads any row the database holds back into an entry, rows written by
older versions included (a play or pass without its ``reason``, a hand without ``reshuffle``, a
match's end without ``seat``, an absence without ``abandon``, a match's start or end or a card
without its ``at``); a row of a kind unknown here comes back as `Unrecognized`, unchanged. `wire`
is the copy of a row for one audience: what stays on the server (a deal's key and hands until the
hand ends, the moment of a move, of a card and of a match's start and end, which only the record
tells), and what only one seat sees (its dealt tiles, the tile it drew, its turn clock and legal
plays).

This is the only module that spells a kind's name: everything else names an entry's class, and
asks `KIND` for its name where it must query the stored rows. The encoders are written out field
by field, in the order the rows always had (a row's text, and so every frame, is unchanged), and
without reflection: a play encodes two or three entries on the table's hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amigos.web.tables.log_entries import (
    CardGiven,
    ComputerHolds,
    Disconnected,
    Drew,
    HandEnded,
    HandStarted,
    HandVoided,
    InvitationRefused,
    LogEntry,
    MatchEnded,
    MatchStarted,
    Notice,
    Passed,
    Played,
    Reconnected,
    SeatChanged,
    SeatReturned,
    TableCancelled,
    TurnClockShown,
    Unrecognized,
    VoteCast,
    VotesClosed,
)

__all__ = [
    "KIND",
    "PER_AUDIENCE",
    "PUBLIC_SITUATIONS",
    "Row",
    "decode",
    "encode",
    "read",
    "turn_for",
    "wire",
]

#: A stored row of the log: its kind's name and its data.
Row = tuple[str, dict[str, Any]]

#: Each entry's kind, as the database and the protocol name it.
KIND: dict[type[LogEntry], str] = {
    MatchStarted: "started",
    HandStarted: "hand_started",
    HandVoided: "hand_voided",
    Played: "played",
    Passed: "passed",
    Drew: "drew",
    HandEnded: "hand_ended",
    MatchEnded: "match_ended",
    TurnClockShown: "clock",
    Notice: "notice",
    CardGiven: "card",
    SeatChanged: "seat_changed",
    InvitationRefused: "invitation_refused",
    TableCancelled: "cancelled",
    VoteCast: "vote",
    VotesClosed: "votes_closed",
    Disconnected: "disconnected",
    Reconnected: "reconnected",
    ComputerHolds: "computer_holds",
    SeatReturned: "seat_returned",
}

# -- entry to row ----------------------------------------------------------------------------------


def _match_started(entry: MatchStarted) -> dict[str, Any]:
    data: dict[str, Any] = {
        "match": entry.match,
        "players": list(entry.players),
        "first_leader": entry.first_leader,
    }
    if entry.at is not None:
        data["at"] = entry.at
    return data


def _hand_started(entry: HandStarted) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": entry.number,
        "id": entry.id,
        "commitment": entry.commitment,
        "leader": entry.leader,
        "key": entry.key,
        "hands": [list(hand) for hand in entry.hands],
        "hand_sizes": list(entry.hand_sizes),
        "boneyard_size": entry.boneyard_size,
        "reshuffle": list(entry.reshuffle),
    }
    if entry.lead_draw is not None:
        data["lead_draw"] = [[seat, tile] for seat, tile in entry.lead_draw]
    if entry.at is not None:
        data["at"] = entry.at
    return data


def _hand_voided(entry: HandVoided) -> dict[str, Any]:
    return {
        "number": entry.number,
        "seat": entry.seat,
        "id": entry.id,
        "key": entry.key,
        "commitment": entry.commitment,
    }


def _played(entry: Played) -> dict[str, Any]:
    return {
        "seat": entry.seat,
        "tile": entry.tile,
        "arm": entry.arm,
        "lead_left": entry.lead_left,
        "ends": entry.ends,
        "placement": entry.placement,
        "points": entry.points,
        "system": entry.system,
        "reason": entry.reason,
        "hand_sizes": list(entry.hand_sizes),
        "at": entry.at,
    }


def _passed(entry: Passed) -> dict[str, Any]:
    return {
        "seat": entry.seat,
        "ends": list(entry.ends),
        "automatic": entry.automatic,
        "reason": entry.reason,
        "at": entry.at,
    }


def _drew(entry: Drew) -> dict[str, Any]:
    return {"seat": entry.seat, "tile": entry.tile, "boneyard_size": entry.boneyard_size}


def _hand_ended(entry: HandEnded) -> dict[str, Any]:
    return {
        "number": entry.number,
        "id": entry.id,
        "outcome": entry.outcome,
        "revealed": [list(hand) for hand in entry.revealed],
        "key": entry.key,
        "commitment": entry.commitment,
        "sheet": entry.sheet,
    }


def _match_ended(entry: MatchEnded) -> dict[str, Any]:
    data: dict[str, Any] = {
        "termination": entry.termination,
        "winner": entry.winner,
        "sheet": entry.sheet,
        "completed": entry.completed,
    }
    # A match ended short of its target names its offender, even when there is none (null).
    if entry.termination != "target" or entry.offender is not None:
        data["seat"] = entry.offender
    if entry.votes_deadline is not None:
        data["votes_deadline"] = entry.votes_deadline
    if entry.at is not None:
        data["at"] = entry.at
    return data


def _turn_clock(entry: TurnClockShown) -> dict[str, Any]:
    return {
        "seat": entry.seat,
        "deadline": entry.deadline,
        "seconds": entry.seconds,
        "situation": entry.situation,
        "legal": entry.legal,
    }


def _notice(entry: Notice) -> dict[str, Any]:
    return {"code": entry.code, "seat": entry.seat}


def _card(entry: CardGiven) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seat": entry.seat,
        "user_id": entry.user_id,
        "colour": entry.colour,
        "reason": entry.reason,
        "cards": dict(entry.cards),
    }
    if entry.practice:
        data["practice"] = True
    if entry.at is not None:
        data["at"] = entry.at
    return data


def _seat_changed(entry: SeatChanged) -> dict[str, Any]:
    return {"seat": entry.seat}


def _invitation_refused(entry: InvitationRefused) -> dict[str, Any]:
    return {"seat": entry.seat, "user_id": entry.user_id, "name": entry.name, "reason": entry.reason}


def _cancelled(entry: TableCancelled) -> dict[str, Any]:
    return {"reason": entry.reason}


def _vote(entry: VoteCast) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": entry.seat, "choice": entry.choice}
    if entry.left:
        data["left"] = True
    return data


def _votes_closed(entry: VotesClosed) -> dict[str, Any]:
    return {"result": entry.result, "next_table_id": entry.next_table_id}


def _disconnected(entry: Disconnected) -> dict[str, Any]:
    return {
        "seat": entry.seat,
        "since": entry.since,
        "reconnect_deadline": entry.reconnect_deadline,
        "abandon": entry.abandon,
    }


def _seat_only(entry: Reconnected | SeatReturned) -> dict[str, Any]:
    return {"seat": entry.seat}


def _computer_holds(entry: ComputerHolds) -> dict[str, Any]:
    return {"seat": entry.seat, "level": entry.level}


_ENCODERS: dict[type[Any], Callable[[Any], dict[str, Any]]] = {
    MatchStarted: _match_started,
    HandStarted: _hand_started,
    HandVoided: _hand_voided,
    Played: _played,
    Passed: _passed,
    Drew: _drew,
    HandEnded: _hand_ended,
    MatchEnded: _match_ended,
    TurnClockShown: _turn_clock,
    Notice: _notice,
    CardGiven: _card,
    SeatChanged: _seat_changed,
    InvitationRefused: _invitation_refused,
    TableCancelled: _cancelled,
    VoteCast: _vote,
    VotesClosed: _votes_closed,
    Disconnected: _disconnected,
    Reconnected: _seat_only,
    ComputerHolds: _computer_holds,
    SeatReturned: _seat_only,
}
assert _ENCODERS.keys() == KIND.keys()


def encode(entry: LogEntry) -> Row:
    """The stored row of ``entry``: its kind's name and its data, a new dict each time (which
    the caller may keep: a row is stored and published, never changed)."""
    if isinstance(entry, Unrecognized):
        return entry.kind, dict(entry.data)
    kind = type(entry)
    return KIND[kind], _ENCODERS[kind](entry)


# -- row to entry ----------------------------------------------------------------------------------


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _tiles(rows: object) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(tile) for tile in row) for row in rows or ())  # type: ignore[attr-defined]


def _read_match_started(data: Mapping[str, Any]) -> MatchStarted:
    return MatchStarted(
        match=int(data["match"]),
        players=tuple(str(name) for name in data.get("players") or ()),
        first_leader=_int_or_none(data.get("first_leader")),
        at=_str_or_none(data.get("at")),
    )


def _read_hand_started(data: Mapping[str, Any]) -> HandStarted:
    drawn = data.get("lead_draw")
    return HandStarted(
        number=int(data["number"]),
        id=str(data["id"]),
        commitment=str(data["commitment"]),
        leader=int(data["leader"]),
        key=str(data["key"]),
        hands=_tiles(data.get("hands")),
        hand_sizes=tuple(int(size) for size in data.get("hand_sizes") or ()),
        boneyard_size=int(data.get("boneyard_size") or 0),
        reshuffle=tuple(int(seat) for seat in data.get("reshuffle") or ()),
        lead_draw=None if drawn is None else tuple((int(seat), str(tile)) for seat, tile in drawn),
        at=_str_or_none(data.get("at")),
    )


def _read_hand_voided(data: Mapping[str, Any]) -> HandVoided:
    return HandVoided(
        number=int(data["number"]),
        seat=int(data["seat"]),
        id=str(data["id"]),
        key=str(data["key"]),
        commitment=str(data["commitment"]),
    )


def _read_played(data: Mapping[str, Any]) -> Played:
    return Played(
        seat=int(data["seat"]),
        tile=str(data["tile"]),
        arm=_str_or_none(data.get("arm")),
        lead_left=_int_or_none(data.get("lead_left")),
        ends=dict(data.get("ends") or {}),
        placement=data.get("placement"),
        points=int(data.get("points") or 0),
        system=bool(data.get("system") or data.get("automatic")),
        reason=_str_or_none(data.get("reason")),
        hand_sizes=tuple(int(size) for size in data.get("hand_sizes") or ()),
        at=str(data.get("at", "")),
    )


def _read_passed(data: Mapping[str, Any]) -> Passed:
    return Passed(
        seat=int(data["seat"]),
        ends=tuple(int(end) for end in data.get("ends") or ()),
        automatic=bool(data.get("system") or data.get("automatic")),
        reason=_str_or_none(data.get("reason")),
        at=str(data.get("at", "")),
    )


def _read_drew(data: Mapping[str, Any]) -> Drew:
    return Drew(
        seat=int(data["seat"]), tile=str(data["tile"]), boneyard_size=int(data.get("boneyard_size") or 0)
    )


def _read_hand_ended(data: Mapping[str, Any]) -> HandEnded:
    return HandEnded(
        number=int(data["number"]),
        id=str(data["id"]),
        outcome=data.get("outcome"),
        revealed=_tiles(data.get("revealed")),
        key=str(data["key"]),
        commitment=str(data["commitment"]),
        sheet=data.get("sheet"),
    )


def _read_match_ended(data: Mapping[str, Any]) -> MatchEnded:
    return MatchEnded(
        termination=str(data["termination"]),
        winner=_int_or_none(data.get("winner")),
        sheet=data.get("sheet"),
        completed=bool(data.get("completed")),
        offender=_int_or_none(data.get("seat")),
        votes_deadline=_str_or_none(data.get("votes_deadline")),
        at=_str_or_none(data.get("at")),
    )


def _read_turn_clock(data: Mapping[str, Any]) -> TurnClockShown:
    return TurnClockShown(
        seat=int(data["seat"]),
        deadline=_str_or_none(data.get("deadline")),
        seconds=int(data.get("seconds") or 0),
        situation=str(data.get("situation", "")),
        legal=data.get("legal", []),
    )


def _read_notice(data: Mapping[str, Any]) -> Notice:
    return Notice(code=str(data["code"]), seat=_int_or_none(data.get("seat")))


def _read_card(data: Mapping[str, Any]) -> CardGiven:
    return CardGiven(
        seat=int(data["seat"]),
        user_id=_int_or_none(data.get("user_id")),
        colour=str(data["colour"]),
        reason=str(data.get("reason", "")),
        cards={str(colour): int(count) for colour, count in (data.get("cards") or {}).items()},
        practice=bool(data.get("practice")),
        at=_str_or_none(data.get("at")),
    )


def _read_seat_changed(data: Mapping[str, Any]) -> SeatChanged:
    return SeatChanged(seat=data.get("seat"))


def _read_invitation_refused(data: Mapping[str, Any]) -> InvitationRefused:
    return InvitationRefused(
        seat=int(data["seat"]),
        user_id=_int_or_none(data.get("user_id")),
        name=str(data.get("name", "")),
        reason=str(data.get("reason", "")),
    )


def _read_cancelled(data: Mapping[str, Any]) -> TableCancelled:
    return TableCancelled(reason=str(data.get("reason", "")))


def _read_vote(data: Mapping[str, Any]) -> VoteCast:
    return VoteCast(seat=int(data["seat"]), choice=str(data["choice"]), left=bool(data.get("left")))


def _read_votes_closed(data: Mapping[str, Any]) -> VotesClosed:
    return VotesClosed(result=str(data["result"]), next_table_id=_int_or_none(data.get("next_table_id")))


def _read_disconnected(data: Mapping[str, Any]) -> Disconnected:
    return Disconnected(
        seat=int(data["seat"]),
        since=_str_or_none(data.get("since")),
        reconnect_deadline=_str_or_none(data.get("reconnect_deadline")),
        abandon=bool(data.get("abandon")),
    )


def _read_reconnected(data: Mapping[str, Any]) -> Reconnected:
    return Reconnected(seat=int(data["seat"]))


def _read_computer_holds(data: Mapping[str, Any]) -> ComputerHolds:
    return ComputerHolds(seat=int(data["seat"]), level=str(data.get("level", "")))


def _read_seat_returned(data: Mapping[str, Any]) -> SeatReturned:
    return SeatReturned(seat=int(data["seat"]))


_DECODERS: dict[str, Callable[[Mapping[str, Any]], LogEntry]] = {
    KIND[MatchStarted]: _read_match_started,
    KIND[HandStarted]: _read_hand_started,
    KIND[HandVoided]: _read_hand_voided,
    KIND[Played]: _read_played,
    KIND[Passed]: _read_passed,
    KIND[Drew]: _read_drew,
    KIND[HandEnded]: _read_hand_ended,
    KIND[MatchEnded]: _read_match_ended,
    KIND[TurnClockShown]: _read_turn_clock,
    KIND[Notice]: _read_notice,
    KIND[CardGiven]: _read_card,
    KIND[SeatChanged]: _read_seat_changed,
    KIND[InvitationRefused]: _read_invitation_refused,
    KIND[TableCancelled]: _read_cancelled,
    KIND[VoteCast]: _read_vote,
    KIND[VotesClosed]: _read_votes_closed,
    KIND[Disconnected]: _read_disconnected,
    KIND[Reconnected]: _read_reconnected,
    KIND[ComputerHolds]: _read_computer_holds,
    KIND[SeatReturned]: _read_seat_returned,
}
assert _DECODERS.keys() == set(KIND.values())


def decode(kind: str, data: Any) -> LogEntry:
    """The entry a stored row holds. A row of an unknown kind, or whose data is not an object,
    comes back as `Unrecognized`; a known kind missing a field it cannot do without (a play's
    tile) raises KeyError or ValueError, as replaying it would fail."""
    reader = _DECODERS.get(kind)
    if reader is None or not isinstance(data, Mapping):
        return Unrecognized(kind, data)
    return reader(data)


def read(kind: str, data: Any) -> LogEntry | None:
    """`decode` for a reader that only shows what the log says (a list of tables, a reminder): a
    row it cannot read is None, skipped, where rebuilding a table from it must fail loudly."""
    try:
        return decode(kind, data)
    except (KeyError, TypeError, ValueError):
        return None


# -- row to wire -----------------------------------------------------------------------------------

#: Fields of a row that never leave the server as they are.
_SECRET = ("key", "hands", "at", "reshuffle")

#: Turn situations that follow from the table alone (its variant, its kind, a computer player in
#: the seat), so anyone may see them. The others ("single": one legal tile, 5 s; "blocking": 60 s;
#: "normal": 20 s) follow from the tiles of the seat in turn, and so does the clock's length: they
#: go to that seat only.
PUBLIC_SITUATIONS = frozenset({"timed", "computer", "correspondence"})

_CLOCK = KIND[TurnClockShown]
_HAND_STARTED = KIND[HandStarted]
_DREW = KIND[Drew]
#: The kinds whose rows reveal the deal's key to everyone (the hand is over, or its deal void).
_REVEAL = frozenset({KIND[HandEnded], KIND[HandVoided]})

#: The kinds of row whose copy depends on its audience; every other kind reads the same for all.
PER_AUDIENCE = frozenset({_HAND_STARTED, _DREW, _CLOCK})


def turn_for(data: dict[str, Any], audience: int | None) -> dict[str, Any]:
    """The turn clock (a clock row's data, or the snapshot's `turn`) as ``audience`` sees it.

    The seat in turn gets it all. Everyone else learns whose turn it is and, only when the
    situation is public (PUBLIC_SITUATIONS), its clock; otherwise `deadline`, `seconds` and
    `situation` are null, because a 5-second clock says "one legal tile" and a 60-second one
    "a play that may block" (docs/protocol.md, "The turn clock for the others")."""
    out = {name: value for name, value in data.items() if name not in _SECRET}
    if audience == data["seat"]:
        out["legal"] = list(data.get("legal") or [])
        return out
    out["legal"] = []
    if data.get("situation") not in PUBLIC_SITUATIONS:
        out["deadline"] = out["seconds"] = out["situation"] = None
    return out


def wire(kind: str, data: dict[str, Any], audience: int | None) -> dict[str, Any]:
    """The copy of a stored row's data for ``audience``: a seat number, or None for the
    spectators. Only the kinds in PER_AUDIENCE look at the audience."""
    if kind == _CLOCK:
        return turn_for(data, audience)
    out = {name: value for name, value in data.items() if name not in _SECRET}
    if kind == _HAND_STARTED:
        hands = data["hands"]
        out["hand"] = list(hands[audience]) if audience is not None else []
        if audience is not None and audience in (data.get("reshuffle") or ()):
            # Cuban: only the seat dealt 5 or more doubles learns it may ask for a new deal.
            out["reshuffle"] = True
    elif kind == _DREW:
        out["tile"] = data["tile"] if audience == data["seat"] else None
    elif kind in _REVEAL:
        out["key"] = data["key"]
    return out
