"""The inviting tables that can no longer start, cancelled together without building their actors.

A sweep over the tables rather than one table's log (`store`): at a process's start and then now
and then (`registry`), before the tables left are rebuilt. Each cancelled table gets its
`store.CANCELLED` entry, as an actor would have written it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q

from amigos.web.tables import lease_rows, log_codec
from amigos.web.tables.models import Invitation, LogRow, Seat, Status, Table
from amigos.web.tables.store import CANCELLED


@dataclass(frozen=True)
class Cancelled:
    """An inviting table `cancel_lapsed_invitations` cancelled: its new version, kind and seat
    count (for telling its audiences), the players whose invitation it closed and those already
    seated (whose lobby status it frees)."""

    table_id: int
    version: int
    kind: str
    players: int
    invited: list[int]
    seated: list[int]


def cancel_lapsed_invitations(now: datetime, owner: str | None = None) -> list[Cancelled]:
    """Cancel, without building their actors, the inviting tables that can no longer start: an
    invitation whose time ran out by ``now``, or one refused or expired and left so by versions
    that kept such tables inviting for ever. Each gets its `CANCELLED` entry (one version more),
    its open invitations closed as expired and no deadline, in one transaction for them all.

    ``owner``: when processes share the tables, only those this process may take (free, expired
    or its own), so a table another live process runs is left to its actor.

    Why: a process that starts rebuilds every unfinished table from its log; inviting tables left
    behind cost that (7 s of a start for 400 of them) and filled the lobby's list."""
    lapsed = Q(seats__invitation__in=(Invitation.REFUSED, Invitation.EXPIRED)) | Q(
        seats__invitation=Invitation.PENDING, seats__invited_until__lte=now
    )
    found = Table.objects.filter(status=Status.INVITING).filter(lapsed)
    if owner is not None:
        found = found.filter(lease_rows.takeable(owner, now))
    ids = sorted(set(found.values_list("pk", flat=True)))
    if not ids:
        return []
    done: list[Cancelled] = []
    with transaction.atomic():
        tables = list(
            Table.objects.select_for_update().filter(pk__in=ids, status=Status.INVITING).order_by("pk")
        )
        kept = [table.pk for table in tables]
        seats: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(table_id__in=kept).exclude(user=None):
            seats.setdefault(seat.table_id, []).append(seat)
        for table in tables:
            table_seats = seats.get(table.pk, [])
            pending = [s.user_id for s in table_seats if s.invitation == Invitation.PENDING and s.user_id]
            accepted = [s.user_id for s in table_seats if s.invitation == Invitation.ACCEPTED and s.user_id]
            done.append(
                Cancelled(
                    table_id=table.pk,
                    version=table.version + 1,
                    kind=table.kind,
                    players=table.players,
                    invited=pending,
                    seated=accepted,
                )
            )
        kind, data = log_codec.encode(CANCELLED)
        LogRow.objects.bulk_create(
            LogRow(table_id=item.table_id, version=item.version, kind=kind, data=data, at=now)
            for item in done
        )
        Seat.objects.filter(table_id__in=kept, invitation=Invitation.PENDING).update(
            invitation=Invitation.EXPIRED, invited_until=None
        )
        Table.objects.filter(pk__in=kept).update(
            status=Status.CANCELLED,
            version=F("version") + 1,
            ended_at=now,
            deadline_at=None,
            deadline_kind="",
        )
    return done
