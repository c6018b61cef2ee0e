"""A table's score sheet on a phone: choose the scorekeeper, attendance, the lead, hands, the end."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from amigos.recreo.scoring import MatchEnd
from amigos.recreo.sheet import HandEnd, hands_display
from amigos.web.accounts.models import User
from amigos.web.events.models import TableMatch
from amigos.web.events.services import EventError
from amigos.web.events.services import tables as svc
from amigos.web.events.views.access import current_user, visible_event


def _match(request: HttpRequest, pk: int, round_number: int, table: int) -> TableMatch:
    event, _seat = visible_event(request, pk)
    return get_object_or_404(TableMatch.objects.select_related("event", "scorekeeper"), event=event,
                             round=round_number, table=table)  # fmt: skip


@login_required
def table(request: HttpRequest, pk: int, round_number: int, table: int) -> HttpResponse:
    match = _match(request, pk, round_number, table)
    user = current_user(request)
    event = match.event
    assignment = svc.assignment_of(match)
    names = {p.number: p for p in event.players.all()}
    lines, next_leader, state = svc.sheet_lines(match)
    hands_target = event.target == "hands"
    score_a, score_b = state.score
    context = {
        "event": event,
        "poll_event": event,
        "match": match,
        "pair_a": [names[n] for n in assignment.pair_a],
        "pair_b": [names[n] for n in assignment.pair_b],
        "seated": [names[n] for n in assignment.players],
        "lines": lines,
        "names": names,
        "next_leader": names.get(next_leader) if next_leader else None,
        "state": state,
        "is_organizer": svc.is_organizer(user, event),
        "may_write": svc.may_write(user, match),
        "may_choose": svc.is_organizer(user, event) or svc.seated_player(user, match) is not None,
        "hands_target": hands_target,
        "display_a": hands_display(score_a, score_b) if hands_target else str(score_a),
        "display_b": hands_display(score_b, score_a) if hands_target else str(score_b),
        "is_open": match.state != TableMatch.State.CLOSED and event.status == "running",
        "notes": match.notes.select_related("by"),
        "started": match.hands.order_by("index").values_list("created_at", flat=True).first(),
    }
    return render(request, "events/table.html", context)


def _int(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise EventError(_("Enter a whole number.")) from None


def _side(request: HttpRequest, name: str = "side") -> str:
    side = request.POST.get(name, "")
    if side not in ("a", "b"):
        raise EventError(_("Choose a pair."))
    return side


def _keeper(request: HttpRequest, user: User, match: TableMatch) -> None:
    svc.choose_scorekeeper(user, match, _int(request, "player"), request.POST.get("for_partner") == "on")


def _leader(request: HttpRequest, user: User, match: TableMatch) -> None:
    svc.set_first_leader(user, match, _int(request, "leader"), _int(request, "right"))


def _hand(request: HttpRequest, user: User, match: TableMatch) -> None:
    try:
        end = HandEnd(request.POST.get("end", ""))
    except ValueError:
        raise EventError(_("Choose how the hand ended.")) from None
    points = 0
    if end is not HandEnd.TIED_BLOCK and match.event.target != "hands":
        points = _int(request, "points")
        if points < 0:
            raise EventError(_("Points cannot be negative."))
    number = _int(request, "number") if request.POST.get("number") else None
    svc.record_hand(user, match, end, _side(request), points, number)


def _result(request: HttpRequest, user: User, match: TableMatch) -> None:
    try:
        end = MatchEnd(request.POST.get("end", "target"))
    except ValueError:
        raise EventError(_("Choose how the match ended.")) from None
    offender = _side(request, "offender") if end is MatchEnd.DEFAULT else ""
    score = (_int(request, "score_a"), _int(request, "score_b"))
    if min(score) < 0:
        raise EventError(_("Points cannot be negative."))
    svc.set_result(user, match, score, end, offender)


ACTIONS: dict[str, Callable[[HttpRequest, User, TableMatch], None]] = {
    "keeper": _keeper,
    "attendance": lambda r, u, m: svc.confirm_attendance(u, m),
    "leader": _leader,
    "hand": _hand,
    "undo": lambda r, u, m: svc.undo_last_hand(u, m),
    "confirm_end": lambda r, u, m: svc.confirm_end(u, m),
    "close": lambda r, u, m: svc.organizer_confirm(u, m),
    "suspend": lambda r, u, m: svc.suspend_match(u, m),
    "default": lambda r, u, m: svc.apply_default(u, m, _side(r, "offender")),
    "result": _result,
    "call_organizer": lambda r, u, m: svc.request_organizer(u, m),
    "default_rejected": lambda r, u, m: svc.answer_default_claim(u, m, accept=False),
    "default_accepted": lambda r, u, m: svc.answer_default_claim(u, m, accept=True),
}


@login_required
@require_POST
def table_action(request: HttpRequest, pk: int, round_number: int, table: int) -> HttpResponse:
    match = _match(request, pk, round_number, table)
    action = ACTIONS.get(request.POST.get("action", ""))
    try:
        if action is None:
            raise EventError(_("Unknown action."))
        action(request, current_user(request), match)
    except EventError as exc:
        messages.error(request, str(exc))
    return redirect("events:table", pk=pk, round_number=round_number, table=table)
