"""A seated player's review of their own plays in a hand that just ended at a live table.

Beyond the spec (issue 12, item 6): at a hand's end every tile is shown anyway, so the player may
ask what each of their plays in that hand cost against the best play. The work is the archive's
(`amigos.web.archive.review` and its background runner); only where the record comes from
differs: the table's live :class:`MatchRecord`, since the match is archived only when it ends.
Hands still being played are refused, so nothing hidden is ever valued.
"""

from __future__ import annotations

from django.db import transaction

from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.review import turns_to_review
from amigos.web.tables.models import Invitation, LiveHandReview, MatchRecord, Seat
from amigos.web.tables.services import TableRefused


def seat_of(*, user_id: int, table_id: int) -> int | None:
    """The seat number ``user_id`` accepted at the table, or None for anybody else."""
    return (
        Seat.objects.filter(table_id=table_id, user_id=user_id, invitation=Invitation.ACCEPTED)
        .values_list("number", flat=True)
        .first()
    )


def _check(record: dict[str, object], hand: int, seat: int) -> None:
    try:
        turns_to_review(record, hand, seat)  # replays the hand: refuses one still going on
    except ArchiveError as exc:
        raise TableRefused(exc.code.replace("-", "_"), str(exc)) from exc


def reviewable(*, table_id: int, match: int, hand: int, seat: int) -> bool:
    """Whether that hand of that match ended (so ``seat`` may ask for its review)."""
    record = MatchRecord.objects.filter(table_id=table_id, number=match).only("record").first()
    if record is None:
        return False
    try:
        _check(record.record, hand, seat)
    except TableRefused:
        return False
    return True


def request_live_review(*, user_id: int, table_id: int, match: int, hand: int) -> tuple[LiveHandReview, bool]:
    """The review of ``hand`` of the table's match ``match`` for the user's seat, created (True)
    when new. Refused with a code: ``not_seated``, ``hand_unknown`` or ``hand_unfinished``."""
    seat = seat_of(user_id=user_id, table_id=table_id)
    if seat is None:
        raise TableRefused("not_seated", "only the table's players may review its hands")
    record = MatchRecord.objects.filter(table_id=table_id, number=match).first()
    if record is None:
        raise TableRefused("hand_unknown", f"the table has no match {match}")
    _check(record.record, hand, seat)
    with transaction.atomic():
        return LiveHandReview.objects.get_or_create(
            record=record, hand=hand, seat=seat, defaults={"user_id": user_id}
        )


def live_review(*, table_id: int, match: int, hand: int, seat: int) -> LiveHandReview | None:
    """The review asked for that hand and seat, if any."""
    return LiveHandReview.objects.filter(
        record__table_id=table_id, record__number=match, hand=hand, seat=seat
    ).first()
