"""The replay portal and the Academy: thin views over archive.replay and archive.academy.

Who may look: a match is shown only to the accounts that sat in it, and only once it is over
(``complete``). An archived match that stopped before its end is never shown, so no hidden tile
of a match that could still be going on leaks through here. Anything else is a plain 404: a
match one may not see is not even acknowledged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET

from amigos.academy.solve import is_two_ended
from amigos.web.accounts.models import User
from amigos.web.archive.academy import (
    DEFAULT_SEED,
    RestOfMatch,
    Variation,
    follow,
    rest_job,
    try_job,
    values_job,
)
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.line_svg import line_svg
from amigos.web.archive.models import ArchivedMatch, MatchSeat
from amigos.web.archive.replay import (
    Position,
    ReplayedMatch,
    deal_check,
    position,
    position_in,
    replay_match,
    score_sheet,
)
from amigos.web.archive.services import academy_jobs
from amigos.web.archive.services.academy_jobs import JobRefused
from amigos.web.archive.words import move_words, side_names

PAGE_SIZE = 50
MOVE_TEXT = re.compile(r"^[0-9a-z@\-.]{1,12}$")

END_WORDS = {
    "domino": _lazy("Domino"),
    "block": _lazy("Block"),
    "tied-block": _lazy("Tied block"),
    "unfinished": _lazy("unfinished"),
}
ERRORS = {
    "move-illegal": _lazy("That play is not legal there."),
    "position-unknown": _lazy("That match has no such position."),
    "record-invalid": _lazy("The stored record of this match cannot be replayed."),
    "bot-illegal": _lazy("The computer players could not finish that hand."),
    "job-running": _lazy("You already have a calculation under way: wait for it to end, then ask again."),
    "queue-full": _lazy("The Academy is busy: too many calculations are waiting. Try again in a moment."),
    "job-failed": _lazy("The calculation failed. You may ask again."),
}
#: The HTTP status of a refused job: the player's own (429), or everyone's (503).
REFUSED_STATUS = {"job-running": 429, "queue-full": 503}
#: How long a page waits for its job before it shows the player's place in the queue instead (the
#: "try" and "rest" jobs take well under a second; the waiting page reloads itself).
PAGE_WAIT_SECONDS = 2.0
WAIT_RELOAD_SECONDS = 1


def _user_id(request: HttpRequest) -> int:
    user = request.user
    assert isinstance(user, User)  # guaranteed by login_required
    return user.pk


def viewable_match(user_id: int, match_id: int) -> ArchivedMatch:
    """The match if ``user_id`` played in it and it is over; Http404 otherwise."""
    match = ArchivedMatch.objects.filter(pk=match_id, complete=True, seats__user_id=user_id).first()
    if match is None:
        raise Http404
    return match


def _replayed(match: ArchivedMatch) -> ReplayedMatch:
    try:
        return replay_match(match.record)
    except ArchiveError as exc:
        raise Http404 from exc


@login_required
@require_GET
def matches(request: HttpRequest) -> HttpResponse:
    """Every finished match of the signed-in player, newest first, a page at a time."""
    seats = (
        MatchSeat.objects.filter(user_id=_user_id(request), match__complete=True)
        .select_related("match")
        .order_by("-ended_at", "-match_id")
    )
    page = Paginator(seats, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "archive/replay_list.html", {"page": page})


def _svg(pos: Position) -> object:
    return line_svg(
        pos.line,
        title=_("Line of play"),
        empty=_("No tile on the table yet."),
        up=_("Up"),
        down=_("Down"),
    )


def _nav(pos: Position, url: Callable[[int], str]) -> dict[str, str | None]:
    """The links that step through the hand: its start, one move back, one forward, its end."""
    return {
        "start": url(0) if pos.move else None,
        "back": url(pos.move - 1) if pos.move else None,
        "forward": url(pos.move + 1) if pos.move < pos.moves else None,
        "end": url(pos.moves) if pos.move < pos.moves else None,
    }


def _context(match: ArchivedMatch, replayed: ReplayedMatch, pos: Position) -> dict[str, object]:
    return {
        "match": match,
        "pos": pos,
        "svg": _svg(pos),
        "sheet": [(row, END_WORDS.get(row.end, row.end)) for row in score_sheet(replayed)],
        "last_name": "" if pos.last_seat is None else pos.seats[pos.last_seat].name,
        "deal_exact": replayed.report.variant is not None and is_two_ended(replayed.report.variant),
        "sides": side_names(replayed.report.variant, replayed.record.players),
        "hands": range(1, replayed.hand_count + 1),
        "end_words": END_WORDS,
        "deal": deal_check(replayed, pos.hand),
        "end_word": END_WORDS.get(pos.end or "", ""),
    }


@login_required
@require_GET
def replay(request: HttpRequest, match_id: int, hand: int = 1, move: int = 0) -> HttpResponse:
    """The board at (hand, move) of a finished match; the URL is the position's shareable link."""
    match = viewable_match(_user_id(request), match_id)
    replayed = _replayed(match)
    try:
        pos = position(replayed, hand, move)
    except ArchiveError as exc:
        raise Http404 from exc
    context = _context(match, replayed, pos)
    context["nav"] = _nav(pos, lambda m: reverse("archive:replay", args=[match.pk, hand, m]))
    moves = replayed.record.hands[hand - 1].moves
    context["next_move"] = moves[move] if move < len(moves) else None
    context["choices"] = _choices(
        match.pk, replayed, hand, list(replayed.record.hands[hand - 1].moves[:move])
    )
    context["values_url"] = reverse("archive:academy_values", args=[match.pk, hand, move])
    return render(request, "archive/replay.html", context)


