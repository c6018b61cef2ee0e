"""Helpers: a table with seated players, and cards stored through the table store's real write."""

from __future__ import annotations

from datetime import UTC, datetime

from amigos.web.accounts.models import User
from amigos.web.tables import store
from amigos.web.tables.models import Seat, Table

START = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


def table_for(*players: User) -> Table:
    table = Table.objects.create(
        name="Mesa", variant="amigos-100", players=4, organizer=players[0], status="playing", created_at=START
    )
    for number in range(4):
        user = players[number] if number < len(players) else None
        Seat.objects.create(
            table=table, number=number, user=user, level="" if user else "easy", invitation="accepted"
        )
    return table


def give(table: Table, user: User, colours: list[str], at: datetime, hand: int | None = 1) -> None:
    """Store cards exactly as the table actor does: one write, through `store.append`."""
    table.refresh_from_db()
    cards = [
        {"user_id": user.pk, "match": table.match_number or 1, "hand": hand, "colour": c, "reason": "timeout"}
        for c in colours
    ]
    store.append(table.pk, table.version, store.Write(rows=[("card", {})], at=at, cards=cards))
