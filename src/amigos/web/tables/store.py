"""The table actor's database work: load a table, append to its log durably, read what was missed.

Synchronous Django ORM code, called by the actor through `database_sync_to_async`. `append` is the
one place a table's play is written: the log rows, the new version, the deadline, cards and the
record go in one transaction, and the row lock plus the version check refuse a write from anyone
who is not the current writer (a process that lost the table's lease, for instance).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import Field

from amigos.web import jsontext
from amigos.web.tables import card_hooks, chat_lines, log_codec
from amigos.web.tables.log_entries import MatchStarted, TableCancelled, no_cards
from amigos.web.tables.models import (
    OPEN_STATUSES,
    Card,
    LogRow,
    MatchRecord,
    Seat,
    Table,
    TableChatLine,
)

if TYPE_CHECKING:
    from amigos.web.accounts.models import User

#: How many stored log rows a reconnecting client may catch up on (more: a snapshot).
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
    # The log of the current match (from its start on), oldest first: (version, kind, data) rows,
    # which `log_codec.decode` reads.
    log: list[tuple[int, str, dict[str, Any]]]
    cards: dict[int, dict[str, int]] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Write:
    """Everything one accepted action changes, written together: ``rows``, the log rows it appends
    (kind, data: `log_codec.encode` of each entry), and the table's other changes."""

    at: datetime
    rows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    deadline: tuple[datetime | None, str] | None = None
    match_number: int | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    record_started_at: datetime | None = None
    # Filled by `append`: the players whose new cards suspended their account (the ladder that
    # moderation registers with `card_hooks`).
    suspended: list[int] = field(default_factory=list)
    record_ended: bool = False
    termination: str = ""
    next_table_id: int | None = None


def seat_rows(table_id: int) -> list[SeatRow]:
    rows = Seat.objects.filter(table_id=table_id).select_related("user").order_by("number")
    return [seat_row(row, row.user) for row in rows]


def seat_row(seat: Seat, user: User | None) -> SeatRow:
    """A seat as its actor keeps it; ``user``, its player (None: a computer), whose name it shows."""
    return SeatRow(
        number=seat.number,
        user_id=seat.user_id,
        name=user.display_name if user is not None else "",
        level=seat.level,
        invitation=seat.invitation,
        invited_until=seat.invited_until,
    )


def made(
    table: Table,
    seats: list[SeatRow],
    log: list[tuple[int, str, dict[str, Any]]] | None = None,
    cards: dict[int, dict[str, int]] | None = None,
    chat: list[dict[str, Any]] | None = None,
) -> Loaded:
    """What `load` would read of a table just made, from the rows its maker holds: nothing stored
    yet (no log row, card or chat line); `load` passes what it read of them.

    Why: a vote's rematch table is built by its actor right after it is made
    (`services.make_next_table`); reading back the rows just written cost a rematch three
    statements on a thread that holds the interpreter's lock between them."""
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
        seats=seats,
        log=log or [],
        cards=cards or {},
        chat=chat or [],
    )


def load(table_id: int) -> Loaded | None:
    """The table as its actor needs it, or None (no such table).

    A table at version 0 has stored no log row yet, and so no card either (both are written only
    with a new version, `_write`): their queries are skipped. Every rematch table is loaded so
    (its actor is built when the old table wakes it), and these statements were a third of what
    a rematch cost the server. Its chat is read all the same: a line does not move the version."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = seat_rows(table_id)
    log: list[tuple[int, str, dict[str, Any]]] = []
    cards: dict[int, dict[str, int]] = {}
    if table.version:
        started = list(
            LogRow.objects.filter(table_id=table_id, kind=log_codec.KIND[MatchStarted])
            .order_by("-version")
            .values_list("version", flat=True)[:1]
        )
        since = started[0] - 1 if started else 0
        log = [
            (row.version, row.kind, row.data)
            for row in LogRow.objects.filter(table_id=table_id, version__gt=since).order_by("version")
        ]
        seat_of = {row.user_id: row.number for row in seats if row.user_id is not None}
        for card in Card.objects.filter(table_id=table_id, match=table.match_number):
            seat = seat_of.get(card.user_id)
            if seat is not None:
                counts = cards.setdefault(seat, no_cards())
                counts[card.colour] += 1
    chat = [
        chat_lines.chat_payload(line)
        for line in reversed(
            list(
                TableChatLine.objects.filter(table_id=table_id).select_related("author").order_by("-id")[:30]
            )
        )
    ]
    return made(table, seats, log, cards, chat)


def append(table_id: int, expected_version: int, write: Write) -> int:
    """Store ``write`` if the table is still at ``expected_version``; the new version.

    One conditional UPDATE both checks the version and locks the table's row until the commit (a
    second writer finds the version moved and gets `LostWrite`), then one INSERT adds the log rows:
    two statements for a play. Every move takes this path on SQLite; on PostgreSQL it is what the
    one-statement group (`_write_group`) is tested against, and where a failed group's writes go."""
    with transaction.atomic():
        return _write(table_id, expected_version, write)


