"""What leaves the server of a table's log: its stored rows, one copy per audience, in the
`table.events` payloads (docs/protocol.md), and the topics they go to.

The log keeps each seat's private part under its seat number (the tiles dealt to each seat, the
tile a seat drew, the legal plays of the seat in turn) and the deal key until the hand is over.
What each audience may see of a row is the codec's to say (`log_codec.wire`); every payload, live
pushes and a reconnecting client's catch-up alike, is made here from it, so both always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from amigos.web import jsontext
from amigos.web.tables.log_codec import PER_AUDIENCE, PUBLIC_SITUATIONS, turn_for, wire

__all__ = [
    "LOBBY_TOPIC",
    "PER_AUDIENCE",
    "PUBLIC_SITUATIONS",
    "batch",
    "batch_texts",
    "batches",
    "chat_topic",
    "iso",
    "render",
    "seat_topic",
    "turn_for",
    "user_topic",
    "watch_topic",
]

#: The copy of a stored row for one audience is the codec's (`log_codec.wire`), named here too as
#: the table's rendering has always named it.
render = wire


def batch(
    table_id: int, rows: Sequence[tuple[int, str, dict[str, Any]]], audience: int | None, now: str
) -> dict[str, Any]:
    """The `table.events` payload for one audience: stored log rows (version, kind, data) in order,
    each an event of the protocol, all those of one stored action (or of a catch-up), so a client
    gets them in one frame and never draws the table halfway through an action (a play without the
    next turn)."""
    return batches(table_id, rows, [audience], now)[0]


def batches(
    table_id: int,
    rows: Sequence[tuple[int, str, dict[str, Any]]],
    audiences: Sequence[int | None],
    now: str,
) -> list[dict[str, Any]]:
    """`batch` for each of ``audiences`` in turn. An event that reads the same for everyone (a
    play, a card: most of them) is rendered once and its copy shared by every payload, which are
    only ever encoded, never changed: a live table publishes each stored action to all its seats
    and its spectators, and rendering it five times over was a thirtieth of a play's time."""
    shared = [
        None if kind in PER_AUDIENCE else {"version": version, "kind": kind, "data": render(kind, data, None)}
        for version, kind, data in rows
    ]
    return [
        {
            "table_id": table_id,
            "now": now,
            "events": [
                entry
                if entry is not None
                else {"version": version, "kind": kind, "data": render(kind, data, audience)}
                for (version, kind, data), entry in zip(rows, shared, strict=True)
            ],
        }
        for audience in audiences
    ]


def batch_texts(
    table_id: int,
    rows: Sequence[tuple[int, str, dict[str, Any]]],
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
        for version, kind, data in rows
    ]
    # The copies of each per-audience event made so far: most audiences read the same one.
    copies: list[list[tuple[dict[str, Any], str]]] = [[] for _ in rows]
    texts = []
    for audience in audiences:
        parts = []
        for (version, kind, data), text, made in zip(rows, shared, copies, strict=True):
            if text is None:
                copy = render(kind, data, audience)
                text = next((known_text for known, known_text in made if known == copy), None)
                if text is None:
                    text = jsontext.dumps({"version": version, "kind": kind, "data": copy})
                    made.append((copy, text))
            parts.append(text)
        texts.append(head + ",".join(parts) + "]}")
    return texts


def match_name(table_id: int, match: int) -> str:
    """A live match's identity (its record's table, under which its hands are named and keys
    committed, and the archive's source): the server's table and the match's number."""
    return f"table:{table_id}:match:{match}"


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