def _choices(match_id: int, replayed: ReplayedMatch, hand: int, prefix: list[str]) -> list[tuple[str, str]]:
    """Each legal action after ``prefix``, with the link that plays it and lets the computer
    finish the hand (the Academy's "what if")."""
    state = replayed.state(hand, 0)
    for text in prefix:
        state = state.apply(state.parse_move(text), state.to_move)
    if state.is_over:
        return []
    base = reverse("archive:academy_try", args=[match_id, hand])
    out = []
    for action in state.legal_actions():
        text = state.move_notation(action)
        query = ".".join([*prefix, text])
        out.append((text, f"{base}?moves={query}&at={len(prefix) + 1}"))
    return out


def _moves_param(raw: str) -> list[str]:
    """The chosen moves of a variation from the URL (``6-6.pass.6-5@up``); ``move-illegal`` for
    anything that is not move notation."""
    moves = [text for text in raw.split(".") if text] if raw else []
    if not all(MOVE_TEXT.match(text) for text in moves):
        raise ArchiveError("move-illegal", "not move notation")
    return moves


def _int_param(raw: str | None, default: int) -> int:
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or len(raw) > 6:
        raise ArchiveError("position-unknown", "not a number")
    return int(raw)


@login_required
@require_GET
def academy_try(request: HttpRequest, match_id: int, hand: int) -> HttpResponse:
    """A changed hand: the chosen moves (?moves=), then the computer players to its end; shown at
    ?at= like the replay, with every play at that point open to another change."""
    user_id = _user_id(request)
    match = viewable_match(user_id, match_id)
    replayed = _replayed(match)
    try:
        chosen = _moves_param(request.GET.get("moves", ""))
        seed = _int_param(request.GET.get("seed"), DEFAULT_SEED)
        at_param = _int_param(request.GET.get("at"), len(chosen))
        follow(replayed, hand, chosen)  # checked here (cheap); played on in a worker
    except ArchiveError as exc:
        return _error(request, match, exc.code, 400)
    outcome = _page_job(
        request,
        match,
        ("try", match.pk, hand, tuple(chosen), seed),
        try_job,
        (match.record, hand, chosen, seed),
    )
    if isinstance(outcome, HttpResponse):
        return outcome
    if not isinstance(outcome, Variation):
        return _error(request, match, "job-failed", 500)
    variation = outcome
    at = min(at_param, len(variation.moves))
    pos = position_in(variation.states, variation.moves, replayed.record.players, hand, at)
    context = _context(match, replayed, pos)
    chosen_query = ".".join(variation.moves[: variation.chosen])
    try_base = reverse("archive:academy_try", args=[match.pk, hand])
    context["nav"] = _nav(pos, lambda m: f"{try_base}?moves={chosen_query}&at={m}")
    context.update(
        {
            "variation": variation,
            "chosen_query": chosen_query,
            "next_move": variation.moves[at] if at < len(variation.moves) else None,
            "choices": _choices_in(match.pk, hand, variation, at),
            "values_url": reverse("archive:academy_values", args=[match.pk, hand, at])
            + "?moves="
            + ".".join(variation.moves[:at]),
        }
    )
    return render(request, "archive/replay.html", context)