#: What `append_many` gives back for each write: the new version, or why it was not stored.
Outcome = int | Exception


def append_many(writes: list[tuple[int, int, Write]]) -> list[Outcome]:
    """Store the writes of several tables (at most one each) in one transaction: one commit, so one
    flush of the database's log, for all of them, where each commit used to cost a play its own.

    A write whose table moved on gets its `LostWrite` and the others are stored all the same. If
    the transaction fails (one write breaks a constraint, the connection drops, a bug), nothing of
    it is kept and each write is tried again alone, so one bad write costs the others nothing but
    time; each then gets its version or its own error.

    On PostgreSQL the whole group, even of one write, is one statement (`_write_group`): a
    statement's round trip costs the store thread the interpreter's lock twice, which the busy
    event loop holds most of the time, so under load each statement took ten times what it takes
    alone. `append`, statement by statement, is what it must store the same as."""
    postgresql = connection.vendor == "postgresql"
    if len(writes) == 1 and not postgresql:
        return [_alone(*writes[0])]
    try:
        if postgresql and one_statement(writes):
            # One statement is a transaction of its own: no BEGIN and COMMIT, two round trips less.
            return _write_group(writes)
        with transaction.atomic():
            if postgresql:
                return _write_group(writes)
            outcomes: list[Outcome] = []
            for table_id, expected_version, write in writes:
                try:
                    outcomes.append(_write(table_id, expected_version, write))
                except LostWrite as lost:  # raised before it wrote anything: the others go on
                    outcomes.append(lost)
            return outcomes
    except Exception:  # whatever broke the group, each write gets its own answer
        return append_each(writes)


def one_statement(writes: list[tuple[int, int, Write]]) -> bool:
    """Whether a group is all in `GROUP_SQL`, which then needs no transaction around it: no write
    gives cards or changes seats (those go through the ORM, statement by statement)."""
    return not any(write.cards or write.seats for _, _, write in writes)


def append_each(writes: list[tuple[int, int, Write]]) -> list[Outcome]:
    """Each write in a transaction of its own, after its group failed: a write's failure, whatever
    it is, goes back to its own actor (which then rebuilds its table from the log), and the others
    are stored all the same."""
    for _, _, write in writes:
        write.suspended = []
    return [_alone(*entry) for entry in writes]


def _write_group(writes: list[tuple[int, int, Write]]) -> list[Outcome]:
    """`_write` for many tables at once (PostgreSQL), in the caller's transaction if it writes cards
    or seats and otherwise as a transaction of its own: one statement (`GROUP_SQL`) updates each
    table still at its expected version, adds the log rows and upserts the records of those tables;
    cards and seat changes, which are rare, go as they do alone. A table whose version moved is
    left untouched and gets its `LostWrite`. The store's event-loop connections
    (`tables.loop_store`) run the same statement with the same parameters."""
    group = GroupWrite(writes)
    with connection.cursor() as cursor:
        cursor.execute(group_sql(), group.parameters)
        matches = {int(table_id) for (table_id,) in cursor.fetchall()}
        found: dict[int, int] = {}
        if lost := group.lost(matches):
            cursor.execute(versions_sql(), [lost])
            found = {int(table_id): int(version) for table_id, version in cursor.fetchall()}
    return group.outcomes(matches, found, stored=_cards_and_seats)


