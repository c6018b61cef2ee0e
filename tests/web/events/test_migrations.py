"""The data migration that moved stored hand ends into the engine's vocabulary (issue 11, item 14).

Recreo stored a tied block as "tied_block" while the engine and the records say "tied-block"; the
migration renames the stored rows. A sheet whose hand keeps the old word no longer reads as a tied
block, so the migration is run here on real rows, forwards and back, through Django's own executor.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from amigos.engine.outcome import HandEnd

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("events", "0002_table_notes")]
AFTER = [("events", "0003_hand_end_vocabulary")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Move the database to ``targets``; the historical apps at that state, for its models."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def ends() -> dict[int, str]:
    with connection.cursor() as cursor:
        cursor.execute('SELECT "index", "end" FROM events_handrecord')
        return dict(cursor.fetchall())


def test_old_hand_ends_move_to_the_engines_words_and_back(make_player: Callable[..., Any]) -> None:
    try:
        apps = migrate(BEFORE)
        # The accounts app is not migrated back: its table has today's columns, so today's model.
        user = make_player("Organizadora")
        event = apps.get_model("events", "Event").objects.create(
            name="Recreo", date=datetime.date(2026, 11, 1), player_count=4, organizer_id=user.pk
        )
        match = apps.get_model("events", "TableMatch").objects.create(event=event, round=1, table=1)
        hand_record = apps.get_model("events", "HandRecord")
        for index, end in enumerate(["tied_block", "domino", "block", "tied_block"]):
            hand_record.objects.create(
                match=match, index=index, end=end, side="a" if end != "tied_block" else ""
            )

        migrate(AFTER)
        assert ends() == {0: "tied-block", 1: "domino", 2: "block", 3: "tied-block"}
        assert {HandEnd(value) for value in ends().values()} <= set(HandEnd)  # the engine reads each

        migrate(BEFORE)  # reversible: the old words come back, the others are untouched
        assert ends() == {0: "tied_block", 1: "domino", 2: "block", 3: "tied_block"}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the test database's schema again
