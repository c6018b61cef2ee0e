"""Moderation's reads: a player's own cards and standing, mutes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from amigos.table import sanctions
from amigos.web.moderation import ladder
from amigos.web.moderation.models import Mute, Suspension
from amigos.web.tables.models import Card


@dataclass(frozen=True)
class MyCards:
    cards: list[Card]
    yellow: int
    blue: int
    yellow_left: int
    blue_left: int
    suspensions: list[Suspension]


def my_cards(user_id: int) -> MyCards:
    """Only ``user_id``'s own cards (newest first) and how far they are from the next suspension."""
    standing = ladder.standing(user_id)
    cards = list(Card.objects.filter(user_id=user_id).select_related("table").order_by("-given_at", "-pk"))
    return MyCards(
        cards=cards,
        yellow=standing.yellow,
        blue=standing.blue,
        yellow_left=standing.yellow_left(sanctions.LADDER),
        blue_left=standing.blue_left(sanctions.LADDER),
        suspensions=list(Suspension.objects.filter(user_id=user_id).order_by("-pk")),
    )


def muted_by(owner_id: int) -> set[int]:
    return set(Mute.objects.filter(owner_id=owner_id).values_list("muted_id", flat=True))


def muted_by_each(owner_ids: list[int]) -> dict[int, set[int]]:
    """`muted_by` for many players in one query (each of ``owner_ids`` is in the answer)."""
    found: dict[int, set[int]] = {owner_id: set() for owner_id in owner_ids}
    for owner_id, muted_id in Mute.objects.filter(owner_id__in=owner_ids).values_list("owner_id", "muted_id"):
        found[owner_id].add(muted_id)
    return found


def muted_players(owner_id: int) -> list[dict[str, object]]:
    """Whom ``owner_id`` muted, by name: the page lists them so each can be unmuted again (their
    lines no longer reach the page, so there is no line left to unmute them from)."""
    rows = (
        Mute.objects.filter(owner_id=owner_id)
        .order_by("muted__display_name", "muted_id")
        .values_list("muted_id", "muted__display_name")
    )
    return [{"id": muted_id, "name": name} for muted_id, name in rows]


def running_suspension(user_id: int, now: datetime) -> Suspension | None:
    return (
        Suspension.objects.filter(user_id=user_id, lifted_at__isnull=True, starts__lte=now, ends__gt=now)
        .order_by("-ends")
        .first()
    )
