"""A table's sheet during a round: scorekeeper, attendance, the lead, hands, and closing the match.

Who may write: the organizer always (for any table, to enter or correct); otherwise only the user
holding the sheet of that table. Every change is one transaction: the match row is locked, the
sheet is read again inside it, and the hands, the stored score, the match's state and the event's
version are written together or not at all (a crash between two of them used to leave a sheet at
80-100 with 80-99 stored). Each change then tells the phones following the event.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from amigos.recreo.errors import RecreoError
from amigos.recreo.scoring import MatchEnd, score_match
from amigos.recreo.sheet import (
    HandEnd,
    HandEntry,
    SheetState,
    add_hand,
    close_normally,
    forfeit,
    sheet_state,
    suspend,
    turn_order,
)
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer, HandRecord, TableMatch, TableNote
from amigos.web.events.refusals import explain
from amigos.web.events.selectors import (
    assignment_of,
    entries,
    is_organizer,
    may_write,
    seated_player,
    target_of,
)
from amigos.web.events.services import EventError
from amigos.web.events.services.live import changed


def refusal(exc: RecreoError) -> EventError:
    """The core's refusal as the site shows it: chosen by its code, in the person's language."""
    return EventError(explain(exc))


def _locked(match: TableMatch) -> TableMatch:
    """The match as it is now, its row locked until the transaction ends, so two phones writing to
    one sheet are applied one after the other and each check sees the other's write."""
    return (
        TableMatch.objects.select_for_update(of=("self",))
        .select_related("event", "scorekeeper")
        .get(pk=match.pk)
    )


def _require_open(match: TableMatch) -> None:
    if match.event.status != Event.Status.RUNNING:
        raise EventError(_("The event is not under way."))
    if match.state == TableMatch.State.CLOSED:
        raise EventError(_("This match is closed."))


def _require_writer(user: User, match: TableMatch) -> None:
    if not may_write(user, match):
        raise EventError(_("Only this table's scorekeeper or the organizer can do that."))


def _require_organizer(user: User, match: TableMatch, message: str) -> None:
    if not is_organizer(user, match.event):
        raise EventError(message)


def choose_scorekeeper(user: User, match: TableMatch, number: int, keeps_for_partner: bool) -> None:
    """Any player seated here, or the organizer, names who keeps the sheet this round."""
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        if not is_organizer(user, current.event) and seated_player(user, current) is None:
            raise EventError(_("Only the players of this table or the organizer can choose the scorekeeper."))
        if current.scorekeeper is not None and not may_write(user, current):
            raise EventError(
                _("The sheet already has a scorekeeper; only they or the organizer can hand it over.")
            )
        if number not in assignment_of(current).players:
            raise EventError(_("The scorekeeper must sit at this table."))
        current.scorekeeper = EventPlayer.objects.get(event=current.event, number=number)
        current.keeps_for_partner = keeps_for_partner
        current.save(update_fields=["scorekeeper", "keeps_for_partner"])
        changed(current.event)
    match.refresh_from_db()


def confirm_attendance(user: User, match: TableMatch) -> None:
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        current.attendance_confirmed = True
        current.save(update_fields=["attendance_confirmed"])
        changed(current.event)
    match.refresh_from_db()


def set_first_leader(user: User, match: TableMatch, leader: int, right_of_leader: int) -> None:
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        table = assignment_of(current)
        try:
            turn_order(table.pair_a, table.pair_b, leader, right_of_leader)
        except RecreoError as exc:
            raise refusal(exc) from None
        if current.hands.exists():
            raise EventError(_("The first leader cannot change once hands are entered."))
        current.first_leader, current.right_of_leader = leader, right_of_leader
        current.save(update_fields=["first_leader", "right_of_leader"])
        changed(current.event)
    match.refresh_from_db()


def record_hand(
    user: User, match: TableMatch, end: HandEnd, side: str, points: int, number: int | None = None
) -> SheetState:
    """Add a hand. ``number`` is the hand the phone showed: a double tap, or a second phone sending
    the same hand, arrives with a number already taken and is refused instead of counted twice."""
    try:
        with transaction.atomic():
            current = _locked(match)
            _require_open(current)
            _require_writer(user, current)
            if not current.attendance_confirmed or current.first_leader is None:
                raise EventError(_("Confirm attendance and the first leader before entering hands."))
            if current.state != TableMatch.State.PLAYING:
                raise EventError(_("The end of this match is waiting for the organizer."))
            hand = HandEntry(end, side, 0 if end is HandEnd.TIED_BLOCK else points)
            previous = entries(current)
            if number is not None and number != len(previous) + 1:
                raise EventError(_("Hand %(n)s is already on the sheet; check it before entering another.")
                                 % {"n": number})  # fmt: skip
            state = add_hand(target_of(current.event), previous, hand)
            HandRecord.objects.create(
                match=current,
                index=len(previous),
                end=end.value,
                side=side,
                points=hand.points,
                entered_by=user,
            )
            _store_score(current, state.score)
    except RecreoError as exc:
        raise refusal(exc) from None
    except IntegrityError:
        raise EventError(_("The sheet changed meanwhile; check it and try again.")) from None
    match.refresh_from_db()
    return state


