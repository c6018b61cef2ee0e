"""A suspension imposed away from the tables (a desk decision, an administrator), told to the
tables where the player holds a seat: one inviting, in a match being played, or voting after it.

Moderation stores the suspension and calls `suspension_imposed` in the same transaction; once that
commits, each such table is told on the server's loop, in whichever process runs it
(`forwarding.tell_suspended_soon`). A table does not take the news on trust: its actor looks the
suspension up (`suspensions.account_suspended`), asks the pure rule `suspension_ending` and ends
what it says: the match, as when the player's sockets close; an inviting table, cancelled; the
vote, closed for the meeting room (`TableActor.suspension_imposed`). Before, a table
learned of such a suspension only when the player's sockets closed or went silent, so never at a
correspondence table, which has no presence. The ladder's own suspensions, which a play's cards
cause, need no news: the table's write returns them (`card_hooks`).
"""

from __future__ import annotations

from django.db import transaction

from amigos.web.tables import forwarding
from amigos.web.tables.models import OPEN_STATUSES, Seat


def suspension_imposed(user_id: int) -> None:
    """The account of ``user_id`` was suspended in the caller's transaction: once it commits, every
    open table where the player holds a seat (inviting, playing or voting) is told; the table
    asks itself what the suspension ends. Nothing is told if the transaction rolls
    back."""
    tables = sorted(
        set(
            Seat.objects.filter(user_id=user_id, table__status__in=OPEN_STATUSES).values_list(
                "table_id", flat=True
            )
        )
    )
    if tables:
        transaction.on_commit(lambda: _tell(tables, user_id))


def _tell(tables: list[int], user_id: int) -> None:
    for table_id in tables:
        forwarding.tell_suspended_soon(table_id, user_id)