def _error(request: HttpRequest, match: ArchivedMatch, code: str, status: int) -> HttpResponse:
    message = ERRORS.get(code, _("That cannot be shown."))
    return render(
        request,
        "archive/replay_error.html",
        {"match": match, "message": message, "code": code},
        status=status,
    )


def _page_job(
    request: HttpRequest,
    match: ArchivedMatch,
    key: tuple[object, ...],
    run: Callable[..., object],
    args: tuple[object, ...],
) -> object:
    """The result of a page's heavy job (computed in a worker, see ``services.academy_jobs``), or
    the response to give instead: the player's place in the queue while it waits (a page that
    reloads itself), or why it was refused or failed."""
    user_id = _user_id(request)
    try:
        job = academy_jobs.registry.submit(user_id=user_id, key=key, run=run, args=args)
    except JobRefused as refused:
        return _error(request, match, refused.code, REFUSED_STATUS[refused.code])
    try:
        return job.future.result(timeout=PAGE_WAIT_SECONDS)
    except TimeoutError:
        waiting = academy_jobs.registry.get(job.id, user_id=user_id)
        ahead = waiting.ahead if waiting is not None else 0
        response = render(request, "archive/academy_wait.html", {"match": match, "ahead": ahead}, status=202)
        response["Refresh"] = str(WAIT_RELOAD_SECONDS)  # the same URL finds the same job
        return response
    except ArchiveError as exc:
        return _error(request, match, exc.code, 400)
    except Exception:
        return _error(request, match, "job-failed", 500)


def _choices_in(match_id: int, hand: int, variation: Variation, at: int) -> list[tuple[str, str]]:
    state = variation.states[at]
    if state.is_over:
        return []
    base = reverse("archive:academy_try", args=[match_id, hand])
    prefix = list(variation.moves[:at])
    return [
        (
            state.move_notation(action),
            f"{base}?moves={'.'.join([*prefix, state.move_notation(action)])}&at={at + 1}",
        )
        for action in state.legal_actions()
    ]


@login_required
def academy_values(request: HttpRequest, match_id: int, hand: int, move: int) -> HttpResponse:
    """POST: start (or find) the search for the values of every play at a position and answer
    with the job's URL. The position is the real one, or a variation's (?moves=)."""
    if request.method != "POST":
        return JsonResponse({"error": "method-not-allowed"}, status=405)
    user_id = _user_id(request)
    match = viewable_match(user_id, match_id)
    replayed = _replayed(match)
    real = list(replayed.record.hands[hand - 1].moves) if 1 <= hand <= replayed.hand_count else []
    try:
        raw = request.GET.get("moves")
        moves = _moves_param(raw) if raw is not None else real[:move]
        if len(moves) != move:
            raise ArchiveError("position-unknown", "the moves do not lead to that move number")
        state = follow(replayed, hand, moves)  # checked here (cheap); searched in a worker
    except ArchiveError as exc:
        return JsonResponse({"error": exc.code}, status=400)
    if state.is_over:
        return JsonResponse({"error": "hand-over"}, status=400)
    # The real position's play is the record's; a variation's is the computer's, found by the worker.
    played = real[move] if raw is None and move < len(real) else None
    try:
        job = academy_jobs.registry.submit(
            user_id=user_id,
            key=("values", match.pk, hand, tuple(moves)),
            run=values_job,
            args=(match.record, hand, tuple(moves), played),
        )
    except JobRefused as refused:
        return JsonResponse({"error": refused.code}, status=REFUSED_STATUS[refused.code])
    return JsonResponse(
        {
            "job": job.id,
            "url": reverse("archive:academy_job", args=[job.id]),
            "status": job.status,
            "ahead": job.ahead,
        },
        status=202,
    )


