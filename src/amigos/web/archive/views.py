"""The statistics pages: a player's own page in full, anybody else's as a profile."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext

from amigos.web.accounts.models import User
from amigos.web.archive import statistics
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.graph import GraphLabels, rating_graph
from amigos.web.archive.hand_table import HandWords, hands_table
from amigos.web.archive.models import HandReview, MatchSeat
from amigos.web.archive.services import review as review_service


def hand_words() -> HandWords:
    """The hand table's words in the request's language."""
    return HandWords(
        caption=_("Hands of match #%(n)s"),
        headers=(
            _("Hand"),
            _("Player (seat)"),
            _("Pips in hand"),
            _("Doubles"),
            _("Longest suit"),
            _("Missing suits"),
            _("Result"),
            _("Difference"),
        ),
        positions={
            "you": pgettext("seat", "you"),
            "right": pgettext("seat", "right"),
            "partner": pgettext("seat", "partner"),
            "left": pgettext("seat", "left"),
            "opposite": pgettext("seat", "opposite"),
        },
        leads=_("leads"),
        tiles_of=_("%(count)s tiles of %(suit)s"),
        ends={"domino": _("Domino"), "block": _("Block"), "tied-block": _("Tied block")},
        won=_("won"),
        lost=_("lost"),
        capicua=_(", capicúa"),
        review=_("What did my plays cost?"),
    )


def _player_id(request: HttpRequest) -> int:
    user = request.user
    assert isinstance(user, User)  # guaranteed by login_required
    return user.pk


_MATCH_MARK, _HAND_MARK = 987654321, 123456789


def _review_urls() -> Callable[[int], Callable[[int], str]]:
    """review URL makers, from one reverse() per page (a page links hundreds of hands)."""
    template = reverse("archive:review", args=[_MATCH_MARK, _HAND_MARK])

    def for_match(match_id: int) -> Callable[[int], str]:
        base = template.replace(str(_MATCH_MARK), str(match_id))

        def url(hand: int) -> str:
            return base.replace(str(_HAND_MARK), str(hand))

        return url

    return for_match


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return redirect("archive:player", user_id=request.user.pk)


@login_required
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    """Everybody sees a player's classification and totals per game; only the player sees their
    matches, hands and graph (their tiles are theirs to study)."""
    shown = get_object_or_404(User, pk=user_id, is_active=True)
    own = shown.pk == request.user.pk
    context: dict[str, object] = {
        "player": shown,
        "own": own,
        "standing": statistics.standing(shown.pk),
        "totals": statistics.game_totals(shown.pk),
    }
    if own:
        history = statistics.rating_history(shown.pk)
        words = hand_words()
        review_url = _review_urls()
        context["matches"] = [
            (match, hands_table(match.number, match.hands, words, review_url(match.match_id)))
            for match in statistics.recent_matches(shown.pk)
        ]
        context["graph"] = rating_graph(
            [(point.pr, point.quintile) for point in history],
            GraphLabels(
                title=_("PR and quintile over your last %(n)s rated matches") % {"n": len(history)},
                description=_("From %(first)s to %(last)s points; quintile now %(q)s.")
                % {
                    "first": history[0].pr if history else 0,
                    "last": history[-1].pr if history else 0,
                    "q": history[-1].quintile if history else "-",
                },
                pr=_("PR"),
                quintile=_("Quintile"),
            ),
        )
        context["history"] = history
    return render(request, "archive/player.html", context)


REVIEW_ERRORS = {
    "not-a-player": _lazy("Only the players of a match can review its hands."),
    "hand-unknown": _lazy("That match has no such hand."),
    "hand-unfinished": _lazy("That hand did not end, so there is nothing to review."),
    "review-running": _lazy(
        "A review of yours is already being computed: wait for it to end, then ask again."
    ),
    "review-queue-full": _lazy("Too many reviews are waiting right now. Try again in a moment."),
}


@login_required
def review(request: HttpRequest, match_id: int, hand: int) -> HttpResponse:
    """A player's review of their own plays in one finished hand: POST asks for it (the search
    runs in the background), GET shows its progress or its result."""
    user_id = _player_id(request)
    seat = MatchSeat.objects.filter(match_id=match_id, user_id=user_id).select_related("match").first()
    if seat is None:
        raise Http404  # other players' hands are not even acknowledged
    if request.method == "POST":
        try:
            found, created = review_service.request_review(
                user_id=seat.user_id or 0, match_id=match_id, hand=hand
            )
        except ArchiveError as exc:
            messages.error(request, REVIEW_ERRORS.get(exc.code, _("That review cannot be made.")))
            return redirect("archive:mine")
        if created or found.status in (HandReview.Status.PENDING, HandReview.Status.FAILED):
            try:
                review_service.start_review(found.pk, user_id=seat.user_id or 0)
            except ArchiveError as exc:  # the player's other review, or the site's queue, is full
                if created:
                    found.delete()
                messages.error(request, REVIEW_ERRORS.get(exc.code, _("That review cannot be made.")))
                return redirect("archive:mine")
        return redirect("archive:review", match_id=match_id, hand=hand)
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    existing = HandReview.objects.filter(match_id=match_id, hand=hand, seat=seat.seat).first()
    match = seat.match
    if not 1 <= hand <= len(match.hands) or match.hands[hand - 1]["end"] == "unfinished":
        raise Http404
    return render(
        request,
        "archive/review.html",
        {
            "table_name": match.table_name,
            "variant": match.variant,
            "back_url": reverse("archive:mine"),
            "back_text": _("Back to your statistics"),
            "hand": hand,
            "review": existing,
            "busy": existing is not None and existing.status in ("pending", "running"),
        },
    )
