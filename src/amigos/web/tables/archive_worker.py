"""How the archive's worker process (`handover`, on PostgreSQL) starts.

Apart from `handover`, which imports the models: a spawned worker imports its initializer's
module before Django is set up, and importing a model then fails. Its jobs (`handover.archive_or_log`)
reach it after this has run, so their module imports then. This module imports nothing of the site's
at its top, and never `handover`.
"""

from __future__ import annotations

from typing import Any, cast


def start(server: int, database: dict[str, object], niceness: int = 0) -> None:
    """Run in the new worker: lower its scheduling priority by ``niceness`` and end with the
    server (`thinking.start_worker`), and set Django up on the database the server uses now (a test
    run renames it after the settings are read).

    Why lower: in a closed loop on two cores the worker's analyses took a fifth of a core at the
    server's priority, and the server's event loop, runnable, waited for a core a fifth of the
    time (`/proc/<pid>/schedstat`). A little lower (5, against the computer players' 10) gives the
    plays the core first while the archive, which needs a few percent of one, still keeps up."""
    import django
    from django.conf import settings

    from amigos.web.tables import thinking

    thinking.start_worker(niceness, server)
    cast(dict[str, Any], settings.DATABASES)["default"] = dict(database)
    django.setup()
