"""A table's sheet during a round: scorekeeper, attendance, the lead, hands, and closing the match.

Who may write: the organizer always (for any table, to enter or correct); otherwise only the user
holding the sheet of that table. Every change bumps the event's version so phones refresh.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from amigos.recreo.formats import TableAssignment, format_for
from amigos.recreo.scoring import MatchEnd, ResultError, Target, score_match
from amigos.recreo.sheet import (
    HandEnd,
    HandEntry,
    SheetError,
    SheetState,
    add_hand,
    close_normally,
    forfeit,
    leader_of_hand,
    sheet_state,
    suspend,
    turn_order,
)
from amigos.web.accounts.models import User
from amigos.web.events.models import Event, EventPlayer, HandRecord, TableMatch, TableNote
from amigos.web.events.services import EventError

# The pure core explains refusals in English; these are the ones a person can meet on the sheet.
SHEET_MESSAGES = {
    "the match is already over": gettext_lazy("The match is already over."),
    "the match has not reached its target yet": gettext_lazy("The match has not reached its target yet."),
    "the match is already over: confirm it instead of suspending": gettext_lazy(
        "The match is already over: confirm it instead of suspending it."
    ),
    "the score is tied: play one more hand before suspending": gettext_lazy(
        "The score is tied: play one more hand before suspending."
    ),
    "the match is already over: there is nothing to forfeit": gettext_lazy(
        "The match is already over: there is nothing to forfeit."
    ),
    "the leader and the player at their right must both sit at this table": gettext_lazy(
        "The leader and the player at their right must both sit at this table."
    ),
    "the player at the leader's right is an opponent, never the partner": gettext_lazy(
        "The player at the leader's right is an opponent, never the partner."
    ),
}


def refusal(exc: ValueError) -> EventError:
    """The core's refusal in the person's language when we know it, else as the core wrote it."""
    text = str(exc)
    return EventError(str(SHEET_MESSAGES.get(text, text)))


def target_of(event: Event) -> Target:
    return Target.HANDS_WON if event.target == "hands" else Target(int(event.target))


def assignment_of(match: TableMatch) -> TableAssignment:
    found = format_for(match.event.player_count).assignment(match.round, match.table)
    assert found is not None  # matches are only created from the schedule
    return found


def open_round(event: Event, number: int) -> None:
    """Create the round's tables. In Todos con Todos each table starts with its scorekeeper-profile
    holder (the schedule seats one at every table); the table may still choose someone else."""
    fmt = format_for(event.player_count)
    rnd = fmt.round(number)
    assert rnd is not None
    seats = {p.number: p for p in event.players.all()}
    for table in rnd.tables:
        holders = [n for n in fmt.scorekeepers if n in table.players]
        keeper = seats.get(holders[0]) if holders else None
        TableMatch.objects.get_or_create(
            event=event, round=number, table=table.table, defaults={"scorekeeper": keeper}
        )


def is_organizer(user: User, event: Event) -> bool:
    return bool(user.is_authenticated and user.pk == event.organizer_id)


def seated_player(user: User, match: TableMatch) -> EventPlayer | None:
    """The event player this user is, if they sit at this table this round."""
    seat = EventPlayer.objects.filter(event=match.event, user=user).first()
    if seat is None or seat.number not in assignment_of(match).players:
        return None
    return seat


def may_write(user: User, match: TableMatch) -> bool:
    if is_organizer(user, match.event):
        return True
    keeper = match.scorekeeper
    return keeper is not None and keeper.user_id is not None and keeper.user_id == user.pk


def _require_open(match: TableMatch) -> None:
    if match.event.status != Event.Status.RUNNING:
        raise EventError(_("The event is not under way."))
    if match.state == TableMatch.State.CLOSED:
        raise EventError(_("This match is closed."))


def _require_writer(user: User, match: TableMatch) -> None:
    if not may_write(user, match):
        raise EventError(_("Only this table's scorekeeper or the organizer can do that."))


def choose_scorekeeper(user: User, match: TableMatch, number: int, keeps_for_partner: bool) -> None:
    """Any player seated here, or the organizer, names who keeps the sheet this round."""
    _require_open(match)
    if not is_organizer(user, match.event) and seated_player(user, match) is None:
        raise EventError(_("Only the players of this table or the organizer can choose the scorekeeper."))
    if match.scorekeeper is not None and not may_write(user, match):
        raise EventError(
            _("The sheet already has a scorekeeper; only they or the organizer can hand it over.")
        )
    if number not in assignment_of(match).players:
        raise EventError(_("The scorekeeper must sit at this table."))
    match.scorekeeper = EventPlayer.objects.get(event=match.event, number=number)
    match.keeps_for_partner = keeps_for_partner
    match.save(update_fields=["scorekeeper", "keeps_for_partner"])
    match.event.touch()


def confirm_attendance(user: User, match: TableMatch) -> None:
    _require_open(match)
    _require_writer(user, match)
    match.attendance_confirmed = True
    match.save(update_fields=["attendance_confirmed"])
    match.event.touch()


def set_first_leader(user: User, match: TableMatch, leader: int, right_of_leader: int) -> None:
    _require_open(match)
    _require_writer(user, match)
    table = assignment_of(match)
    try:
        turn_order(table.pair_a, table.pair_b, leader, right_of_leader)
    except SheetError as exc:
        raise refusal(exc) from None
    if match.hands.exists():
        raise EventError(_("The first leader cannot change once hands are entered."))
    match.first_leader, match.right_of_leader = leader, right_of_leader
    match.save(update_fields=["first_leader", "right_of_leader"])
    match.event.touch()


def entries(match: TableMatch) -> list[HandEntry]:
    return [HandEntry(HandEnd(h.end), h.side, h.points) for h in match.hands.all()]


def record_hand(
    user: User, match: TableMatch, end: HandEnd, side: str, points: int, number: int | None = None
) -> SheetState:
    """Add a hand. ``number`` is the hand the phone showed: a double tap, or a second phone sending
    the same hand, arrives with a number already taken and is refused instead of counted twice."""
    _require_open(match)
    _require_writer(user, match)
    if not match.attendance_confirmed or match.first_leader is None:
        raise EventError(_("Confirm attendance and the first leader before entering hands."))
    if match.state != TableMatch.State.PLAYING:
        raise EventError(_("The end of this match is waiting for the organizer."))
    try:
        hand = HandEntry(end, side, 0 if end is HandEnd.TIED_BLOCK else points)
        with transaction.atomic():
            previous = entries(match)
            if number is not None and number != len(previous) + 1:
                raise EventError(_("Hand %(n)s is already on the sheet; check it before entering another.")
                                 % {"n": number})  # fmt: skip
            state = add_hand(target_of(match.event), previous, hand)
            HandRecord.objects.create(
                match=match,
                index=len(previous),
                end=end.value,
                side=side,
                points=hand.points,
                entered_by=user,
            )
    except SheetError as exc:
        raise refusal(exc) from None
    except IntegrityError:
        raise EventError(_("The sheet changed meanwhile; check it and try again.")) from None
    _store_score(match, state.score)
    return state


def _store_score(match: TableMatch, score: tuple[int, int]) -> None:
    match.score_a, match.score_b = score
    match.save(update_fields=["score_a", "score_b"])
    match.event.touch()


def undo_last_hand(user: User, match: TableMatch) -> None:
    _require_open(match)
    _require_writer(user, match)
    last = match.hands.order_by("-index").first()
    if last is None:
        raise EventError(_("There is no hand to undo."))
    last.delete()
    match.state = TableMatch.State.PLAYING
    match.save(update_fields=["state"])
    _store_score(match, sheet_state(target_of(match.event), entries(match)).score)


def confirm_end(user: User, match: TableMatch) -> None:
    """The scorekeeper confirms the match is over; the organizer then closes it."""
    _require_open(match)
    _require_writer(user, match)
    try:
        close_normally(target_of(match.event), entries(match))
    except SheetError as exc:
        raise refusal(exc) from None
    if is_organizer(user, match.event):
        _close(match, MatchEnd.TARGET, "")
        return
    match.state = TableMatch.State.AWAITING
    match.save(update_fields=["state"])
    match.event.touch()


def organizer_confirm(user: User, match: TableMatch) -> None:
    if not is_organizer(user, match.event):
        raise EventError(_("Only the organizer can close a match."))
    _require_open(match)
    try:
        close_normally(target_of(match.event), entries(match))
    except SheetError as exc:
        raise refusal(exc) from None
    _close(match, MatchEnd.TARGET, "")


def suspend_match(user: User, match: TableMatch) -> None:
    if not is_organizer(user, match.event):
        raise EventError(_("Only the organizer can suspend a match."))
    _require_open(match)
    try:
        suspend(target_of(match.event), entries(match))
    except SheetError as exc:
        raise refusal(exc) from None
    _close(match, MatchEnd.SUSPENDED, "")


def apply_default(user: User, match: TableMatch, offender: str) -> None:
    if not is_organizer(user, match.event):
        raise EventError(_("Only the organizer can apply a default."))
    _require_open(match)
    try:
        forfeit(target_of(match.event), entries(match), offender)
    except SheetError as exc:
        raise refusal(exc) from None
    _close(match, MatchEnd.DEFAULT, offender)


def _close(match: TableMatch, end: MatchEnd, offender: str) -> None:
    match.state = TableMatch.State.CLOSED
    match.end = end.value
    match.offender = offender
    match.organizer_requested = False
    match.closed_at = timezone.now()
    match.save(update_fields=["state", "end", "offender", "organizer_requested", "closed_at"])
    match.event.touch()


def set_result(user: User, match: TableMatch, score: tuple[int, int], end: MatchEnd, offender: str) -> None:
    """The organizer enters or corrects a table's final result directly (a paper sheet, a mistake)."""
    if not is_organizer(user, match.event):
        raise EventError(_("Only the organizer can enter or correct a result."))
    if match.event.status == Event.Status.DRAFT:
        raise EventError(_("The event is not under way."))
    try:
        score_match(target_of(match.event), score, end, offender or None)
    except ResultError as exc:
        raise refusal(exc) from None
    match.score_a, match.score_b = score
    match.save(update_fields=["score_a", "score_b"])
    _close(match, end, offender)


