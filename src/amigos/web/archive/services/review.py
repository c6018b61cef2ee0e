"""Reviews of a player's plays in a finished hand, computed off the web process's event loop.

`request_review` (a POST) records the request; `start_review` hands it to one background thread,
which sends each turn's search to the Academy's worker processes (``services.academy_jobs``: each
search within its node budget, in workers that end with the server), so neither the event loop nor
the web process's interpreter is busy with it, and writes the progress after every turn; the page shows
that progress until the review is ready. `run_review` is the same work, callable directly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction

from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.models import ArchivedMatch, HandReview, MatchSeat, ReviewOfHand
from amigos.web.archive.review import review_turn, turns_to_review
from amigos.web.archive.services import academy_jobs

TurnSolver = Callable[[Mapping[str, Any], int, int], dict[str, Any]]

_lock = threading.Lock()
_threads: ThreadPoolExecutor | None = None
#: Reviews handed to the background thread and not finished: (model, review id) -> who asked.
_admitted: dict[tuple[str, int], int] = {}


def request_review(*, user_id: int, match_id: int, hand: int) -> tuple[HandReview, bool]:
    """The review of ``hand`` of ``match_id`` for the seat ``user_id`` sat in; created (and True
    returned) when it did not exist. Only a player of the match may ask, for a hand that ended."""
    seat = MatchSeat.objects.filter(match_id=match_id, user_id=user_id).values_list("seat", flat=True).first()
    if seat is None:
        raise ArchiveError("not-a-player", "only the match's players may review its hands")
    match = ArchivedMatch.objects.only("hands").get(pk=match_id)
    if not 1 <= hand <= len(match.hands):
        raise ArchiveError("hand-unknown", f"the match has no hand {hand}")
    if match.hands[hand - 1]["end"] == "unfinished":
        raise ArchiveError("hand-unfinished", f"hand {hand} did not end")
    with transaction.atomic():
        return HandReview.objects.get_or_create(
            match_id=match_id, hand=hand, seat=seat, defaults={"user_id": user_id}
        )


def run_review(
    *, review_id: int, solve: TurnSolver = review_turn, model: type[ReviewOfHand] = HandReview
) -> None:
    """Compute a review turn by turn, saving the progress after each; a failure is recorded.

    ``model`` says where the review (and through it the record) lives: an archived match's
    :class:`HandReview` or a live table's review of a hand that just ended."""
    review = model._default_manager.get(pk=review_id)
    if review.status == ReviewOfHand.Status.DONE:
        return
    rows = model._default_manager.filter(pk=review.pk)
    try:
        record = review.source_record()
        turns = turns_to_review(record, review.hand, review.seat)
        review.status, review.total_turns, review.done_turns, review.turns = (
            ReviewOfHand.Status.RUNNING,
            len(turns),
            0,
            [],
        )
        review.save()
        results = []
        for move in turns:
            results.append(solve(record, review.hand, move))
            rows.update(done_turns=len(results))
        review.turns, review.done_turns, review.status = results, len(results), ReviewOfHand.Status.DONE
        review.save()
    except Exception:
        rows.update(status=ReviewOfHand.Status.FAILED)
        raise


def _solve_in_process(record: Mapping[str, Any], hand: int, move: int) -> dict[str, Any]:
    """One turn's search, in the Academy's worker pool (one review at a time runs turns there)."""
    return academy_jobs.registry.executor().submit(review_turn, dict(record), hand, move).result()


def _background(review_id: int, model: type[ReviewOfHand]) -> None:
    try:
        run_review(review_id=review_id, solve=_solve_in_process, model=model)
    finally:
        close_old_connections()
        with _lock:
            _admitted.pop((model._meta.label, review_id), None)


def start_review(review_id: int, model: type[ReviewOfHand] = HandReview, *, user_id: int = 0) -> None:
    """Queue the computation after the current transaction commits (one review at a time).

    A review is a heavy job like the Academy's: a player has one waiting or running at a time
    (``review-running``), and the site at most ``AMIGOS_ACADEMY_QUEUE`` (``review-queue-full``);
    both refusals are an ``ArchiveError`` raised before anything is queued."""
    global _threads
    key = (model._meta.label, review_id)
    with _lock:
        if key in _admitted:
            return  # already queued: its run reads the row when it starts
        if user_id and user_id in _admitted.values():
            raise ArchiveError("review-running", "a review of yours is already being computed")
        if len(_admitted) >= settings.AMIGOS_ACADEMY_QUEUE:
            raise ArchiveError("review-queue-full", "too many reviews are waiting")
        if _threads is None:
            _threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive-review")
        threads = _threads

    def submit() -> None:
        with _lock:
            if key in _admitted:
                return
            _admitted[key] = user_id  # counted from here (a request rolled back queues nothing)
        threads.submit(_background, review_id, model)

    transaction.on_commit(submit)
