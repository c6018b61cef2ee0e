"""Reads of the archive: quintiles for the lobby, the site's rating as an amigos-rating/1 file, and
a player's matches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from amigos.rating import FORMAT, quintile
from amigos.web.archive.models import ArchivedMatch, MatchSeat, PlayerRating


def _count(rows: QuerySet[Any]) -> Coalesce:
    """How many ``rows`` there are, as a subquery of one value (a part of a larger statement)."""
    counted = rows.order_by().values(group=Value(1)).annotate(count=Count("pk")).values("count")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def quintiles_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The present quintile (1 best .. 5) of each of ``user_ids`` that has played a rated match,
    among all registered players (RATING-FORMAT: fifths of everyone, rated or not). Players who
    never played a rated match are left out: the lobby shows them as not yet rated.

    One statement, so that the players counted, the ratings counted and the ratings above each
    player are read at one moment. Regression: read by three statements, a rating written between
    them (a match archived) placed a player outside the count ("rank 117 is not a place among 115
    players") and the lobby's online list failed to refresh (bench/soak.py)."""
    ids = list(user_ids)
    if not ids:
        return {}
    rows = (
        PlayerRating.objects.filter(user_id__in=ids, matches__gt=0)
        .annotate(
            higher=_count(PlayerRating.objects.filter(pr__gt=OuterRef("pr"))),
            registered=_count(get_user_model().objects.all()),
            with_row=_count(PlayerRating.objects.all()),
        )
        .values_list("user_id", "pr", "higher", "registered", "with_row")
    )
    return {
        user_id: quintile(above + (registered - with_row if pr < 0 else 0), registered)
        for user_id, pr, above, registered, with_row in rows
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
