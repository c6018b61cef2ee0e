"""Filling the archive from record files, without live tables (`amigos archive import`).

Each record is archived on its own through the same path as a live table's hand-over, so an
imported match gets the same statistics and rating. Its players are matched to accounts by display
name (ignoring case; display names are unique that way); otherwise they are guests, and a match
with a guest is not rated. Importing the same record again changes nothing: its source key is a
hash of its content.

Only the record's own fields are stored (:func:`amigos.engine.trail.own_fields`): whatever else a
file's record carries is dropped before the record is replayed, hashed and stored. The records
arrive as an iterable and are taken a batch at a time, so a long JSON Lines file is never held
whole.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import reset_queries, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from amigos.engine.trail import own_fields
from amigos.rating import Ladder, RatedMatch
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.models import ArchivedMatch, MatchSeat, PlayerRating, RatingChange
from amigos.web.archive.services.handover import build_match, locked_ledger
from amigos.web.archive.services.rating import is_rated
from amigos.web.archive.summary import Analysis, analyse_or_error

#: Records archived per database transaction: each batch is written with a handful of bulk queries
#: (a refused record is left out before anything is written).
BATCH = 200
#: A batch also closes once its records hold this many tiles, moves, times and cards in all, so a
#: file of a few huge records is held a few records at a time (a usual record holds a few hundred).
BATCH_WEIGHT = 200_000


@dataclass
class ImportReport:
    imported: int = 0
    already: int = 0
    refused: list[tuple[str, ArchiveError]] = field(default_factory=list)

    def to_dict(self) -> dict[str, int]:
        return {"imported": self.imported, "already": self.already, "refused": len(self.refused)}


#: Fields of an imported record that are directions to the import, not part of the record.
IMPORT_FIELDS = ("started_at", "ended_at")


def source_of(record: Mapping[str, Any]) -> str:
    """The same record always gets the same source key, whatever its file or its keys' order."""
    canonical = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "import:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class AccountsByName:
    """Accounts by display name, ignoring case (a name that would fit two accounts fits none)."""

    def __init__(self) -> None:
        seen: dict[str, list[int]] = {}
        for pk, name in get_user_model().objects.values_list("pk", "display_name"):
            seen.setdefault(name.strip().casefold(), []).append(pk)
        self._unique = {name: ids[0] for name, ids in seen.items() if len(ids) == 1}
        self.names = {pk: name for pk, name in get_user_model().objects.values_list("pk", "display_name")}

    def find(self, name: object) -> int | None:
        return self._unique.get(name.strip().casefold()) if isinstance(name, str) else None


def _when(record: Mapping[str, Any], key: str, default: datetime) -> datetime:
    raw = record.get(key)
    if raw is None:
        return default
    parsed = parse_datetime(raw) if isinstance(raw, str) else None
    if parsed is None:
        raise ArchiveError("time-invalid", f"{key} must be an ISO 8601 date and time")
    return parsed


