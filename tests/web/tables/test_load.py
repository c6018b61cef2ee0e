"""What `store.load` gives an actor: a table that never stored an event (a rematch's, a new one)
with its seats and chat in three statements, and a played table with its current match's log and
its cards (regression guard for skipping the log's and the cards' queries at version 0)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from amigos.web.accounts.models import User
from amigos.web.tables import chat_lines, store
from tests.web.tables.support import stored_table

pytestmark = pytest.mark.django_db

AT = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)


def test_a_table_without_events_loads_its_seats_and_chat_in_three_statements(
    make_player: Callable[..., User], django_assert_num_queries: Any
) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    table = stored_table([ana, None, beto, None], AT)
    chat_lines.post_chat(table.pk, ana.pk, 0, "¡Buena suerte!", AT)

    with django_assert_num_queries(3):  # the table, its seats, its chat
        loaded = store.load(table.pk)

    assert loaded is not None
    assert loaded.version == 0
    assert loaded.log == [] and loaded.cards == {}
    assert [(seat.number, seat.user_id, seat.name, seat.level) for seat in loaded.seats] == [
        (0, ana.pk, ana.display_name, ""),
        (1, None, "", "easy"),
        (2, beto.pk, beto.display_name, ""),
        (3, None, "", "easy"),
    ]
    assert [(line["author_id"], line["text"]) for line in loaded.chat] == [(ana.pk, "¡Buena suerte!")]


def test_a_played_table_loads_its_current_match_and_its_cards(make_player: Callable[..., User]) -> None:
    ana, beto = make_player("Ana"), make_player("Beto")
    table = stored_table([ana, None, beto, None], AT)
    version = 0
    for offset, (events, cards) in enumerate(
        [
            ([("started", {"match": 1}), ("played", {"seat": 0})], []),
            ([("card", {"seat": 2})], [beto]),
            ([("match_ended", {}), ("started", {"match": 2})], []),
            ([("played", {"seat": 1}), ("card", {"seat": 0}), ("card", {"seat": 2})], [ana, beto]),
        ]
    ):
        match = 1 if offset < 2 else 2
        write = store.Write(
            rows=events,
            at=AT + timedelta(seconds=offset),
            match_number=match,
            cards=[
                {"user_id": user.pk, "match": match, "hand": 1, "colour": "yellow", "reason": "timeout"}
                for user in cards
            ],
        )
        version = store.append(table.pk, version, write)

    loaded = store.load(table.pk)

    assert loaded is not None
    assert loaded.version == version == 8
    # from the last `started` on: the match before it is not the actor's business
    assert [(number, kind) for number, kind, _ in loaded.log] == [
        (5, "started"),
        (6, "played"),
        (7, "card"),
        (8, "card"),
    ]
    # the current match's cards only, by seat (Beto's card of the first match is not counted)
    assert loaded.cards == {0: {"yellow": 1, "blue": 0, "red": 0}, 2: {"yellow": 1, "blue": 0, "red": 0}}