def request_organizer(user: User, match: TableMatch) -> None:
    _require_open(match)
    _require_writer(user, match)
    match.organizer_requested = True
    match.save(update_fields=["organizer_requested"])
    TableNote.objects.create(match=match, kind=TableNote.Kind.CALLED, by=user)
    match.event.touch()


def answer_default_claim(user: User, match: TableMatch, accept: bool) -> None:
    """The scorekeeper's answer to a player claiming a default: rejected (noted, play goes on) or
    accepted (the table waits for the organizer, who alone can apply it)."""
    _require_open(match)
    _require_writer(user, match)
    kind = TableNote.Kind.DEFAULT_ACCEPTED if accept else TableNote.Kind.DEFAULT_REJECTED
    TableNote.objects.create(match=match, kind=kind, by=user)
    if accept:
        match.organizer_requested = True
        match.save(update_fields=["organizer_requested"])
    match.event.touch()


def missing_tables(event: Event) -> list[TableMatch]:
    return list(event.matches.filter(round=event.current_round).exclude(state=TableMatch.State.CLOSED))


def start_next_round(user: User, event: Event) -> None:
    from amigos.web.events.services.setup import finish_event

    if not is_organizer(user, event):
        raise EventError(_("Only the organizer can start the next round."))
    if event.status != Event.Status.RUNNING:
        raise EventError(_("The event is not under way."))
    if missing_tables(event):
        raise EventError(_("Every table of this round must be closed first."))
    rounds = len(format_for(event.player_count).rounds)
    with transaction.atomic():
        if event.current_round >= rounds:
            finish_event(event)
            return
        event.current_round += 1
        event.save(update_fields=["current_round"])
        open_round(event, event.current_round)
    event.touch()


@dataclass(frozen=True)
class SheetLine:
    number: int
    leader: int | None
    end: str
    side: str
    points: int
    total_a: int
    total_b: int


def sheet_lines(match: TableMatch) -> tuple[list[SheetLine], int | None, SheetState]:
    """The running sheet, the leader of the next hand (None before the first leader), and the state."""
    target = target_of(match.event)
    hands = entries(match)
    order = None
    if match.first_leader is not None and match.right_of_leader is not None:
        table = assignment_of(match)
        order = turn_order(table.pair_a, table.pair_b, match.first_leader, match.right_of_leader)
    lines = []
    for index in range(len(hands)):
        state = sheet_state(target, hands[: index + 1])
        hand = hands[index]
        lines.append(
            SheetLine(
                index + 1,
                leader_of_hand(order, index) if order else None,
                hand.end.value,
                hand.side,
                hand.points,
                *state.score,
            )
        )
    state = sheet_state(target, hands)
    next_leader = leader_of_hand(order, len(hands)) if order and not state.over else None
    return lines, next_leader, state