@login_required
@require_GET
def academy_job(request: HttpRequest, job_id: str) -> HttpResponse:
    """A job's state for the page's polling: waiting (with the jobs ahead of it), running, done
    (with the values) or failed."""
    job = academy_jobs.registry.get(job_id, user_id=_user_id(request))
    if job is None:
        return JsonResponse({"error": "job-unknown"}, status=404)
    return JsonResponse(_said(job.to_dict()))


def _said(answer: dict[str, Any]) -> dict[str, Any]:
    """The job's answer with each play also in the reader's words (``said``): the worker computes
    in no language, and the page shows words, never the record's notation."""
    result = answer.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("plays"), list):
        return answer
    plays = [{**play, "said": move_words(str(play.get("move", "")))} for play in result["plays"]]
    played = result.get("played")
    played_said = move_words(played) if isinstance(played, str) else None
    return {**answer, "result": {**result, "plays": plays, "played_said": played_said}}


@login_required
@require_GET
def record_download(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match's record as a JSON file (amigos-record/1 with the live table's extensions)."""
    match = viewable_match(_user_id(request), match_id)
    response = HttpResponse(
        json.dumps(match.record, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="amigos-match-{match.pk}.json"'
    return response


@login_required
@require_GET
def verify(request: HttpRequest, match_id: int, hand: int) -> HttpResponse:
    """The server's check of a hand's deal: the key gives these tiles and the commitment binds it."""
    match = viewable_match(_user_id(request), match_id)
    replayed = _replayed(match)
    try:
        check = deal_check(replayed, hand)
    except ArchiveError as exc:
        raise Http404 from exc
    return render(request, "archive/replay_verify.html", {"match": match, "check": check})


@login_required
@require_GET
def first_position(request: HttpRequest, match_id: int) -> HttpResponse:
    viewable_match(_user_id(request), match_id)
    return redirect("archive:replay", match_id=match_id, hand=1, move=0)


@login_required
@require_GET
def academy_match(request: HttpRequest, match_id: int, hand: int) -> HttpResponse:
    """The whole match re-simulated from a changed hand (?moves= as on the changed hand's page):
    its score sheet beside the one as played; ?download=1 gives the new match as a record."""
    match = viewable_match(_user_id(request), match_id)
    replayed = _replayed(match)
    try:
        chosen = _moves_param(request.GET.get("moves", ""))
        seed = _int_param(request.GET.get("seed"), DEFAULT_SEED)
        follow(replayed, hand, chosen)  # checked here (cheap); played on in a worker
    except ArchiveError as exc:
        return _error(request, match, exc.code, 400)
    outcome = _page_job(
        request,
        match,
        ("rest", match.pk, hand, tuple(chosen), seed),
        rest_job,
        (match.record, hand, chosen, seed),
    )
    if isinstance(outcome, HttpResponse):
        return outcome
    if not isinstance(outcome, RestOfMatch):
        return _error(request, match, "job-failed", 500)
    new_record = outcome.record
    if request.GET.get("download"):
        response = JsonResponse(new_record, json_dumps_params={"ensure_ascii": False, "indent": 1})
        response["Content-Disposition"] = (
            f'attachment; filename="amigos-match-{match.pk}-hand-{hand}-changed.json"'
        )
        return response
    return render(
        request,
        "archive/replay_match.html",
        {
            "match": match,
            "hand": hand,
            "sides": side_names(replayed.report.variant, replayed.record.players),
            "played": [(row, END_WORDS.get(row.end, row.end)) for row in score_sheet(replayed)],
            "resimulated": [(row, END_WORDS.get(row.end, row.end)) for row in outcome.sheet],
            "winner": outcome.winner,
            "played_winner": replayed.report.winner,
            "query": request.GET.urlencode(),
            "changed_url": reverse("archive:academy_try", args=[match.pk, hand])
            + f"?moves={'.'.join(chosen)}&at={len(chosen)}",
        },
    )
