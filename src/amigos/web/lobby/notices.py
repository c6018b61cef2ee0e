"""Messages from the administrator: to one player or to everyone, read or unread per player."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from amigos.web.accounts.models import User
from amigos.web.lobby.models import AdminMessage, AdminMessageRead


@dataclass(frozen=True)
class Notice:
    message: AdminMessage
    read: bool


def _addressed_to(user: User) -> QuerySet[AdminMessage]:
    # A broadcast reaches the players who had an account when it was sent, not later arrivals.
    return AdminMessage.objects.filter(
        Q(recipient=user) | Q(recipient__isnull=True, created_at__gte=user.date_joined)
    )


def unread(user: User) -> list[AdminMessage]:
    read_ids = AdminMessageRead.objects.filter(user=user).values("message_id")
    return list(_addressed_to(user).exclude(pk__in=read_ids))


def all_for(user: User) -> list[Notice]:
    read_ids = set(AdminMessageRead.objects.filter(user=user).values_list("message_id", flat=True))
    return [Notice(message, message.pk in read_ids) for message in _addressed_to(user)]


def mark_read(user: User, message_ids: list[int]) -> int:
    """Mark the given messages (only those addressed to the user) as read; returns how many changed."""
    wanted = _addressed_to(user).filter(pk__in=message_ids)
    already = set(AdminMessageRead.objects.filter(user=user).values_list("message_id", flat=True))
    fresh = [AdminMessageRead(message=message, user=user) for message in wanted if message.pk not in already]
    AdminMessageRead.objects.bulk_create(fresh, ignore_conflicts=True)
    return len(fresh)


def send(subject: str, body: str, recipient: User | None = None) -> AdminMessage:
    return AdminMessage.objects.create(subject=subject, body=body, recipient=recipient)
