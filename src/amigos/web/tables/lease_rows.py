"""The ownership lease's rows: which process runs a table's actor (`amigos.web.tables.lease` keeps it).

Apart from the event log (`store`): a lease is taken, renewed and released in statements of its
own, never inside a play's transaction. Synchronous ORM code, called through
`database_sync_to_async`.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from django.db.models import Q

from amigos.web.tables.models import OPEN_STATUSES, Table


def takeable(owner: str, now: datetime, dead: Collection[str] = ()) -> Q:
    """The tables ``owner`` may take at ``now``: free, expired, its own, or held by one of the ``dead``."""
    free = Q(owner="") | Q(owner=owner) | Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    return free | Q(owner__in=list(dead)) if dead else free


def acquire_lease(
    table_id: int, owner: str, now: datetime, until: datetime, dead: Collection[str] = ()
) -> str | None:
    """Take the table's lease if it is free, expired, already ``owner``'s or held by one of the
    ``dead`` (processes known to be gone), in one conditional UPDATE (two processes racing for it:
    exactly one wins). Returns who holds it afterwards (``owner`` when taken), or None when there
    is no such table."""
    holder: str | None = None
    for _ in range(3):
        taken = (
            Table.objects.filter(pk=table_id)
            .filter(takeable(owner, now, dead))
            .update(owner=owner, lease_until=until)
        )
        if taken:
            return owner
        holder = Table.objects.filter(pk=table_id).values_list("owner", flat=True).first()
        if holder != "":
            return holder  # None: no such table; else another live holder
        # released between the two statements: try again
    return holder


def renew_leases(table_ids: list[int], owner: str, until: datetime) -> set[int]:
    """Extend ``owner``'s leases on ``table_ids``; the ids it still holds (the others were taken)."""
    if not table_ids:
        return set()
    Table.objects.filter(pk__in=table_ids, owner=owner).update(lease_until=until)
    return set(Table.objects.filter(pk__in=table_ids, owner=owner).values_list("pk", flat=True))


def release_leases(table_ids: list[int], owner: str) -> None:
    """A clean stop: ``owner``'s tables are free at once for the other processes to adopt."""
    if table_ids:
        Table.objects.filter(pk__in=table_ids, owner=owner).update(owner="", lease_until=None)


def adoptable_table_ids(owner: str, now: datetime, dead: Collection[str] = ()) -> list[int]:
    """Unfinished tables ``owner`` may take: never taken, released, whose owner stopped renewing
    (it died), held by one of the ``dead``, or ``owner``'s own (the caller skips those it runs)."""
    return list(
        Table.objects.filter(status__in=OPEN_STATUSES)
        .filter(takeable(owner, now, dead))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def lease_holders(now: datetime) -> list[str]:
    """Who holds a live lease on an unfinished table (a few names: one per server process)."""
    return list(
        Table.objects.filter(status__in=OPEN_STATUSES, lease_until__gt=now)
        .exclude(owner="")
        .order_by()
        .values_list("owner", flat=True)
        .distinct()
    )
