"""What a live table's row changes by, written from one step of the pure table (issue 37).

Why this exists: the table actor is to run `amigos.table.advance` and keep only I/O. Each of its
jobs stores the log entries (`effect_entries.entries_of` writes them from the model's step) and,
in the same transaction, the table row's other changes (`store.Write`): its status word, when the
match started or ended, the deadline the row keeps, the cards that go on the ladder, the seats
whose invitation changed, whether the record must be written again and whether the match is
over. `write_of` is that second brick: from the states before and after a step, its effects and
the entries written for it, the `store.Write` the actor would make. It decides nothing: every
fact comes from the model. In the tests, the pure table run beside every actor (`actor_model`)
checks it against the writes the actor makes; nothing else calls it yet.

The record itself (``Write.record``) is not built here: ``record`` says when the actor writes it
(the match starts, a hand ends, the match ends), and the actor's `Game` builds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from amigos.table import DeadlineKind, Invitation, Phase, TableState, table_deadline
from amigos.web.tables import store
from amigos.web.tables.actor_clock import STORED
from amigos.web.tables.log_entries import CardGiven, HandEnded, HandVoided, LogEntry, MatchEnded, MatchStarted

#: The word a table row's ``deadline_kind`` keeps for each of the table's own deadlines.
DEADLINE_WORDS: dict[DeadlineKind, str] = {
    DeadlineKind.INVITATION: "invitation",
    DeadlineKind.START: "start",
    DeadlineKind.DEAL: "deal",
    DeadlineKind.VOTE: "votes",
    **STORED,
}

#: A seat's invitation as its row spells it.
_INVITATION_WORDS = {Invitation.PENDING: "pending", Invitation.ACCEPTED: "accepted"}


def status_of(state: TableState) -> str:
    """The table row's status word for ``state``: a closed table whose match never started was
    cancelled, one whose match did is finished."""
    phase = state.phase
    if phase is Phase.INVITING:
        return "inviting"
    if phase is Phase.VOTING:
        return "voting"
    if phase is Phase.CLOSED:
        return "cancelled" if state.match is None else "finished"
    return "playing"


@dataclass(frozen=True)
class WriteContext:
    """What only the server knows: ``origin``, the wall-clock moment the model's second 0 stands
    for; ``now``, the step's moment; ``match_number``, the server's number of the match in play;
    ``next_table_id``, the table a vote created."""

    origin: datetime
    now: datetime
    match_number: int
    next_table_id: int | None = None

    def moment(self, seconds: float) -> datetime:
        return self.origin + timedelta(seconds=seconds)


@dataclass
class StepWrite:
    """`write_of`'s answer: the `store.Write` and whether the record is to be written again
    (``record``: the match started, a hand or the match ended, a deal was voided)."""

    write: store.Write
    record: bool
    # The rows the step stored, when the caller keeps them with its write (`actor_decide`).
    entries: list[LogEntry] = field(default_factory=list)


def write_of(
    before: TableState, after: TableState, entries: Sequence[LogEntry], context: WriteContext
) -> StepWrite:
    """The table row's changes for one step of the pure table (see the module's docstring)."""
    now = context.now
    write = store.Write(at=now)
    status, was = status_of(after), status_of(before)
    if status != was:
        write.status = status
        if status in ("finished", "cancelled"):
            write.ended_at = now
    # One pass over the rows (a play has two or three): what starts or ends, and the cards.
    started = record = False
    ended: MatchEnded | None = None
    for entry in entries:
        kind = type(entry)
        if kind is MatchStarted:
            started = record = True
        elif kind is MatchEnded:
            assert isinstance(entry, MatchEnded)
            ended, record = entry, True
        elif kind is HandEnded or kind is HandVoided:
            # A voided deal (a Cuban reshuffle) was the record's hand in play: it is written again too.
            record = True
        elif kind is CardGiven and _on_ladder(entry):
            write.cards.append(_card_row(entry, context, after))
    if started:
        write.started_at = write.record_started_at = now
        write.match_number = context.match_number
    if ended is not None:
        write.record_ended = True
        write.termination = ended.termination
    if status == "finished" and was == "voting":
        write.next_table_id = context.next_table_id
    # The row's deadline after the step, written every time (a step that keeps it writes it again).
    deadline = table_deadline(after)
    if deadline is None or deadline.at is None:
        write.deadline = (None, "")
    else:
        word = "" if deadline.kind is None else DEADLINE_WORDS[deadline.kind]
        write.deadline = (context.moment(deadline.at), word)
    write.seats = _seat_rows(before, after, cancelled=status == "cancelled" and was != status)
    return StepWrite(write, record)


def _on_ladder(entry: LogEntry) -> bool:
    """A card that counts toward a suspension (a practice card is only shown)."""
    return isinstance(entry, CardGiven) and not entry.practice and entry.user_id is not None


def _card_row(entry: LogEntry, context: WriteContext, after: TableState) -> dict[str, Any]:
    assert isinstance(entry, CardGiven)
    hand = after.hand
    return {
        "user_id": entry.user_id,
        "match": context.match_number,
        "hand": None if hand is None else hand.number,
        "colour": entry.colour,
        "reason": entry.reason,
    }


def _seat_rows(before: TableState, after: TableState, *, cancelled: bool) -> list[dict[str, Any]]:
    """The seats whose invitation changed, as their rows spell it: accepted, refused, or, when the
    table is cancelled, every invitation still open closed as "expired" (the model leaves them
    open at a closed table)."""
    rows: list[dict[str, Any]] = []
    if before.phase is not Phase.INVITING:
        return rows  # invitations are answered, and close, only while the table invites
    for number, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
        if was.invitation is now.invitation and not (cancelled and now.invitation is Invitation.PENDING):
            continue
        word = (
            "expired"
            if now.invitation is Invitation.PENDING
            else _INVITATION_WORDS.get(now.invitation, "refused")
        )
        rows.append({"number": number, "invitation": word, "invited_until": None})
    return rows


def merged(first: store.Write, then: store.Write) -> store.Write:
    """One write for two steps stored together (an input and the deals it called for, stored
    as one job): ``then``'s status, deadline, record and moments win, cards and seats add up."""
    return store.Write(
        at=then.at,
        status=then.status or first.status,
        started_at=then.started_at or first.started_at,
        ended_at=then.ended_at or first.ended_at,
        deadline=then.deadline if then.deadline is not None else first.deadline,
        match_number=then.match_number or first.match_number,
        cards=[*first.cards, *then.cards],
        seats=[*first.seats, *then.seats],
        record=then.record if then.record is not None else first.record,
        record_started_at=then.record_started_at or first.record_started_at,
        record_ended=first.record_ended or then.record_ended,
        termination=then.termination or first.termination,
        next_table_id=then.next_table_id or first.next_table_id,
    )