class GroupWrite:
    """One group's writes as `GROUP_SQL`'s parameters, and each write's outcome once it has run.

    The writes cross to the database as three JSON texts, which PostgreSQL unpacks into rows: the
    driver quotes each value of a statement in Python, and quoting every element of one array per
    column, with a round trip per statement, was most of the store thread's time, time it takes
    from the event loop, since both need the interpreter's lock."""

    def __init__(self, writes: list[tuple[int, int, Write]]) -> None:
        assert len({table_id for table_id, _, _ in writes}) == len(writes), "one write per table"
        self.writes = writes
        tables: list[dict[str, Any]] = []
        log_rows: list[dict[str, Any]] = []
        records: list[dict[str, Any]] = []
        for table_id, expected, write in writes:
            deadline_at, deadline_kind = write.deadline if write.deadline is not None else (None, None)
            tables.append(
                {
                    "id": table_id,
                    "expected": expected,
                    "version": expected + len(write.rows),
                    "status": write.status,
                    "started_at": write.started_at,
                    "ended_at": write.ended_at,
                    "deadline_at": deadline_at,
                    "deadline_kind": deadline_kind,
                    "match_number": write.match_number,
                    "next_table_id": write.next_table_id,
                }
            )
            at = write.at
            log_rows += [
                {"table_id": table_id, "version": expected + offset, "kind": kind, "data": data, "at": at}
                for offset, (kind, data) in enumerate(write.rows, start=1)
            ]
            if write.record is not None:
                records.append(
                    {
                        "table_id": table_id,
                        "record": write.record,
                        "started_at": write.record_started_at or write.at,
                        "ended_at": at if write.record_ended else None,
                        "termination": write.termination if write.record_ended else "",
                    }
                )
        self.versions = [int(row["version"]) for row in tables]
        #: `GROUP_SQL`'s parameters: the tables' new values, their log rows, their records.
        self.parameters = [jsontext.dumps(rows) for rows in (tables, log_rows, records)]

    def lost(self, matches: Collection[int]) -> list[int]:
        """The tables the statement left alone (``matches``: the ids it returned): their versions
        are read to say what each found."""
        return [table_id for table_id, _, _ in self.writes if table_id not in matches]

    def outcomes(
        self,
        matches: Collection[int],
        found: dict[int, int],
        stored: Callable[[int, Write], None] | None = None,
    ) -> list[Outcome]:
        """Each write's new version, or its `LostWrite` (``found``: the lost tables' versions);
        ``stored`` is called for each write the statement stored, in order."""
        outcomes: list[Outcome] = []
        for (table_id, expected, write), version in zip(self.writes, self.versions, strict=True):
            if table_id not in matches:
                outcomes.append(_lost(table_id, found.get(table_id), expected))
                continue
            if stored is not None:
                stored(table_id, write)
            outcomes.append(version)
        return outcomes


#: `_write_group`'s statement. Its parameters are JSON lists of the tables' new values, of their
#: log rows and of their records. In a table's values a null keeps the column as it is (a write
#: leaves unset what it does not change), but for the deadline's time, which a null kind keeps:
#: a deadline is cleared with a null time and an empty kind. Only the tables whose version was
#: the one expected are changed, and only their log rows and records are written.
GROUP_SQL = """
WITH u AS (
    UPDATE {table} AS t SET
        version = v.version,
        status = COALESCE(v.status, t.status),
        started_at = COALESCE(v.started_at, t.started_at),
        ended_at = COALESCE(v.ended_at, t.ended_at),
        deadline_at = CASE WHEN v.deadline_kind IS NULL THEN t.deadline_at ELSE v.deadline_at END,
        deadline_kind = COALESCE(v.deadline_kind, t.deadline_kind),
        match_number = COALESCE(v.match_number, t.match_number),
        next_table_id = COALESCE(v.next_table_id, t.next_table_id)
    FROM json_to_recordset(%s::json) AS v(
        id bigint, expected integer, version integer, status text, started_at timestamptz,
        ended_at timestamptz, deadline_at timestamptz, deadline_kind text, match_number integer,
        next_table_id bigint)
    WHERE t.id = v.id AND t.version = v.expected
    RETURNING t.id, t.match_number
), e AS (
    INSERT INTO {log} (table_id, version, kind, data, at)
    SELECT x.table_id, x.version, x.kind, x.data, x.at
    FROM json_to_recordset(%s::json) AS x(
        table_id bigint, version integer, kind text, data jsonb, at timestamptz)
    JOIN u ON u.id = x.table_id
), m AS (
    INSERT INTO {record} AS r (table_id, number, record, started_at, ended_at, termination, archived)
    SELECT x.table_id, u.match_number, x.record, x.started_at, x.ended_at, x.termination, false
    FROM json_to_recordset(%s::json) AS x(
        table_id bigint, record jsonb, started_at timestamptz, ended_at timestamptz, termination text)
    JOIN u ON u.id = x.table_id
    ON CONFLICT (table_id, number) DO UPDATE SET
        record = EXCLUDED.record,
        ended_at = COALESCE(EXCLUDED.ended_at, r.ended_at),
        termination = CASE WHEN EXCLUDED.ended_at IS NULL THEN r.termination ELSE EXCLUDED.termination END
)
SELECT id FROM u
"""


