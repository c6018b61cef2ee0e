"""The pure table run beside the actor, input by input, with what it decides checked against what
the actor stored (issue 37, "one live table").

Why: the actor is to hold one `amigos.table.TableState` and change it only through
`amigos.table.advance`, keeping for itself nothing but I/O. Before its own rules can be deleted,
the model must be shown to decide what they decide in every situation the site meets, not only in
the side-by-side matches of the table tests. This part is that proof, run by the whole test suite:
with ``AMIGOS_TABLE_MODEL_CHECK`` on (the test settings), the actor reads the model's state back
from the database when it is built (`restore.table_state`), feeds it the input each of its jobs
stands for (a play is a `Move`, a page joining a `Reconnected`, the timer a `Tick`, a deal a
`Deal` with the key the actor chose...), and at the end of the job compares the log entries the
actor stored with the entries `effect_entries.entries_of` writes from the model's steps. A
difference is kept in `DISAGREEMENTS` (and logged); the tests' fixture fails the test that made
it. The model's state is kept in production too, for the inputs it decides (`actor_decide`);
with the setting off only the comparison is skipped.

One fact is the actor's, not fed: when each seat was last heard from. A heartbeat from a present
player is taken at once, outside any job (`heard_at_once`), and the tests' fake clocks jump: a
heartbeat then arrives after the seat's silence was due but before the actor's timer ran, which
the actor forgives and the model (which runs whatever fell due before any input, as a punctual
timer would) does not. So before each input the model's seats are given the actor's moments, and
only a heartbeat that does more than that (a player back) is fed, as a `Heartbeat`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.conf import settings

from amigos.table import (
    Effect,
    Invitation,
    Phase,
    TableError,
    TableState,
    Timing,
    VoteChoice,
    advance,
    next_deadline,
)
from amigos.table.evolve import evolve
from amigos.table.inputs import TableInput
from amigos.table.model import SeatState as ModelSeat
from amigos.web.tables import log_codec, restore, store
from amigos.web.tables.actor_types import Clock, SeatState, phase_of
from amigos.web.tables.effect_entries import EntryContext, entries_of
from amigos.web.tables.effect_writes import StepWrite, WriteContext, write_of
from amigos.web.tables.log_entries import CardGiven, LogEntry
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.web.tables.game import Game

log = logging.getLogger("amigos.tables")

Row = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Disagreement:
    """One job where the model's entries differ from the actor's: the table, the inputs the
    model was fed, and both lists of rows (kind, data) as they would be stored."""

    table_id: int
    inputs: tuple[str, ...]
    actor: tuple[Row, ...]
    model: tuple[Row, ...]
    refusals: tuple[str, ...] = ()
    # What the two tables hold that differs once their rows agree (`ModelMixin._state_differences`).
    state: tuple[str, ...] = ()

    def __str__(self) -> str:
        return (
            f"table {self.table_id}, inputs {list(self.inputs)}, refused {list(self.refusals)}:\n"
            f"  actor: {list(self.actor)}\n  model: {list(self.model)}\n  state: {list(self.state)}"
        )


#: Every disagreement found since the list was last cleared (the tests' fixture reads and clears it).
DISAGREEMENTS: list[Disagreement] = []


@dataclass
class ModelJob:
    """What one job fed the model and what the actor stored meanwhile."""

    steps: list[tuple[TableState, TableState, list[Effect]]] = field(default_factory=list)
    # The inputs fed, as they are (written out only in a disagreement: `repr` cost every play).
    inputs: list[TableInput] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    stored: list[LogEntry] = field(default_factory=list)
    writes: list[store.Write] = field(default_factory=list)
    cards: dict[int, dict[str, int]] | None = None
    # An input came after a deadline the actor's timer had not yet fired (`LATE`): the model may
    # have done more than the actor stored, and reads the table again.
    late: bool = False
    # A heartbeat was taken in the middle of the job, which the actor's decision may have read:
    # the job is not compared (with the check on, the model reads the table again).
    unsure: bool = False


class ModelMixin:
    """The model's state beside the actor's, for `TableActor` (which sets the attributes below)."""

    id: int
    clock: Clock
    timing: Timing
    game: Game
    seats: list[SeatState]
    cards: dict[int, dict[str, int]]
    next_table_id: int | None
    last_seen: dict[int, datetime]
    sockets: dict[int, set[object]]
    status: str
    away_since: dict[int, datetime]
    votes: dict[int, VoteChoice]

    if TYPE_CHECKING:
        # Defined by the actor's presence part.
        @property
        def paused(self) -> bool: ...

    def _model_open(self, loaded: store.Loaded, now: datetime) -> None:
        """Read the model's state back from what the actor was built from, its second 0 being
        ``now``."""
        self.model_origin = now
        self.model_state: TableState = restore.table_state(loaded, self.timing, now, now)
        self._model_job = ModelJob()
        # The rows of each stream (the actor's, the model's) not matched yet, for how many jobs,
        # and the last inputs fed (`_match`).
        self._model_waiting: tuple[list[Row], list[Row]] = ([], [])
        self._model_waited = 0
        self._model_inputs: list[TableInput] = []

    def _feed(self, given: TableInput, *, decided: bool = False) -> TableError | None:
        """The model takes ``given`` at the actor's now; its refusal is returned (and a refused
        play's sign of life kept, as the model's `TableError.heard` says a caller keeps it).

        ``decided``: the model's step is what the actor stores (`actor_decide`), so a deadline
        it carries out first is not late: it is stored with the input."""
        before = self.model_state
        job = self._model_job
        if job.cards is None and settings.AMIGOS_TABLE_MODEL_CHECK:
            # The ladder's counts before the job, for the check's rows (`_model_job_ended`).
            job.cards = {seat: dict(counts) for seat, counts in self.cards.items()}
        job.inputs.append(given)
        origin = self.model_origin
        now = (self.clock.now() - origin).total_seconds()
        # When each seat was last heard from is the actor's (see the module's docstring). Only a
        # seat heard since the model's last step is copied (a heartbeat taken at once): the model
        # keeps the rest, and a state left as it was keeps its next deadline found.
        seats: list[ModelSeat] | None = None
        for number, seat in enumerate(before.seats):
            heard = self.last_seen.get(number)
            if heard is None:
                continue
            seen = (heard - origin).total_seconds()
            if abs(seen - seat.last_seen) > SAME_MOMENT:
                seats = seats or list(before.seats)
                seats[number] = evolve(seat, last_seen=seen)
        if seats is not None:
            before = evolve(before, seats=tuple(seats))
        if not decided:
            due = next_deadline(before)
            if due is not None and due.at is not None and due.at < now - LATE:
                job.late = True
        try:
            after, effects = advance(before, given, now)
        except TableError as refusal:
            job.refusals.append(refusal.code)
            if refusal.heard is not None:
                after, effects = refusal.heard
                job.steps.append((before, after, effects))
                self.model_state = after
            return refusal
        job.steps.append((before, after, effects))
        self.model_state = after
        return None

    def entry_context(
        self, origin: datetime, cards: dict[int, dict[str, int]], match_number: int | None = None
    ) -> EntryContext:
        """What `entries_of` needs to know of this table that only the server knows, the model's
        second 0 being ``origin``, the ladder's counts before the step ``cards`` and the match's
        number ``match_number`` (by default the game's)."""
        return EntryContext(
            origin=origin,
            table_id=self.id,
            match_number=self.game.match_number if match_number is None else match_number,
            names=tuple(self.game.names),
            user_ids=tuple(seat.user_id for seat in self.seats),
            cards=cards,
            next_table_id=self.next_table_id,
            levels=tuple(seat.level for seat in self.seats),
        )

    def _model_stored(self, entries: list[LogEntry], write: store.Write) -> None:
        """The actor stored ``entries`` and ``write`` in the job under way (kept for the check)."""
        if settings.AMIGOS_TABLE_MODEL_CHECK:
            self._model_job.stored.extend(entries)
            self._model_job.writes.append(write)

    async def _model_job_ended(self) -> None:
        """Compare what the job stored with what the model's steps write; start the next job.

        A job that fed the model an input late (`LATE`) is not compared: the model read the table
        again from the database instead, as a restarted actor would."""
        job, self._model_job = self._model_job, ModelJob()
        if not (job.steps or job.stored):
            return
        check = settings.AMIGOS_TABLE_MODEL_CHECK
        if job.late or (job.unsure and check):
            await self._model_reread()
            return
        if not check:
            return
        cards: dict[int, dict[str, int]] = job.cards or {}
        written: list[Row] = []
        model_writes: list[StepWrite] = []
        now = self.clock.now()
        for before, after, effects in job.steps:
            context = self.entry_context(self.model_origin, cards)
            entries = entries_of(before, after, effects, context)
            for entry in entries:
                if isinstance(entry, CardGiven):
                    cards[entry.seat] = dict(entry.cards)
                written.append(log_codec.encode(entry))
            moment = WriteContext(self.model_origin, now, self.game.match_number, self.next_table_id)
            model_writes.append(write_of(before, after, entries, moment))
        stored = [log_codec.encode(entry) for entry in job.stored]
        self._match(job, stored, written)
        if not any(self._model_waiting):
            mine = _summary([(write, write.record is not None) for write in job.writes])
            theirs = _summary([(step.write, step.record) for step in model_writes])
            if mine["deadline"] is None:
                # The actor left the row's deadline as it was; the model writes it every step.
                theirs["deadline"] = None
            if not _alike(mine, theirs):
                found = Disagreement(
                    self.id,
                    tuple(map(repr, self._model_inputs)),
                    (),
                    (),
                    tuple(job.refusals),
                    (f"writes: actor {mine}, model {theirs}",),
                )
                DISAGREEMENTS.append(found)
                log.error("the pure table's writes differ from the actor's: %s", found)

    async def _model_reread(self) -> None:
        """The model reads the table back from the database, as a restarted actor would: after an
        input it took late, its state may be ahead of what the actor stored. What it was fed
        before is forgotten with it: the job is compared from here on."""
        self._model_job = ModelJob()
        loaded = await database_sync_to_async(store.load)(self.id)
        if loaded is not None:
            now = self.clock.now()
            state = restore.table_state(loaded, self.timing, now, self.model_origin)
            # Which seats have a page joined is this process's to know, not the log's.
            seats = tuple(
                replace(seat, page_open=bool(self.sockets.get(number)))
                for number, seat in enumerate(state.seats)
            )
            self.model_state = replace(state, seats=seats)
        self._model_waiting, self._model_waited = ([], []), 0

    def _match(self, job: ModelJob, stored: list[Row], written: list[Row]) -> None:
        """Match the two streams of rows. A deadline that fell due is carried out by the model at
        its next input, whatever it is (`advance` runs what fell due first), and by the actor when
        its timer's job runs: the same rows may come a job apart. So each stream's rows not yet
        matched wait (for a few jobs) for the other's; rows that differ where both have some are
        a disagreement at once."""
        actor = self._model_waiting[0] + stored
        model = self._model_waiting[1] + written
        same = 0
        while same < min(len(actor), len(model)) and _alike(actor[same], model[same]):
            same += 1
        actor, model = actor[same:], model[same:]
        self._model_inputs = [*self._model_inputs[-8:], *job.inputs]
        if (actor and model) or ((actor or model) and self._model_waited >= WAITING_JOBS):
            found = Disagreement(
                self.id, tuple(map(repr, self._model_inputs)), tuple(actor), tuple(model), tuple(job.refusals)
            )
            DISAGREEMENTS.append(found)
            log.error("the pure table disagrees with the actor: %s", found)
            actor, model = [], []
        self._model_waited = self._model_waited + 1 if actor or model else 0
        self._model_waiting = (actor, model)
        if actor or model:
            return
        differences = self._state_differences()
        if differences:
            found = Disagreement(
                self.id, tuple(map(repr, self._model_inputs)), (), (), tuple(job.refusals), tuple(differences)
            )
            DISAGREEMENTS.append(found)
            log.error("the pure table's state differs from the actor's: %s", found)

    def _state_differences(self) -> list[str]:
        """What the actor holds that the model beside it does not, once their rows agree: the
        phase, whether the match waits for someone, the hand in play and the match's score, and
        each seat's invitation (while the table is open), absence, computer holding and vote
        (during the vote). The next deadline is left out: the actor keeps one that no longer
        applies until its timer finds nothing to do (`Due.FORGET`), the model only the next that
        does."""
        state = self.model_state
        found: list[str] = []

        def differ(what: str, mine: object, theirs: object) -> None:
            if mine != theirs:
                found.append(f"{what}: actor {mine}, model {theirs}")

        phase = phase_of(self.status, self.game.in_hand)
        differ("phase", phase, state.phase)
        if state.phase is not Phase.CLOSED:
            differ("paused", self.paused, state.paused)
        if self.game.in_hand:
            differ("the hand in play", self.game.hand, None if state.hand is None else state.hand.state)
        match = self.game.match
        if match is not None and state.match is not None:
            differ("score", match.score, state.match.score)
        for number, (mine, theirs) in enumerate(zip(self.seats, state.seats, strict=True)):
            if phase is not Phase.CLOSED:
                # A closed table's open invitations: "expired" at the actor, left open by the model.
                invitation = restore.INVITATIONS.get(mine.invitation, Invitation.REFUSED)
                differ(f"seat {number} invitation", invitation, theirs.invitation)
            differ(f"seat {number} away", number in self.away_since, theirs.away_since is not None)
            differ(f"seat {number} held", mine.held_by_computer, theirs.held_by_computer)
            if phase is Phase.VOTING:
                differ(f"seat {number} vote", self.votes.get(number), theirs.vote)
        return found


#: How late (seconds) an input may come after a deadline the model has due, before the job is
#: judged late: not at all. The actor carries out a deadline when its timer fires, at that moment;
#: the model, at any input, each at the moment it fell due (`amigos.table.advance`: a late timer
#: gives the same table as a punctual one). The tests' fake clocks jump past deadlines without
#: firing them, and with a real clock every timer fires a little late and a command may come
#: between a deadline and its timer: such a job's rows cannot agree and are not compared. A
#: fake clock's timer fired on time (every deadline of the side-by-side matches) is compared.
LATE = 0.0


def _summary(writes: list[tuple[store.Write, bool]]) -> dict[str, Any]:
    """What a job's writes change in the table row, together (the last status and deadline, every
    card and seat, whether the record was written and the match ended), moments as the protocol
    writes them, for `_alike`."""
    found: dict[str, Any] = {
        "status": None,
        "match_started": False,
        "closed": False,
        "match_number": None,
        "deadline": None,
        "cards": [],
        "seats": [],
        "record": False,
        "record_ended": False,
        "termination": "",
        "next_table_id": None,
    }
    for write, record in writes:
        found["status"] = write.status or found["status"]
        found["match_started"] = found["match_started"] or write.started_at is not None
        found["closed"] = found["closed"] or write.ended_at is not None
        found["match_number"] = write.match_number or found["match_number"]
        if write.deadline is not None:
            at, kind = write.deadline
            found["deadline"] = [iso(at), kind]
        found["cards"] += write.cards
        found["seats"] += write.seats
        found["record"] = found["record"] or record
        found["record_ended"] = found["record_ended"] or write.record_ended
        found["termination"] = write.termination or found["termination"]
        found["next_table_id"] = write.next_table_id or found["next_table_id"]
    return found


#: How far apart two moments of the same row may be: the actor reads its clock again at several
#: points of a job, the model once per input, so with a real clock they differ by a few ms.
MOMENT_SLACK = timedelta(seconds=1)

_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def _alike(one: object, other: object) -> bool:
    """Whether two stored values are the same, moments within `MOMENT_SLACK` of each other."""
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(_alike(one[key], other[key]) for key in one)
    if isinstance(one, list | tuple) and isinstance(other, list | tuple):
        return len(one) == len(other) and all(_alike(a, b) for a, b in zip(one, other, strict=True))
    if isinstance(one, str) and isinstance(other, str) and one != other:
        if _MOMENT.fullmatch(one) and _MOMENT.fullmatch(other):
            first = datetime.fromisoformat(one.replace("Z", "+00:00"))
            second = datetime.fromisoformat(other.replace("Z", "+00:00"))
            return abs(first - second) <= MOMENT_SLACK
        return False
    return one == other


#: Two moments of the model this close (seconds) are one: the actor keeps its moments as
#: datetimes, to the microsecond.
SAME_MOMENT = 1e-6

#: How many jobs rows of one stream may wait for the other's (`ModelMixin._match`).
WAITING_JOBS = 6
