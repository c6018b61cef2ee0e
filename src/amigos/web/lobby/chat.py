"""The public chat of the lobby: posting with length and flood limits, history.

The flood limit is the rule every chat and report shares (`amigos.web.realtime.flood_rule`).

Reports go to the administrators' desk (`amigos.web.moderation.services.report`); the former
per-message reports (`ChatReport`) are kept for their history only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext as _

from amigos.web.accounts.models import User
from amigos.web.lobby.models import ChatMessage
from amigos.web.realtime import flood_rule as flood


class ChatRefused(Exception):
    """The message was not accepted; `code` is stable for programs, the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ChatLine:
    id: int
    author_id: int
    author: str
    text: str
    sent_at: datetime

    def as_payload(self) -> dict[str, object]:
        return {
            "id": self.id,
            "author_id": self.author_id,
            "author": self.author,
            "text": self.text,
            "sent_at": self.sent_at.isoformat(),
        }


def _line(message: ChatMessage) -> ChatLine:
    return ChatLine(
        id=message.pk,
        author_id=message.author_id,
        author=message.author.display_name,
        text=message.text,
        sent_at=message.created_at,
    )


def clean_text(text: str) -> str:
    """Trim the ends and drop control characters (keeping line breaks and tabs as spaces)."""
    kept = "".join(" " if ch in "\t\r\n" else ch for ch in text if ch.isprintable() or ch in "\t\r\n")
    return kept.strip()


def check_text(text: str) -> str:
    """The line as it would be stored, or ChatRefused (empty, too long); no database involved."""
    cleaned = clean_text(text)
    if not cleaned:
        raise ChatRefused("empty", _("The message is empty."))
    limit = settings.AMIGOS_CHAT_MAX_LENGTH
    if len(cleaned) > limit:
        raise ChatRefused(
            "too_long", _("The message is too long (at most %(limit)d characters).") % {"limit": limit}
        )
    return cleaned


def post(author: User, text: str, now: datetime) -> ChatLine:
    """Store a line; the flood rule (`realtime.flood_rule`) counted on the stored lines, so a
    player's sockets in other processes share the limit."""
    cleaned = check_text(text)
    stored = ChatMessage.objects.filter(author_id=author.pk, created_at__gt=flood.window_start(now)).count()
    if not flood.room_for_one(stored):
        raise ChatRefused(flood.CODE, flood.flood_message())
    message = ChatMessage.objects.create(author=author, text=cleaned, created_at=now)
    return ChatLine(id=message.pk, author_id=author.pk, author=author.display_name, text=cleaned, sent_at=now)


def recent(limit: int | None = None) -> list[ChatLine]:
    """The latest visible messages, oldest first (the order they are read in)."""
    count = limit if limit is not None else settings.AMIGOS_CHAT_HISTORY
    rows = ChatMessage.objects.filter(hidden=False).select_related("author")[:count]
    return [_line(message) for message in reversed(rows)]
