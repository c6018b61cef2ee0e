"""The site's PR: each complete Amigos match of four registered players, counted once, in the same
transaction that archives it, with :mod:`amigos.rating`'s formula (the code `amigos rating` runs).

Quintiles are fifths of every account on the site (RATING-FORMAT: rated or not); an account
without a rating row stands at PR 0.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from amigos.rating import AMIGOS_VARIANTS, RatedMatch, match_changes, quintile
from amigos.web.archive.models import ArchivedMatch, PlayerRating, RatingChange, RatingLedger


def is_rated(
    *, variant: str, complete: bool, seat_user_ids: Sequence[int | None], absent: Collection[int] = ()
) -> bool:
    """Only a complete Amigos match between four distinct accounts counts: a computer player or a
    guest in any seat keeps the whole match out of the rating (the rating format knows only
    registered players, and a PR earned against a computer would not measure anything). A seat
    whose player was away at the end (``absent``: a computer player finished it for them) is a
    computer's seat here too, as the statistics count the match as no result of theirs."""
    humans = [
        user_id for seat, user_id in enumerate(seat_user_ids) if user_id is not None and seat not in absent
    ]
    return variant in AMIGOS_VARIANTS and complete and len(humans) == 4 and len(set(humans)) == 4


def ranks_of(prs: Sequence[int], *, registered: int) -> list[int]:
    """How many accounts stand strictly higher than each of ``prs`` (accounts without a row are at
    0), in one query that also counts the rows."""
    counts = PlayerRating.objects.aggregate(
        rows=Count("pk"), **{f"r{index}": Count("pk", filter=Q(pr__gt=pr)) for index, pr in enumerate(prs)}
    )
    unrated = registered - counts["rows"]
    return [counts[f"r{index}"] + (unrated if pr < 0 else 0) for index, pr in enumerate(prs)]


def rate_match(*, match: ArchivedMatch, seat_user_ids: Sequence[int], ledger: RatingLedger) -> None:
    """Update the four players' PR for ``match``; the caller holds the ledger's lock and stored the
    match with the ledger's next number (`rating_sequence`), saving an update of its row."""
    if match.rating_sequence != ledger.matches_rated + 1:
        raise ValueError("the match must be stored with the ledger's next rating number")
    teams = ((seat_user_ids[0], seat_user_ids[2]), (seat_user_ids[1], seat_user_ids[3]))
    ids = [user_id for team in teams for user_id in team]
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=user_id) for user_id in ids], ignore_conflicts=True
    )
    ratings = {row.user_id: row for row in PlayerRating.objects.select_for_update().filter(user_id__in=ids)}
    registered = get_user_model().objects.count()
    pr_before = {user_id: ratings[user_id].pr for user_id in ids}
    ranks = ranks_of([pr_before[user_id] for user_id in ids], registered=registered)
    before = {user_id: quintile(rank, registered) for user_id, rank in zip(ids, ranks, strict=True)}
    rated = RatedMatch(
        variant=match.variant,
        teams=((str(teams[0][0]), str(teams[0][1])), (str(teams[1][0]), str(teams[1][1]))),
        score=(int(match.score[0]), int(match.score[1])),
    )
    changes = match_changes(rated, {str(user_id): q for user_id, q in before.items()})
    for user_id in ids:
        ratings[user_id].pr += changes[str(user_id)]
        ratings[user_id].matches += 1
    PlayerRating.objects.bulk_update([ratings[user_id] for user_id in ids], ["pr", "matches"])
    after = ranks_of([ratings[user_id].pr for user_id in ids], registered=registered)
    RatingChange.objects.bulk_create(
        RatingChange(
            match=match,
            user_id=user_id,
            ended_at=match.ended_at,
            pr_before=pr_before[user_id],
            pr_after=ratings[user_id].pr,
            quintile_before=before[user_id],
            quintile_after=quintile(rank, registered),
        )
        for user_id, rank in zip(ids, after, strict=True)
    )
    ledger.matches_rated += 1
    ledger.save(update_fields=["matches_rated"])