#: The versions of the tables a group's statement left alone (`GroupWrite.lost`), for their
#: `LostWrite`.
VERSIONS_SQL = "SELECT id, version FROM {table} WHERE id = ANY(%s)"


@functools.cache
def versions_sql() -> str:
    return VERSIONS_SQL.format(table=connection.ops.quote_name(Table._meta.db_table))


@functools.cache
def group_sql() -> str:
    """`GROUP_SQL` with the models' tables, checked once against their columns (a renamed field
    fails here, not in a live table's write)."""
    used = {
        Table: {"id", "version", "status", "started_at", "ended_at", "deadline_at", "deadline_kind"}
        | {"match_number", "next_table_id"},
        LogRow: {"table_id", "version", "kind", "data", "at"},
        MatchRecord: {"table_id", "number", "record", "started_at", "ended_at", "termination", "archived"},
    }
    for model, names in used.items():
        columns = {field.column for field in model._meta.concrete_fields}
        assert names <= columns, f"{model.__name__} lacks {names - columns}"
    quote = connection.ops.quote_name
    return GROUP_SQL.format(
        table=quote(Table._meta.db_table),
        log=quote(LogRow._meta.db_table),
        record=quote(MatchRecord._meta.db_table),
    )


def _lost(table_id: int, found: int | None, expected_version: int) -> LostWrite:
    return LostWrite(f"table {table_id} is at version {found}, not {expected_version}")


def _table_field(name: str) -> Field[Any, Any]:
    """The table's field for a key of `_changes` (which names the next table by its column)."""
    field = Table._meta.get_field("next_table" if name == "next_table_id" else name)
    assert isinstance(field, Field)
    return field


def _alone(table_id: int, expected_version: int, write: Write) -> Outcome:
    """One write in its own transaction; its failure, whatever it is, goes back to its actor (which
    then rebuilds the table from the log), never to the other tables of the group."""
    try:
        return append(table_id, expected_version, write)
    except Exception as failure:
        return failure


def _changes(expected_version: int, write: Write) -> dict[str, Any]:
    """The table row's new values after ``write`` (its version first)."""
    changes: dict[str, Any] = {"version": expected_version + len(write.rows)}
    if write.status is not None:
        changes["status"] = write.status
    if write.started_at is not None:
        changes["started_at"] = write.started_at
    if write.ended_at is not None:
        changes["ended_at"] = write.ended_at
    if write.deadline is not None:
        changes["deadline_at"], changes["deadline_kind"] = write.deadline
    if write.match_number is not None:
        changes["match_number"] = write.match_number
    if write.next_table_id is not None:
        changes["next_table_id"] = write.next_table_id
    return changes


def _write(table_id: int, expected_version: int, write: Write) -> int:
    """`append`'s statements, inside the caller's transaction."""
    changes = _changes(expected_version, write)
    if not _update_table(table_id, expected_version, changes):
        found = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        raise _lost(table_id, found, expected_version)
    if write.rows:
        _insert_rows_of([(table_id, expected_version + 1, write.rows, write.at)])
    _cards_and_seats(table_id, write)
    if write.record is not None:
        match = write.match_number or Table.objects.values_list("match_number", flat=True).get(pk=table_id)
        _store_records([(table_id, match, write)])
    return int(changes["version"])


