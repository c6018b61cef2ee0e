"""The one call a live table makes when a match ends: store it, its statistics, and its rating."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.models import SOURCE_MAX_LENGTH, ArchivedMatch, MatchSeat, RatingLedger
from amigos.web.archive.services.rating import is_rated, rate_match
from amigos.web.archive.summary import Analysis, analyse

#: The name a computer player's seat shows when the record names nobody.
COMPUTER_NAME = "CPU"


def archive_match(
    *,
    source: str,
    record: dict[str, Any],
    seat_user_ids: list[int | None],
    table_name: str,
    started_at: datetime,
    ended_at: datetime,
    analysis: Analysis | None = None,
) -> None:
    """Archive a match handed over by a live table and, when it is a complete Amigos match of four
    accounts, count it for their PR in the same transaction. ``analysis``: the record's, when the
    caller computed it elsewhere (`summary.analyse`, in a worker process).

    ``source`` identifies the match ("table:<id>:match:<n>"): handing the same match over again
    changes nothing, so a table may retry safely. ``seat_user_ids`` gives each seat's account, None
    for a computer player. The record may carry the live table's extra fields (deal keys, times,
    cards); only the rules' fields are read and the whole record is kept. A record that stops
    before the match's end is stored as unfinished and counts for neither statistics nor rating.
    Raises :class:`ArchiveError` (nothing written) on a record or arguments that do not fit.
    """
    store_match(
        source=source,
        record=record,
        seat_user_ids=seat_user_ids,
        computer_seats=frozenset(seat for seat, user_id in enumerate(seat_user_ids) if user_id is None),
        table_name=table_name,
        started_at=started_at,
        ended_at=ended_at,
        analysis=analysis,
    )


def store_match(
    *,
    source: str,
    record: dict[str, Any],
    seat_user_ids: Sequence[int | None],
    computer_seats: frozenset[int],
    table_name: str,
    started_at: datetime,
    ended_at: datetime,
    analysis: Analysis | None = None,
) -> bool:
    """:func:`archive_match` for live tables and imports alike: a seat without an account is a
    computer player when listed in ``computer_seats``, else a guest known by the record's name.
    ``analysis`` may be given when it was computed beforehand (an import's worker processes).
    Returns whether the match was new."""
    names = check_arguments(source, seat_user_ids, started_at, ended_at)
    analysed = analysis if analysis is not None else analyse(record)
    if len(seat_user_ids) != len(analysed.players):
        raise ArchiveError(
            "seats-mismatch", f"{len(seat_user_ids)} seats given for {len(analysed.players)} players"
        )
    try:
        with transaction.atomic():
            ledger = locked_ledger()
            if ArchivedMatch.objects.filter(source=source).exists():
                return False
            rated = is_rated(
                variant=analysed.variant,
                complete=analysed.complete,
                seat_user_ids=seat_user_ids,
                absent=analysed.absent,
            )
            match = _store(
                source,
                record,
                analysed,
                seat_user_ids,
                computer_seats,
                names,
                table_name,
                started_at,
                ended_at,
                rating_sequence=ledger.matches_rated + 1 if rated else None,
            )
            if rated:
                accounts = [user_id for user_id in seat_user_ids if user_id is not None]
                rate_match(match=match, seat_user_ids=accounts, ledger=ledger)
    except IntegrityError:
        # The same source archived by a concurrent call that committed first: already done.
        if not ArchivedMatch.objects.filter(source=source).exists():
            raise
        return False
    return True


def check_arguments(
    source: str, seat_user_ids: Sequence[int | None], started_at: datetime, ended_at: datetime
) -> dict[int, str]:
    if not source or len(source) > SOURCE_MAX_LENGTH:
        raise ArchiveError("source-invalid", f"a source key of 1 to {SOURCE_MAX_LENGTH} characters is needed")
    if timezone.is_naive(started_at) or timezone.is_naive(ended_at):
        raise ArchiveError("naive-time", "the start and end times need a time zone")
    if ended_at < started_at:
        raise ArchiveError("time-order", "the match ends before it starts")
    accounts = [user_id for user_id in seat_user_ids if user_id is not None]
    if len(set(accounts)) != len(accounts):
        raise ArchiveError("player-twice", "one account sits in two seats")
    if not accounts:
        return {}
    found = dict(get_user_model().objects.filter(pk__in=accounts).values_list("pk", "display_name"))
    missing = sorted(set(accounts) - set(found))
    if missing:
        raise ArchiveError("unknown-player", f"no account {missing[0]}")
    return found


def locked_ledger() -> RatingLedger:
    ledger = RatingLedger.objects.select_for_update().filter(pk=1).first()
    if ledger is None:
        RatingLedger.objects.get_or_create(pk=1)
        ledger = RatingLedger.objects.select_for_update().get(pk=1)
    return ledger


def _store(
    source: str,
    record: dict[str, Any],
    analysed: Analysis,
    seat_user_ids: Sequence[int | None],
    computer_seats: frozenset[int],
    names: dict[int, str],
    table_name: str,
    started_at: datetime,
    ended_at: datetime,
    *,
    rating_sequence: int | None,
) -> ArchivedMatch:
    """The match's rows; ``rating_sequence``: its number in the rating ledger when it is rated."""
    match, seats = build_match(
        source, record, analysed, seat_user_ids, computer_seats, names, table_name, started_at, ended_at
    )
    match.rating_sequence = rating_sequence
    match.save()
    for seat in seats:
        seat.match = match
    MatchSeat.objects.bulk_create(seats)
    return match


def build_match(
    source: str,
    record: dict[str, Any],
    analysed: Analysis,
    seat_user_ids: Sequence[int | None],
    computer_seats: frozenset[int],
    names: dict[int, str],
    table_name: str,
    started_at: datetime,
    ended_at: datetime,
) -> tuple[ArchivedMatch, list[MatchSeat]]:
    """The rows of an archived match, not yet saved (an import saves many at once)."""
    match = ArchivedMatch(
        source=source,
        variant=analysed.variant,
        family=analysed.family,
        table_name=table_name[:100],
        started_at=started_at,
        ended_at=ended_at,
        complete=analysed.complete,
        winner=analysed.winner,
        score=analysed.score,
        official_score=analysed.official_score,
        hand_count=len(analysed.hands),
        record=record,
        hands=analysed.hands,
    )
    seats = []
    for seat, user_id in enumerate(seat_user_ids):
        summary = analysed.sides[seat]
        if user_id is not None:
            name = names[user_id]
        else:
            name = analysed.players[seat] or (COMPUTER_NAME if seat in computer_seats else "?")
        seats.append(
            MatchSeat(
                seat=seat,
                side=summary.side,
                user_id=user_id,
                name=name[:100],
                is_computer=seat in computer_seats,
                ended_at=ended_at,
                variant=match.variant,
                family=match.family,
                result=summary.result,
                hands_won=summary.hands_won,
                hands_lost=summary.hands_lost,
                points_for=summary.points_for,
                points_against=summary.points_against,
                shutout_for=summary.shutout_for,
                shutout_against=summary.shutout_against,
                capicuas=summary.capicuas,
                viajeras=summary.viajeras,
            )
        )
    return match, seats
