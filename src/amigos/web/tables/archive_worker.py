"""The archive's worker process (`handover`, on PostgreSQL): how it starts, and its one job.

Apart from `handover`, which imports the models: a spawned worker imports its initializer's
module before Django is set up, and importing a model then fails.
"""

from __future__ import annotations

from typing import Any, cast


def start(server: int, database: dict[str, object]) -> None:
    """Run in the new worker: end with the server (`thinking.start_worker`, at the server's own
    priority: the archive is not to fall behind), and set Django up on the database the server uses
    now (a test run renames it after the settings are read)."""
    import django
    from django.conf import settings

    from amigos.web.tables import thinking

    thinking.start_worker(0, server)
    cast(dict[str, Any], settings.DATABASES)["default"] = dict(database)
    django.setup()


def archive(table_id: int, match: int, seat_user_ids: list[int | None], table_name: str) -> None:
    """In the worker: one hand-over, its analysis included (it is out of the server's process
    already)."""
    from amigos.web.tables import handover

    handover.archive_or_log(table_id, match, seat_user_ids, table_name, analyse_here=True)