def _cards_and_seats(table_id: int, write: Write) -> None:
    if write.cards:
        stored = [Card.objects.create(table_id=table_id, given_at=write.at, **card) for card in write.cards]
        write.suspended = card_hooks.suspended_by(stored, write.at)
    for change in write.seats:
        fields = {name: value for name, value in change.items() if name != "number"}
        Seat.objects.filter(table_id=table_id, number=change["number"]).update(**fields)


def _store_records(records: list[tuple[int, int, Write]]) -> None:
    """Each write's record of its table's match (table, match number, write), created or replaced:
    one upsert for the records that end and one for the others (an ending one also gets its end
    and termination; the others keep theirs)."""
    for ended in (False, True):
        rows = [
            MatchRecord(
                table_id=table_id,
                number=match,
                record=write.record,
                started_at=write.record_started_at or write.at,
                ended_at=write.at if ended else None,
                termination=write.termination if ended else "",
            )
            for table_id, match, write in records
            if write.record_ended == ended
        ]
        if rows:
            MatchRecord.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["table", "number"],
                update_fields=["record", "ended_at", "termination"] if ended else ["record"],
            )


def _update_table(table_id: int, expected_version: int, changes: dict[str, Any]) -> bool:
    """``UPDATE table SET … WHERE id = … AND version = …``; whether the row was at that version.

    Written as one SQL statement rather than through the ORM, because it runs for every play and
    the ORM's query building was the largest single cost of a play under load; the values still
    go through each field's own conversion, so SQLite and PostgreSQL get what the ORM would send."""
    meta = Table._meta
    quote = connection.ops.quote_name
    assignments, params = [], []
    for name, value in changes.items():
        field = _table_field(name)
        assignments.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    version = quote(Table._meta.get_field("version").column)
    key = quote(Table._meta.pk.column if Table._meta.pk is not None else "id")
    # Identifiers come from the models' metadata, quoted; every value is a parameter.
    sql = f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} WHERE {key} = %s AND {version} = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, table_id, expected_version])
        return bool(cursor.rowcount == 1)


def _insert_rows_of(writes: list[tuple[int, int, list[tuple[str, dict[str, Any]]], datetime]]) -> None:
    """One INSERT for the log rows of some writes (table, first version, rows, time), each write's
    numbered from its first (see `_update_table` for why it is plain SQL)."""
    if not writes:
        return
    meta = LogRow._meta
    quote = connection.ops.quote_name
    fields = [meta.get_field(name) for name in ("table", "version", "kind", "data", "at")]
    assert all(isinstance(field, Field) for field in fields)
    columns = ", ".join(quote(field.column) for field in fields if isinstance(field, Field))
    data_field, at_field = fields[3], fields[4]
    assert isinstance(data_field, Field) and isinstance(at_field, Field)
    rows: list[list[Any]] = []
    for table_id, first, rows_of, at in writes:
        stamp = at_field.get_db_prep_save(at, connection)
        for offset, (kind, data) in enumerate(rows_of):
            rows.append(
                [table_id, first + offset, kind, data_field.get_db_prep_save(data, connection), stamp]
            )
    table = quote(meta.db_table)
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
    # Identifiers come from the models' metadata, quoted; every value is a parameter.
    sql = f"INSERT INTO {table} ({columns}) VALUES {values}"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])


def rows_between(table_id: int, since: int, until: int) -> list[tuple[int, str, dict[str, Any]]]:
    """The stored log rows (version, kind, data) after ``since`` up to ``until``: a client's
    catch-up, published as they are stored (`log_codec.wire` shows each to its audience)."""
    rows = LogRow.objects.filter(table_id=table_id, version__gt=since, version__lte=until).order_by("version")
    return [(row.version, row.kind, row.data) for row in rows]


def has_ended(table_id: int) -> bool:
    """Whether the table is finished or cancelled, or does not exist: nothing about it changes any
    more (one indexed read, not the table's log: `load`)."""
    return not Table.objects.filter(pk=table_id, status__in=OPEN_STATUSES).exists()


def open_table_ids() -> list[int]:
    return list(Table.objects.filter(status__in=OPEN_STATUSES).values_list("pk", flat=True))


#: The log entry of a table cancelled because its invitations were not all accepted.
CANCELLED = TableCancelled("invitations")


def mark_archived(table_id: int, match: int) -> None:
    MatchRecord.objects.filter(table_id=table_id, number=match).update(archived=True)
