"""Handing a finished match to the archive: the one call, kept in one place.

The archive (branch archive, `amigos.web.archive.services.archive_match`) stores finished matches
for statistics and replays. Its `source` key makes a second hand-over of the same match count
once, so this may safely run again after a restart.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.services import archive_match
from amigos.web.tables import store
from amigos.web.tables.models import MatchRecord

if TYPE_CHECKING:
    from amigos.web.tables.actor import TableActor

log = logging.getLogger("amigos.tables")


def _archive(table_id: int, match: int, seat_user_ids: list[int | None], table_name: str) -> None:
    row = MatchRecord.objects.get(table_id=table_id, number=match)
    ended: datetime = row.ended_at or row.started_at
    archive_match(
        source=f"table:{table_id}:match:{match}",
        record=row.record,
        seat_user_ids=seat_user_ids,
        table_name=table_name,
        started_at=row.started_at,
        ended_at=ended,
    )
    store.mark_archived(table_id, match)


async def hand_over(actor: TableActor) -> None:
    """Archive the actor's finished match. A refusal is logged as an error with the archive's
    code (the table itself goes on: the record stays in MatchRecord, unarchived, for a retry),
    because a silent refusal once left every match of a branch unarchived unnoticed."""
    seat_user_ids = [seat.user_id for seat in actor.seats]
    try:
        await database_sync_to_async(_archive)(actor.id, actor.game.match_number, seat_user_ids, actor.name)
    except ArchiveError as refusal:
        log.error(
            "table %s: the archive refused match %s: %s (%s)",
            actor.id,
            actor.game.match_number,
            refusal.code,
            refusal.detail,
        )
    except Exception:
        log.exception("table %s: the archive refused match %s", actor.id, actor.game.match_number)
