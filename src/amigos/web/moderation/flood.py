"""The flood rule as moderation and its tests see it: the rule (`realtime.flood_rule`) and the
database count of every kind's stored rows in one place.

The lobby and the tables count their own lines with the rule itself, so neither imports this
module (moderation builds on both, never the other way round).
"""

from __future__ import annotations

from datetime import datetime

from amigos.web.lobby.models import ChatMessage
from amigos.web.moderation.models import Report
from amigos.web.realtime.flood_rule import (
    CODE,
    Budget,
    RecentActions,
    count,
    flood_message,
    recent_actions,
    refusal,
    room_for_one,
    spend,
    window_seconds,
    window_start,
)
from amigos.web.tables.models import TableChatLine

__all__ = [
    "CODE",
    "Budget",
    "RecentActions",
    "count",
    "flood_message",
    "recent_actions",
    "refusal",
    "spend",
    "stored_within",
    "window_seconds",
]


def stored_within(budget: Budget, user_id: int, now: datetime) -> bool:
    """Whether the rows ``user_id`` left of this kind within the window, in every process, leave
    room for one more (a database query: call it where the row is about to be written)."""
    since = window_start(now)
    if budget is Budget.LOBBY_CHAT:
        stored = ChatMessage.objects.filter(author_id=user_id, created_at__gt=since).count()
    elif budget is Budget.TABLE_CHAT:
        stored = TableChatLine.objects.filter(author_id=user_id, sent_at__gt=since).count()
    elif budget is Budget.REPORT:
        stored = Report.objects.filter(reporter_id=user_id, created_at__gt=since).count()
    else:
        return True  # nothing stored to count (mutes): the memory count is all there is
    return room_for_one(stored)
