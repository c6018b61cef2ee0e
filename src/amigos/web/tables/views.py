"""Table pages: the table itself (seated or watching), creating a table, playing against the
computer, and "my games" (correspondence). Writes go through amigos.web.tables.services; the
live play goes over the socket (docs/protocol.md), not through these views.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from amigos.web.accounts import clock
from amigos.web.accounts import selectors as account_selectors
from amigos.web.accounts.models import User
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.services import review as review_runner
from amigos.web.lobby import presence
from amigos.web.tables import hand_review, invitation_mail, selectors
from amigos.web.tables.forms import (
    FIXED_PLAYERS,
    SEAT_FIELDS,
    ComputerGameForm,
    CreateTableForm,
    FriendsTableForm,
    variant_names,
)
from amigos.web.tables.labels import table_labels
from amigos.web.tables.models import Invitation, Kind, LiveHandReview, Table
from amigos.web.tables.services import TableRefused, create_table, play_against_computer


def _player(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # guaranteed by login_required
    return user


def refusal_text(code: str) -> str:
    """What the player reads when the table service refuses (looked up by code, never by text)."""
    texts = {
        "bad_name": _("Give the table a name of at most 60 characters."),
        "bad_variant": _("Choose one of the games in the list."),
        "bad_players": _("That game is not played by that many players."),
        "bad_kind": _("A table is live or by correspondence."),
        "bad_seats": _("Each seat needs one player or one computer player, and nobody sits twice."),
        "bad_level": _("Choose easy, normal or hard for the computer players."),
        "unknown_player": _("One of the chosen players does not exist any more."),
        "not_online": _("Only players who are online can be invited to a live table."),
        "name_invisible": _(
            "The table's name contains an invisible or direction-changing character; please remove it."
        ),
        "name_marks": _("The table's name contains accent marks that are not attached to a letter."),
        "name_mixed_scripts": _(
            "The table's name mixes Latin letters with Cyrillic or Greek ones; please use one alphabet."
        ),
        "name_at_sign": _("The table's name cannot contain @."),
        "creating_too_fast": _("You have created many tables in a short time; wait a few minutes."),
        "live_table_open": _(
            "You are already at a live table: finish it first (a table everyone has left ends by itself"
            " a few minutes later)."
        ),
        "correspondence_full": _(
            "You already have as many correspondence games as a player may; finish one first."
        ),
        "player_busy": _(
            "One of the chosen players is already at as many tables of this kind as a player may."
        ),
        "player_suspended": _("One of the chosen players is suspended and cannot be invited now."),
        "bad_answer_time": _("An invitation waits between one day and a week."),
        "not_seated": _("Only the table's players can review its hands."),
        "hand_unknown": _("That match has no such hand."),
        "hand_unfinished": _("That hand is still being played: it can be reviewed once it ends."),
        "review_running": _(
            "A review of yours is already being computed: wait for it to end, then ask again."
        ),
        "review_queue_full": _("Too many reviews are waiting right now. Try again in a moment."),
    }
    return texts.get(code, _("The table could not be created."))


def variant_label(variant: str) -> str:
    return variant_names().get(variant, variant)


def target_label(table: Table) -> str:
    if table.variant == "amigos-hands":
        return _("hands won")
    return _("%(points)s points") % {"points": table.target} if table.target else "—"


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    user = _player(request)
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seats.filter(user=user).first()
    seated = seat is not None and seat.invitation == Invitation.ACCEPTED
    if not seated and table.kind == Kind.CORRESPONDENCE:
        # Correspondence games are watched by their own players only.
        raise Http404
    context = {
        "table": table,
        "join_as": "seat" if seated else "spectator",
        "variant_label": variant_label(table.variant),
        "target_label": target_label(table),
        "labels": table_labels(),
        "chat_max_length": settings.AMIGOS_CHAT_MAX_LENGTH,
        # A table with computer players is practice: its cards never count toward a suspension.
        "practice": table.seats.filter(user__isnull=True).exists(),
    }
    return render(request, "tables/table.html", context)


def _online_others(user: User) -> list[tuple[int, str]]:
    return [
        (player.user_id, player.name)
        for player in presence.online_players(timezone.now())
        if player.user_id != user.pk and player.status == "available"
    ]


@login_required
def new_table(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    form = CreateTableForm(request.POST or None, online=_online_others(user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = create_table(
                organizer=user,
                name=data["name"],
                variant=data["variant"],
                players=data["players"],
                kind=data["kind"],
                seats=data["seats"],
            )
        except TableRefused as refusal:
            form.add_error(None, refusal_text(refusal.code))
        else:
            return redirect("tables:table", table_id=table.pk)
    return render(request, "tables/new.html", {"form": form})


def _posted_players(request: HttpRequest, user: User) -> list[tuple[int, str]]:
    """The registered players named in the posted seats (so that a refused form shows them again
    by name); ids of nobody are simply not listed (the table service refuses them)."""
    ids = set()
    for field, _number, _label in SEAT_FIELDS:
        kind, _colon, rest = str(request.POST.get(field, "")).partition(":")
        if kind == "user" and rest.isdigit() and len(rest) < 12:
            ids.add(int(rest))
    ids.discard(user.pk)
    rows = User.objects.filter(pk__in=ids, is_active=True).values_list("pk", "display_name")
    return [(int(pk), str(name)) for pk, name in rows]


@login_required
@require_http_methods(["GET", "POST"])
def friends_game(request: HttpRequest) -> HttpResponse:
    """A correspondence game with friends: invite any registered player, online or not. The
    players you played with lately come first; a search by name finds anyone else. The
    invitation waits in their "my games" and in the meeting room until it expires."""
    user = _player(request)
    query = str(request.GET.get("q") or request.POST.get("q") or "").strip()[:40]
    recent = selectors.recent_opponents(user.pk)
    found = account_selectors.players_named(query, exclude=user.pk) if query else []
    posted = _posted_players(request, user) if request.POST else []
    form = FriendsTableForm(request.POST or None, recent=recent, people=[*found, *posted])
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = create_table(
                organizer=user,
                name=data["name"],
                variant=data["variant"],
                players=data["players"],
                kind=Kind.CORRESPONDENCE,
                seats=data["seats"],
                answer_within=timedelta(days=data["answer_days"]),
            )
        except TableRefused as refusal:
            form.add_error(None, refusal_text(refusal.code))
        else:
            invitation_mail.announce(table.pk, link=request.build_absolute_uri(reverse("tables:my_games")))
            if table.deadline_at is not None:
                when = formats.date_format(timezone.localtime(table.deadline_at), "SHORT_DATETIME_FORMAT")
                messages.success(
                    request, _("Invitation sent. It waits for an answer until %(when)s.") % {"when": when}
                )
            return redirect("tables:my_games")
    context = {
        "form": form,
        "query": query,
        "found": found,
        "recent": recent,
        "searched": bool(query),
    }
    return render(request, "tables/friends.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def computer_game(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    form = ComputerGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a game and a level for the computer players."))
        return redirect("lobby:home")
    data = form.cleaned_data
    try:
        table = play_against_computer(
            user=user,
            variant=data["variant"],
            players=None if data["variant"] in FIXED_PLAYERS else (data["players"] or 4),
            level=data["level"],
        )
    except TableRefused as refusal:
        messages.error(request, refusal_text(refusal.code))
        return redirect("lobby:home")
    return redirect("tables:table", table_id=table.pk)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    games = selectors.my_games(user_id=user.pk)
    now = timezone.now()
    for game in games:
        game["variant_label"] = variant_label(game["variant"])
        game["opponents"] = [seat["name"] for seat in game["seats"] if seat["seat"] != game["seat"]]
        # Moments as datetimes: the page shows them in the player's zone (accounts.clock).
        for key in ("deadline", "invited_until", "answers_until"):
            at = clock.moment(game[key])
            game[f"{key}_at"] = at
            game[f"{key}_left"] = None if at is None else clock.time_left(at, now)
    return render(request, "tables/my_games.html", {"games": games})


@login_required
def review_hand(request: HttpRequest, table_id: int, match: int, hand: int) -> HttpResponse:
    """A seated player's review of their own plays in a hand that ended at this table: POST asks
    for it (the solver runs in the background), GET shows its progress or its result."""
    user = _player(request)
    table = get_object_or_404(Table, pk=table_id)
    seat = hand_review.seat_of(user_id=user.pk, table_id=table_id)
    if seat is None:
        raise Http404  # other players' plays are not even acknowledged
    here = reverse("tables:review_hand", args=(table_id, match, hand))
    if request.method == "POST":
        try:
            found, created = hand_review.request_live_review(
                user_id=user.pk, table_id=table_id, match=match, hand=hand
            )
        except TableRefused as exc:
            messages.error(request, refusal_text(exc.code))
            return redirect("tables:table", table_id=table_id)
        if created or found.status in (LiveHandReview.Status.PENDING, LiveHandReview.Status.FAILED):
            try:
                review_runner.start_review(found.pk, model=LiveHandReview, user_id=user.pk)
            except ArchiveError as exc:  # the player's other review, or the site's queue, is full
                if created:
                    found.delete()
                messages.error(request, refusal_text(exc.code.replace("-", "_")))
                return redirect("tables:table", table_id=table_id)
        return redirect(here)
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    existing = hand_review.live_review(table_id=table_id, match=match, hand=hand, seat=seat)
    if existing is None and not hand_review.reviewable(table_id=table_id, match=match, hand=hand, seat=seat):
        raise Http404
    return render(
        request,
        "archive/review.html",
        {
            "table_name": table.name,
            "variant": table.variant,
            "back_url": reverse("tables:table", args=(table_id,)),
            "back_text": _("Back to the table"),
            "hand": hand,
            "review": existing,
            "busy": existing is not None and existing.status in ("pending", "running"),
        },
    )
