"""How the archive's worker process (`handover`, on PostgreSQL) starts.

Apart from `handover`, which imports the models: a spawned worker imports its initializer's
module before Django is set up, and importing a model then fails. Its jobs (`handover.archive_or_log`)
reach it after this has run, so their module imports then. This module imports nothing of the site's
at its top, and never `handover`.
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