def import_records(
    *,
    records: Iterable[tuple[str, Any]],
    table_name: str = "",
    now: datetime | None = None,
    jobs: int | None = None,
) -> ImportReport:
    """Archive ``records`` (each with a label naming where it came from, for the report). A record
    may carry optional ``table``, ``started_at`` and ``ended_at`` fields (ISO 8601 with a zone);
    otherwise ``table_name`` and ``now`` are used. An item whose record is an :class:`ArchiveError`
    (a line of a file that could not be read) is refused with it, in its place.

    Replaying the records under the rules is most of the work and needs no database, so ``jobs``
    worker processes do it (default: one per processor; 1: all in this process). This process then
    writes each batch in one transaction with a handful of bulk queries, rating the complete Amigos
    matches of four accounts in the records' order with :class:`amigos.rating.Ladder` (the same
    formula and quintiles as a live hand-over)."""
    moment = now or timezone.now()
    accounts = AccountsByName()
    report = ImportReport()
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        for batch in _batches(records):
            bodies = [_own(record) for _, record in batch]
            readable = [body for body in bodies if not isinstance(body, ArchiveError)]
            if pool is not None:
                chunk = max(1, len(readable) // (4 * workers))
                analysed = iter(list(pool.map(analyse_or_error, readable, chunksize=chunk)))
            else:
                analysed = iter([analyse_or_error(body) for body in readable])
            prepared: list[_Prepared] = []
            for (label, record), body in zip(batch, bodies, strict=True):
                try:
                    if isinstance(body, ArchiveError):
                        raise body
                    analysis = next(analysed)
                    if isinstance(analysis, ArchiveError):
                        raise analysis
                    prepared.append(_prepare(record, body, analysis, accounts, table_name, moment))
                except ArchiveError as exc:
                    report.refused.append((label, exc))
            _write_batch(prepared, accounts, report)
            # With DEBUG on (the command's default settings are the development ones) Django keeps
            # every query's SQL, each batch's whole records included: forget them batch by batch.
            reset_queries()
    finally:
        if pool is not None:
            pool.shutdown()
    return report


def _own(record: Any) -> Any:
    """The record's own fields; anything that is not an object is left for the replay to refuse."""
    return own_fields(record) if isinstance(record, Mapping) else record


@dataclass(frozen=True)
class _Prepared:
    source: str
    record: dict[str, Any]
    analysis: Analysis
    seats: list[int | None]
    table_name: str
    started_at: datetime
    ended_at: datetime


def _prepare(
    record: Mapping[str, Any],
    own: dict[str, Any],
    analysis: Analysis,
    accounts: AccountsByName,
    table_name: str,
    moment: datetime,
) -> _Prepared:
    """What to store of ``record``: ``own`` (its own fields) with the times and table it asks for.
    The source key covers the import's times as well, as it always has, so a record imported
    before keeps its key (unless it carried fields of its own that are no longer stored)."""
    seats: list[int | None] = []
    for name in analysis.players:
        account = accounts.find(name)
        # The same account twice in one record: the second seat stays a guest.
        seats.append(account if account is not None and account not in seats else None)
    ended_at = _when(record, "ended_at", moment)
    started_at = _when(record, "started_at", ended_at)
    if timezone.is_naive(started_at) or timezone.is_naive(ended_at):
        raise ArchiveError("naive-time", "started_at and ended_at need a time zone")
    if ended_at < started_at:
        raise ArchiveError("time-order", "the match ends before it starts")
    table = record.get("table")
    directions = {key: record[key] for key in IMPORT_FIELDS if key in record}
    return _Prepared(
        source=source_of({**own, **directions}),
        record=own,
        analysis=analysis,
        seats=seats,
        table_name=table if isinstance(table, str) else table_name,
        started_at=started_at,
        ended_at=ended_at,
    )


def _load_ladder() -> Ladder:
    players = [str(pk) for pk in get_user_model().objects.order_by("pk").values_list("pk", flat=True)]
    pr: dict[str, int] = {}
    matches: dict[str, int] = {}
    for user_id, value, count in PlayerRating.objects.select_for_update().values_list(
        "user_id", "pr", "matches"
    ):
        pr[str(user_id)] = value
        matches[str(user_id)] = count
    return Ladder.resume(players, pr, matches)


def _write_batch(items: list[_Prepared], accounts: AccountsByName, report: ImportReport) -> None:
    if not items:
        return
    with transaction.atomic():
        ledger = locked_ledger()
        seen = set(
            ArchivedMatch.objects.filter(source__in=[item.source for item in items]).values_list(
                "source", flat=True
            )
        )
        ladder: Ladder | None = None
        built: list[tuple[ArchivedMatch, list[MatchSeat], list[RatingChange]]] = []
        touched: set[str] = set()
        for item in items:
            if item.source in seen:
                report.already += 1
                continue
            seen.add(item.source)
            match, seats = build_match(
                item.source,
                item.record,
                item.analysis,
                item.seats,
                frozenset(),
                accounts.names,
                item.table_name,
                item.started_at,
                item.ended_at,
            )
            changes: list[RatingChange] = []
            if is_rated(
                variant=match.variant,
                complete=match.complete,
                seat_user_ids=item.seats,
                absent=item.analysis.absent,
            ):
                ladder = ladder or _load_ladder()
                ids = [str(user_id) for user_id in item.seats]
                rated = RatedMatch(
                    variant=match.variant,
                    teams=((ids[0], ids[2]), (ids[1], ids[3])),
                    score=(int(match.score[0]), int(match.score[1])),
                )
                before = {player: (ladder.pr[player], ladder.quintile(player)) for player in ids}
                ladder.apply(rated)
                ledger.matches_rated += 1
                match.rating_sequence = ledger.matches_rated
                changes = [
                    RatingChange(
                        user_id=int(player),
                        ended_at=item.ended_at,
                        pr_before=before[player][0],
                        pr_after=ladder.pr[player],
                        quintile_before=before[player][1],
                        quintile_after=ladder.quintile(player),
                    )
                    for player in (ids[0], ids[2], ids[1], ids[3])
                ]
                touched.update(ids)
            built.append((match, seats, changes))
            report.imported += 1
        ArchivedMatch.objects.bulk_create([match for match, _, _ in built])
        for match, seats, changes in built:
            for seat in seats:
                seat.match = match
            for change in changes:
                change.match = match
        MatchSeat.objects.bulk_create([seat for _, seats, _ in built for seat in seats])
        RatingChange.objects.bulk_create([change for _, _, changes in built for change in changes])
        if ladder is not None and touched:
            PlayerRating.objects.bulk_create(
                [
                    PlayerRating(user_id=int(p), pr=ladder.pr[p], matches=ladder.matches[p])
                    for p in sorted(touched)
                ],
                update_conflicts=True,
                unique_fields=["user"],
                update_fields=["pr", "matches"],
            )
        ledger.save(update_fields=["matches_rated"])


def _batches(records: Iterable[tuple[str, Any]]) -> Iterator[list[tuple[str, Any]]]:
    """The records a batch at a time, each cut down to its own fields and the import's directions
    as it arrives, so that what a file adds is dropped before the batch is held."""
    batch: list[tuple[str, Any]] = []
    weight = 0
    for label, record in records:
        slim = _slim(record)
        batch.append((label, slim))
        weight += _weight(slim)
        if len(batch) == BATCH or weight >= BATCH_WEIGHT:
            yield batch
            batch, weight = [], 0
    if batch:
        yield batch


def _slim(record: Any) -> Any:
    if not isinstance(record, Mapping):
        return record
    return {**own_fields(record), **{key: record[key] for key in IMPORT_FIELDS if key in record}}


def _weight(record: Any) -> int:
    """Roughly how many values a record holds: its hands' tiles, moves, times and system notes."""
    if not isinstance(record, Mapping):
        return 1
    total = 1 + _length(record.get("players")) + _length(record.get("cards"))
    hands = record.get("hands")
    for hand in hands if isinstance(hands, list) else ():
        if isinstance(hand, Mapping):
            deal = hand.get("deal")
            total += 1 + sum(_length(tiles) for tiles in deal) if isinstance(deal, list) else 1
            total += sum(_length(hand.get(key)) for key in ("boneyard", "moves", "times", "system", "voided"))
    return total + _length(hands)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, list | dict | str) else 1
