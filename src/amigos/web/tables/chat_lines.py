"""The table's chat lines: store one, and the payload every audience gets for it.

Apart from the event log (`store`): a chat line is not a play, has no version and goes in its own
statement.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from amigos.web.tables.models import TableChatLine


def chat_payload(line: TableChatLine) -> dict[str, Any]:
    return {
        "table_id": line.table_id,
        "id": line.pk,
        "author_id": line.author_id,
        "author": line.author.display_name,
        "seat": line.seat,
        "text": line.text,
        "sent_at": line.sent_at.isoformat().replace("+00:00", "Z"),
    }


def post_chat(table_id: int, author_id: int, seat: int | None, text: str, at: datetime) -> dict[str, Any]:
    line = TableChatLine.objects.create(
        table_id=table_id, author_id=author_id, seat=seat, text=text, sent_at=at
    )
    return chat_payload(TableChatLine.objects.select_related("author").get(pk=line.pk))