def _store_score(match: TableMatch, score: tuple[int, int]) -> None:
    match.score_a, match.score_b = score
    match.save(update_fields=["score_a", "score_b"])
    changed(match.event)


def undo_last_hand(user: User, match: TableMatch) -> None:
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        last = current.hands.order_by("-index").first()
        if last is None:
            raise EventError(_("There is no hand to undo."))
        last.delete()
        current.state = TableMatch.State.PLAYING
        current.save(update_fields=["state"])
        _store_score(current, sheet_state(target_of(current.event), entries(current)).score)
    match.refresh_from_db()


def confirm_end(user: User, match: TableMatch) -> None:
    """The scorekeeper confirms the match is over; the organizer then closes it."""
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        try:
            close_normally(target_of(current.event), entries(current))
        except RecreoError as exc:
            raise refusal(exc) from None
        if is_organizer(user, current.event):
            _close(current, MatchEnd.TARGET, "")
        else:
            current.state = TableMatch.State.AWAITING
            current.save(update_fields=["state"])
            changed(current.event)
    match.refresh_from_db()


def organizer_confirm(user: User, match: TableMatch) -> None:
    _require_organizer(user, match, _("Only the organizer can close a match."))
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        try:
            close_normally(target_of(current.event), entries(current))
        except RecreoError as exc:
            raise refusal(exc) from None
        _close(current, MatchEnd.TARGET, "")
    match.refresh_from_db()


def suspend_match(user: User, match: TableMatch) -> None:
    _require_organizer(user, match, _("Only the organizer can suspend a match."))
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        try:
            suspend(target_of(current.event), entries(current))
        except RecreoError as exc:
            raise refusal(exc) from None
        _close(current, MatchEnd.SUSPENDED, "")
    match.refresh_from_db()


def apply_default(user: User, match: TableMatch, offender: str) -> None:
    _require_organizer(user, match, _("Only the organizer can apply a default."))
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        try:
            forfeit(target_of(current.event), entries(current), offender)
        except RecreoError as exc:
            raise refusal(exc) from None
        _close(current, MatchEnd.DEFAULT, offender)
    match.refresh_from_db()


def _close(match: TableMatch, end: MatchEnd, offender: str) -> None:
    match.state = TableMatch.State.CLOSED
    match.end = end.value
    match.offender = offender
    match.organizer_requested = False
    match.closed_at = timezone.now()
    match.save(update_fields=["state", "end", "offender", "organizer_requested", "closed_at"])
    changed(match.event)


def set_result(user: User, match: TableMatch, score: tuple[int, int], end: MatchEnd, offender: str) -> None:
    """The organizer enters or corrects a table's final result directly (a paper sheet, a mistake)."""
    _require_organizer(user, match, _("Only the organizer can enter or correct a result."))
    try:
        score_match(target_of(match.event), score, end, offender or None)
    except RecreoError as exc:
        raise refusal(exc) from None
    with transaction.atomic():
        current = _locked(match)
        if current.event.status == Event.Status.DRAFT:
            raise EventError(_("The event is not under way."))
        current.score_a, current.score_b = score
        current.save(update_fields=["score_a", "score_b"])
        _close(current, end, offender)
    match.refresh_from_db()


def request_organizer(user: User, match: TableMatch) -> None:
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        current.organizer_requested = True
        current.save(update_fields=["organizer_requested"])
        TableNote.objects.create(match=current, kind=TableNote.Kind.CALLED, by=user)
        changed(current.event)
    match.refresh_from_db()


def answer_default_claim(user: User, match: TableMatch, accept: bool) -> None:
    """The scorekeeper's answer to a player claiming a default: rejected (noted, play goes on) or
    accepted (the table waits for the organizer, who alone can apply it)."""
    with transaction.atomic():
        current = _locked(match)
        _require_open(current)
        _require_writer(user, current)
        kind = TableNote.Kind.DEFAULT_ACCEPTED if accept else TableNote.Kind.DEFAULT_REJECTED
        TableNote.objects.create(match=current, kind=kind, by=user)
        if accept:
            current.organizer_requested = True
            current.save(update_fields=["organizer_requested"])
        changed(current.event)
    match.refresh_from_db()
