"""Who sees what of a table event: one neutral event from the log, one copy per audience.

The log keeps each seat's private part under its seat number (the tiles dealt to each seat, the
tile a seat drew, the legal plays of the seat in turn) and the deal key until the hand is over.
This is the only place that decides what leaves the server, for live pushes and for the catch-up
of a reconnecting client alike, so both always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from amigos.web import jsontext

#: Fields of the log that never leave the server as they are.
_SECRET = ("key", "hands", "at", "reshuffle")

#: Turn situations that follow from the table alone (its variant, its kind, a computer player in
#: the seat), so anyone may see them. The others ("single": one legal tile, 5 s; "blocking": 60 s;
#: "normal": 20 s) follow from the tiles of the seat in turn, and so does the clock's length: they
#: go to that seat only.
PUBLIC_SITUATIONS = frozenset({"timed", "computer", "correspondence"})


def turn_for(data: dict[str, Any], audience: int | None) -> dict[str, Any]:
    """The turn clock (a `clock` event's data, or the snapshot's `turn`) as ``audience`` sees it.

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


#: The kinds of event whose copy depends on its audience; every other kind reads the same for all.
PER_AUDIENCE = frozenset({"hand_started", "drew", "clock"})


def render(kind: str, data: dict[str, Any], audience: int | None) -> dict[str, Any]:
    """The copy of an event for ``audience``: a seat number, or None for the spectators. Only the
    kinds in PER_AUDIENCE look at the audience."""
    if kind == "clock":
        return turn_for(data, audience)
    out = {name: value for name, value in data.items() if name not in _SECRET}
    if kind == "hand_started":
        hands = data["hands"]
        out["hand"] = list(hands[audience]) if audience is not None else []
        if audience is not None and audience in (data.get("reshuffle") or ()):
            # Cuban: only the seat dealt 5 or more doubles learns it may ask for a new deal.
            out["reshuffle"] = True
    elif kind == "drew":
        out["tile"] = data["tile"] if audience == data["seat"] else None
    elif kind in ("hand_ended", "hand_voided"):
        out["key"] = data["key"]
    return out


def batch(
    table_id: int, events: Sequence[tuple[int, str, dict[str, Any]]], audience: int | None, now: str
) -> dict[str, Any]:
    """The `table.events` payload for one audience: numbered events (version, kind, data) in order,
    all those of one stored action (or of a catch-up), so a client gets them in one frame and
    never draws the table halfway through an action (a play without the next turn)."""
    return batches(table_id, events, [audience], now)[0]


def batches(
    table_id: int,
    events: Sequence[tuple[int, str, dict[str, Any]]],
    audiences: Sequence[int | None],
    now: str,
) -> list[dict[str, Any]]:
    """`batch` for each of ``audiences`` in turn. An event that reads the same for everyone (a
    play, a card: most of them) is rendered once and its copy shared by every payload, which are
    only ever encoded, never changed: a live table publishes each stored action to all its seats
    and its spectators, and rendering it five times over was a thirtieth of a play's time."""
    shared = [
        None if kind in PER_AUDIENCE else {"version": version, "kind": kind, "data": render(kind, data, None)}
        for version, kind, data in events
    ]
    return [
        {
            "table_id": table_id,
            "now": now,
            "events": [
                entry
                if entry is not None
                else {"version": version, "kind": kind, "data": render(kind, data, audience)}
                for (version, kind, data), entry in zip(events, shared, strict=True)
            ],
        }
        for audience in audiences
    ]


def batch_texts(
    table_id: int,
    events: Sequence[tuple[int, str, dict[str, Any]]],
    audiences: Sequence[int | None],
    now: str,
) -> list[str]:
    """`batches`, as the JSON texts the hub sends (`jsontext.dumps` of each payload), with each
    event encoded once for all the audiences it reads the same for.

    Why: a play's payloads differ only in the turn clock (the seat in turn sees its legal plays);
    encoding each whole payload, after comparing it with those already encoded, was a twentieth
    of the table's publishing. A payload is the events' texts joined, which is the text the whole
    payload encodes to (compact JSON, keys in order)."""
    head = f'{{"table_id":{jsontext.dumps(table_id)},"now":{jsontext.dumps(now)},"events":['
    shared = [
        None
        if kind in PER_AUDIENCE
        else jsontext.dumps({"version": version, "kind": kind, "data": render(kind, data, None)})
        for version, kind, data in events
    ]
    # The copies of each per-audience event made so far: most audiences read the same one.
    copies: list[list[tuple[dict[str, Any], str]]] = [[] for _ in events]
    texts = []
    for audience in audiences:
        parts = []
        for (version, kind, data), text, made in zip(events, shared, copies, strict=True):
            if text is None:
                copy = render(kind, data, audience)
                text = next((known_text for known, known_text in made if known == copy), None)
                if text is None:
                    text = jsontext.dumps({"version": version, "kind": kind, "data": copy})
                    made.append((copy, text))
            parts.append(text)
        texts.append(head + ",".join(parts) + "]}")
    return texts


def seat_topic(table_id: int, seat: int) -> str:
    return f"table:{table_id}:seat:{seat}"


def watch_topic(table_id: int) -> str:
    return f"table:{table_id}:watch"


def chat_topic(table_id: int) -> str:
    return f"table:{table_id}:chat"


def user_topic(user_id: int) -> str:
    return f"user:{user_id}"


LOBBY_TOPIC = "tables"


def iso(moment: datetime | None) -> str | None:
    """A moment as the protocol writes it: UTC with milliseconds and a Z."""
    if moment is None:
        return None
    if moment.tzinfo is not UTC:  # the table's clock gives UTC: anything else is converted first
        moment = moment.astimezone(UTC)
    # Written field by field: a play formats three moments, and `isoformat(timespec=...)`, then
    # cutting its "+00:00", took twice as long (converting each again and searching its text
    # for the offset, before that, took longer still); an f-string with a format for each field
    # takes longer than either.
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (  # noqa: UP031
        moment.year,
        moment.month,
        moment.day,
        moment.hour,
        moment.minute,
        moment.second,
        moment.microsecond // 1000,
    )
