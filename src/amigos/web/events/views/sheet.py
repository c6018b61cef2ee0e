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
from amigos.recreo.sheet import HandEnd
from amigos.web.accounts.models import User
from amigos.web.events import selectors
from amigos.web.events.models import TableMatch
from amigos.web.events.services import EventError
from amigos.web.events.services import tables as svc
from amigos.web.events.views.access import current_user, visible_event

#: The largest whole number a form field may carry: what the database's integer columns hold.
LARGEST = 2**31 - 1


def _match(request: HttpRequest, pk: int, round_number: int, table: int) -> TableMatch:
    event, _seat = visible_event(request, pk)
    return get_object_or_404(TableMatch.objects.select_related("event", "scorekeeper"), event=event,
                             round=round_number, table=table)  # fmt: skip


@login_required
def table(request: HttpRequest, pk: int, round_number: int, table: int) -> HttpResponse:
    match = _match(request, pk, round_number, table)
    context = selectors.table_page(current_user(request), match)
    return render(request, "events/table.html", context)


def _int(request: HttpRequest, name: str, lowest: int = 0, highest: int = LARGEST) -> int:
    text = request.POST.get(name, "").strip()
    try:
        value = int(text) if len(text) <= 12 else None
    except ValueError:
        value = None
    if value is None or not lowest <= value <= highest:
        raise EventError(
            _("Enter a whole number from %(lowest)s to %(highest)s.") % {"lowest": lowest, "highest": highest}
        )
    return value


def _side(request: HttpRequest, name: str = "side") -> str:
    side = request.POST.get(name, "")
    if side not in ("a", "b"):
        raise EventError(_("Choose a pair."))
    return side


def _confirmed(request: HttpRequest) -> None:
    """Suspending a match and applying a default cannot be undone by the table: they need a
    second, explicit tap (the form's confirmation box)."""
    if request.POST.get("confirm") != "yes":
        raise EventError(_("Confirm it first: tick the box and tap the button again."))


def _keeper(request: HttpRequest, user: User, match: TableMatch) -> None:
    svc.choose_scorekeeper(
        user, match, _int(request, "player", 1, 16), request.POST.get("for_partner") == "on"
    )


def _leader(request: HttpRequest, user: User, match: TableMatch) -> None:
    svc.set_first_leader(user, match, _int(request, "leader", 1, 16), _int(request, "right", 1, 16))


def _hand(request: HttpRequest, user: User, match: TableMatch) -> None:
    try:
        end = HandEnd(request.POST.get("end", ""))
    except ValueError:
        raise EventError(_("Choose how the hand ended.")) from None
    points = 0
    if end is not HandEnd.TIED_BLOCK and match.event.target != "hands":
        points = _int(request, "points")
    number = _int(request, "number", 1) if request.POST.get("number") else None
    svc.record_hand(user, match, end, _side(request), points, number)


def _result(request: HttpRequest, user: User, match: TableMatch) -> None:
    try:
        end = MatchEnd(request.POST.get("end", "target"))
    except ValueError:
        raise EventError(_("Choose how the match ended.")) from None
    offender = _side(request, "offender") if end is MatchEnd.DEFAULT else ""
    score = (_int(request, "score_a"), _int(request, "score_b"))
    svc.set_result(user, match, score, end, offender)


def _suspend(request: HttpRequest, user: User, match: TableMatch) -> None:
    _confirmed(request)
    svc.suspend_match(user, match)


def _default(request: HttpRequest, user: User, match: TableMatch) -> None:
    offender = _side(request, "offender")
    _confirmed(request)
    svc.apply_default(user, match, offender)


ACTIONS: dict[str, Callable[[HttpRequest, User, TableMatch], None]] = {
    "keeper": _keeper,
    "attendance": lambda r, u, m: svc.confirm_attendance(u, m),
    "leader": _leader,
    "hand": _hand,
    "undo": lambda r, u, m: svc.undo_last_hand(u, m),
    "confirm_end": lambda r, u, m: svc.confirm_end(u, m),
    "close": lambda r, u, m: svc.organizer_confirm(u, m),
    "suspend": _suspend,
    "default": _default,
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
