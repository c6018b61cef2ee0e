"""Reads of the archive: quintiles for the lobby, the site's rating as an amigos-rating/1 file, and
a player's matches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from amigos.rating import FORMAT, quintile
from amigos.web.archive.models import ArchivedMatch, MatchSeat, PlayerRating


def quintiles_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The present quintile (1 best .. 5) of each of ``user_ids`` that has played a rated match,
    among all registered players (RATING-FORMAT: fifths of everyone, rated or not). Players who
    never played a rated match are left out: the lobby shows them as not yet rated."""
    ids = list(user_ids)
    if not ids:
        return {}
    registered = get_user_model().objects.count()
    without_row = registered - PlayerRating.objects.count()
    higher = (
        PlayerRating.objects.filter(pr__gt=OuterRef("pr"))
        .order_by()
        .values(group=Value(1))
        .annotate(count=Count("pk"))
        .values("count")
    )
    rows = (
        PlayerRating.objects.filter(user_id__in=ids, matches__gt=0)
        .annotate(higher=Coalesce(Subquery(higher, output_field=IntegerField()), 0))
        .values_list("user_id", "pr", "higher")
    )
    return {
        user_id: quintile(above + (without_row if pr < 0 else 0), registered) for user_id, pr, above in rows
    }


def site_rating_file() -> dict[str, Any]:
    """Every rated match of the site, in the order it was counted, as an amigos-rating/1 file whose
    players are the accounts (named by id). `amigos rating` on it gives back the site's PRs when
    nobody registered after the first rated match (quintiles are fifths of the accounts that exist
    when each match is counted)."""
    players = [str(pk) for pk in get_user_model().objects.order_by("pk").values_list("pk", flat=True)]
    matches: list[dict[str, Any]] = []
    rated = ArchivedMatch.objects.filter(rating_sequence__isnull=False).order_by("rating_sequence")
    seats_by_match: dict[int, list[tuple[int, int | None]]] = {}
    for match_id, seat, user_id in MatchSeat.objects.filter(match__in=rated).values_list(
        "match_id", "seat", "user_id"
    ):
        seats_by_match.setdefault(match_id, []).append((seat, user_id))
    for match in rated.only("pk", "variant", "score"):
        by_seat = dict(seats_by_match[match.pk])
        matches.append(
            {
                "variant": match.variant,
                "teams": [[str(by_seat[0]), str(by_seat[2])], [str(by_seat[1]), str(by_seat[3])]],
                "score": list(match.score),
            }
        )
    return {"format": FORMAT, "players": players, "matches": matches}
