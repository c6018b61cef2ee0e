"""What one account may hold and create: a bound on the tables each player costs the server.

Every live table is an actor with clocks and, against the computer, players that think; every
table is a line in the lobby's list and a table to rebuild when a process starts. So a player
holds at most `AMIGOS_LIVE_TABLES_PER_PLAYER` open live tables (1: one can only sit at one
clocked table at a time) and `AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER` open correspondence games,
counting the tables they organize and those they are invited to; and an account creates at most
`AMIGOS_TABLES_CREATED_PER_WINDOW` tables within `AMIGOS_TABLE_CREATION_WINDOW_SECONDS`.

Counted in the database (every process shares the numbers), inside the transaction that creates
the table, after its players' rows are locked: two requests at once cannot both take the last
place. This module only answers with a refusal's code; `services` raises it.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from django.conf import settings

from amigos.web.tables import log_codec
from amigos.web.tables.log_entries import Disconnected, Reconnected
from amigos.web.tables.models import OPEN_STATUSES, Invitation, Kind, LogRow, Seat, Table


def per_player(kind: str) -> int:
    """How many open tables of ``kind`` one player may hold."""
    if kind == Kind.CORRESPONDENCE:
        return int(settings.AMIGOS_CORRESPONDENCE_TABLES_PER_PLAYER)
    return int(settings.AMIGOS_LIVE_TABLES_PER_PLAYER)


def created_recently(organizer_id: int, now: datetime) -> int:
    """How many tables the account organized within the creation window before ``now``."""
    window = timedelta(seconds=settings.AMIGOS_TABLE_CREATION_WINDOW_SECONDS)
    return Table.objects.filter(organizer_id=organizer_id, created_at__gt=now - window).count()


def open_tables(user_ids: Collection[int], kind: str) -> dict[int, int]:
    """How many open tables (inviting, playing, voting) of ``kind`` each player sits at or is
    invited to; players at none are left out. A practice table the player walked away from (its
    last word on their seat is that they are away) is not counted: its computer players hold the
    seat or end it soon, and the player must not wait minutes for that before playing again."""
    rows = list(
        Seat.objects.filter(
            user_id__in=list(user_ids),
            invitation__in=(Invitation.PENDING, Invitation.ACCEPTED),
            table__status__in=OPEN_STATUSES,
            table__kind=kind,
        ).values_list("user_id", "table_id", "number")
    )
    left = _left_practice(rows) if kind == Kind.LIVE else set()
    held: dict[int, set[int]] = {}
    for user_id, table_id, number in rows:
        if (table_id, number) not in left:
            held.setdefault(int(user_id), set()).add(int(table_id))
    return {user_id: len(tables) for user_id, tables in held.items()}


#: The kinds of log entry that say a seat's player went away or came back (`actor_presence`).
PRESENCE_KINDS = (log_codec.KIND[Disconnected], log_codec.KIND[Reconnected])


def _left_practice(rows: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """The (table, seat) pairs of ``rows`` at tables with a computer player whose player is away
    now: the last presence entry of the seat says it went away. Few rows (a player holds one live
    table), so the presence entries of those tables are read in one query."""
    tables = {table_id for _, table_id, _ in rows}
    practice = set(
        Seat.objects.filter(table_id__in=tables, user__isnull=True).values_list("table_id", flat=True)
    )
    if not practice:
        return set()
    away: dict[tuple[int, int], bool] = {}
    for table_id, kind, data in (
        LogRow.objects.filter(table_id__in=practice, kind__in=PRESENCE_KINDS)
        .order_by("table_id", "version")
        .values_list("table_id", "kind", "data")
    ):
        entry = log_codec.read(str(kind), data)
        if isinstance(entry, (Disconnected, Reconnected)):
            away[(int(table_id), entry.seat)] = isinstance(entry, Disconnected)
    return {key for key, gone in away.items() if gone}


def refusal(*, organizer_id: int, invited: Collection[int], kind: str, now: datetime) -> str | None:
    """Why ``organizer_id`` may not create a table of ``kind`` with ``invited`` now, as a code, or
    None. ``creating_too_fast``: the account's creations in the window are spent;
    ``live_table_open`` / ``correspondence_full``: the organizer already holds as many open tables
    of that kind as a player may; ``player_busy``: one of the invited players does."""
    if created_recently(organizer_id, now) >= settings.AMIGOS_TABLES_CREATED_PER_WINDOW:
        return "creating_too_fast"
    limit = per_player(kind)
    held = open_tables([organizer_id, *invited], kind)
    if held.get(organizer_id, 0) >= limit:
        return "live_table_open" if kind != Kind.CORRESPONDENCE else "correspondence_full"
    if any(held.get(user_id, 0) >= limit for user_id in invited):
        return "player_busy"
    return None
