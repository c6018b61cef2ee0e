"""The table actor's database work: load a table, append its events durably, read what was missed.

Synchronous Django ORM code, called by the actor through `database_sync_to_async`. `append` is the
one place a table's play is written: the events, the new version, the deadline, cards and the
record go in one transaction, and the row lock plus the version check refuse a write from anyone
who is not the current writer (a process that lost the table's lease, for instance).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from amigos.web.moderation import services as moderation
from amigos.web.tables.models import (
    OPEN_STATUSES,
    Card,
    MatchRecord,
    Seat,
    Table,
    TableChatLine,
    TableEvent,
)

#: How many recent events an actor keeps in memory for reconnecting clients.
TAIL = 200


class LostWrite(Exception):
    """The table's version moved under us: another writer exists; this actor must stop."""


@dataclass
class SeatRow:
    number: int
    user_id: int | None
    name: str
    level: str
    invitation: str
    invited_until: datetime | None


@dataclass
class Loaded:
    id: int
    name: str
    variant: str
    players: int
    target: int | None
    kind: str
    organizer_id: int
    status: str
    version: int
    match_number: int
    deadline_at: datetime | None
    deadline_kind: str
    seats: list[SeatRow]
    # The log of the current match (from its `started` event on), oldest first.
    log: list[tuple[int, str, dict[str, Any]]]
    cards: dict[int, dict[str, int]] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Write:
    """Everything one accepted action changes, written together."""

    events: list[tuple[str, dict[str, Any]]]
    at: datetime
    status: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    deadline: tuple[datetime | None, str] | None = None
    match_number: int | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    record_started_at: datetime | None = None
    # Filled by `append`: the players whose new cards suspended their account (moderation's ladder).
    suspended: list[int] = field(default_factory=list)
    record_ended: bool = False
    termination: str = ""
    next_table_id: int | None = None


def seat_rows(table_id: int) -> list[SeatRow]:
    rows = Seat.objects.filter(table_id=table_id).select_related("user").order_by("number")
    return [
        SeatRow(
            number=row.number,
            user_id=row.user_id,
            name=row.user.display_name if row.user is not None else "",
            level=row.level,
            invitation=row.invitation,
            invited_until=row.invited_until,
        )
        for row in rows
    ]


def load(table_id: int) -> Loaded | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    started = list(
        TableEvent.objects.filter(table_id=table_id, kind="started")
        .order_by("-version")
        .values_list("version", flat=True)[:1]
    )
    since = started[0] - 1 if started else 0
    log = [
        (row.version, row.kind, row.data)
        for row in TableEvent.objects.filter(table_id=table_id, version__gt=since).order_by("version")
    ]
    cards: dict[int, dict[str, int]] = {}
    seat_of = {
        row.user_id: row.number for row in Seat.objects.filter(table_id=table_id) if row.user_id is not None
    }
    for card in Card.objects.filter(table_id=table_id, match=table.match_number):
        seat = seat_of.get(card.user_id)
        if seat is not None:
            counts = cards.setdefault(seat, {"yellow": 0, "blue": 0, "red": 0})
            counts[card.colour] += 1
    chat = [
        chat_payload(line)
        for line in reversed(
            list(
                TableChatLine.objects.filter(table_id=table_id).select_related("author").order_by("-id")[:30]
            )
        )
    ]
    return Loaded(
        id=table.pk,
        name=table.name,
        variant=table.variant,
        players=table.players,
        target=table.target,
        kind=table.kind,
        organizer_id=table.organizer_id,
        status=table.status,
        version=table.version,
        match_number=table.match_number,
        deadline_at=table.deadline_at,
        deadline_kind=table.deadline_kind,
        seats=seat_rows(table_id),
        log=log,
        cards=cards,
        chat=chat,
    )


def append(table_id: int, expected_version: int, write: Write) -> int:
    """Store ``write`` if the table is still at ``expected_version``; the new version."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.version != expected_version:
            raise LostWrite(f"table {table_id} is at version {table.version}, not {expected_version}")
        version = table.version
        rows = []
        for kind, data in write.events:
            version += 1
            rows.append(TableEvent(table_id=table_id, version=version, kind=kind, data=data, at=write.at))
        TableEvent.objects.bulk_create(rows)
        table.version = version
        fields = ["version"]
        if write.status is not None:
            table.status = write.status
            fields.append("status")
        if write.started_at is not None:
            table.started_at = write.started_at
            fields.append("started_at")
        if write.ended_at is not None:
            table.ended_at = write.ended_at
            fields.append("ended_at")
        if write.deadline is not None:
            table.deadline_at, table.deadline_kind = write.deadline
            fields += ["deadline_at", "deadline_kind"]
        if write.match_number is not None:
            table.match_number = write.match_number
            fields.append("match_number")
        if write.next_table_id is not None:
            table.next_table_id = write.next_table_id
            fields.append("next_table")
        table.save(update_fields=fields)
        if write.cards:
            stored = [
                Card.objects.create(table_id=table_id, given_at=write.at, **card) for card in write.cards
            ]
            write.suspended = [row.user_id for row in moderation.cards_given(cards=stored, now=write.at)]
        for change in write.seats:
            number = change.pop("number")
            Seat.objects.filter(table_id=table_id, number=number).update(**change)
        if write.record is not None:
            match = write.match_number or table.match_number
            record, _ = MatchRecord.objects.get_or_create(
                table_id=table_id,
                number=match,
                defaults={"record": write.record, "started_at": write.record_started_at or write.at},
            )
            record.record = write.record
            if write.record_ended:
                record.ended_at = write.at
                record.termination = write.termination
            record.save()
    return version


def events_between(table_id: int, since: int, until: int) -> list[tuple[int, str, dict[str, Any]]]:
    rows = TableEvent.objects.filter(table_id=table_id, version__gt=since, version__lte=until).order_by(
        "version"
    )
    return [(row.version, row.kind, row.data) for row in rows]


def open_table_ids() -> list[int]:
    return list(Table.objects.filter(status__in=OPEN_STATUSES).values_list("pk", flat=True))


def mark_archived(table_id: int, match: int) -> None:
    MatchRecord.objects.filter(table_id=table_id, number=match).update(archived=True)


def chat_payload(line: TableChatLine) -> dict[str, Any]:
    return {
        "table_id": line.table_id,
        "id": line.pk,
        "author_id": line.author_id,
        "author": line.author.display_name,
        "seat": line.seat,
        "text": line.text,
        "sent_at": line.sent_at.isoformat().replace("+00:00", "Z"),
    }


def post_chat(table_id: int, author_id: int, seat: int | None, text: str, at: datetime) -> dict[str, Any]:
    line = TableChatLine.objects.create(
        table_id=table_id, author_id=author_id, seat=seat, text=text, sent_at=at
    )
    return chat_payload(TableChatLine.objects.select_related("author").get(pk=line.pk))
