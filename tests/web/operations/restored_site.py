"""Run as a site on a restored database: ``python -m tests.web.operations.restored_site TABLE_ID``.

Started by test_backup.py in a process of its own, whose AMIGOS_DATABASE_URL names the database a
backup was just restored into: the site rebuilds the correspondence table from its restored log,
lets the computer players move, makes the move of the person in turn, and prints what it found
(the restored state first, then the move), as JSON, on its last line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from typing import Any


def site_state(table_id: int) -> dict[str, Any]:
    """What must survive a backup: the archive (with a match's whole record), the ratings and
    their history, and the correspondence table with its log."""
    from amigos.web.archive.models import ArchivedMatch, PlayerRating, RatingChange
    from amigos.web.tables.models import LogRow, Table

    matches = ArchivedMatch.objects.order_by("source")
    return {
        "archive": [list(row) for row in matches.values_list("source", "table_name", "winner", "complete")],
        "records": [match.record for match in matches],
        "ratings": [
            list(row)
            for row in PlayerRating.objects.order_by("user__display_name").values_list(
                "user__display_name", "pr", "matches"
            )
        ],
        "changes": RatingChange.objects.count(),
        "table": list(Table.objects.values_list("kind", "status", "version").get(pk=table_id)),
        "events": LogRow.objects.filter(table_id=table_id).count(),
    }


async def play_once(table_id: int) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    from amigos.bots.registry import find_bot
    from amigos.engine.view import seat_view
    from amigos.web.tables import registry
    from amigos.web.tables.models import LogRow

    actor = await registry.get_actor(table_id)
    assert actor is not None, "the table is not in the restored database"
    try:
        before = actor.version
        for _ in range(6000):  # the computer players answer in a thread; a person's turn comes
            seat = actor.game.to_move
            if seat is not None and not actor.seats[seat].is_computer:
                break
            await asyncio.sleep(0.01)
        seat = actor.game.to_move
        assert seat is not None and actor.game.hand is not None
        user_id = actor.seats[seat].user_id
        assert user_id is not None
        action = find_bot("easy").choose(seat_view(actor.game.hand, seat), random.Random())
        answer = await actor.call(lambda: actor.play(user_id, actor.version, action))
        stored = await sync_to_async(LogRow.objects.filter(table_id=table_id).count)()
        return {
            "kind": actor.kind,
            "status": actor.status,
            "version_before": before,
            "version_after": answer["version"],
            "events_stored": stored,
        }
    finally:
        await registry.stop_all()


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amigos.web.settings.test")
    import django

    django.setup()
    table_id = int(sys.argv[1])
    state = site_state(table_id)  # before the site touches anything
    print(json.dumps({"state": state, "played": asyncio.run(play_once(table_id))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
