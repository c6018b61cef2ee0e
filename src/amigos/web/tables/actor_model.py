"""The pure table the actor runs: its one `amigos.table.TableState`, read back from the database
when the actor is built and changed only by `amigos.table.advance` (issue 37, "one live table").

Why: a table's rules live in one place, the pure model, as lila's round actor runs scalachess.
This part holds the model's state and feeds it; `actor_decide` stores and tells what each step
decided. The model counts seconds from ``model_origin``, the moment the actor was built.

One fact reaches the model outside its steps: a heartbeat from a present player is taken at once,
outside any job (`PresenceMixin.heard_at_once`), and kept in ``heard_at`` until the model's next
step or the timer asks for the state (`_with_heartbeats`), which then counts each such seat heard
from at that moment. No step runs outside the actor's queue: the heartbeat only moves a seat's
last sign of life, which is what a step would do with it first, and the state is replaced at once,
between two awaits, so a job under way carries on from it. The timer reads the model's next
deadline with those heartbeats counted, so a silence is never judged on a moment already
superseded.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from amigos.engine.evolve import evolve
from amigos.table import Deadline, Effect, TableError, TableState, Timing, advance, next_deadline
from amigos.table.inputs import TableInput
from amigos.web.tables import restore, store
from amigos.web.tables.actor_types import Clock, SeatState
from amigos.web.tables.effect_entries import EntryContext

if TYPE_CHECKING:
    from amigos.web.tables.game import Game

#: One step of the model: the state before, the state after, and the effects it gave.
Step = tuple[TableState, TableState, list[Effect]]


class ModelMixin:
    """The model's state, for `TableActor` (which sets the attributes below)."""

    id: int
    clock: Clock
    timing: Timing
    game: Game
    seats: list[SeatState]
    next_table_id: int | None
    cards: dict[int, dict[str, int]]
    heard_at: dict[int, float]

    def _model_open(self, loaded: store.Loaded, now: datetime) -> None:
        """Read the model's state back from what the actor was built from, its second 0 being
        ``now``."""
        self.model_origin = now
        self.model_state: TableState = restore.table_state(loaded, self.timing, now, now)
        self._entry_context: EntryContext | None = None

    def _feed(self, given: TableInput, steps: list[Step], at: float | None = None) -> TableError | None:
        """The model takes ``given`` at ``at``, in its own seconds (by default the actor's now);
        its step (the state before, after, and the effects) is added to ``steps`` and its refusal
        returned (a refused play's sign of life kept, as the model's `TableError.heard` says a
        caller keeps it). The heartbeats taken at once since the model's last step are handed on
        first (`_with_heartbeats`).

        Why seconds, not a datetime: the timer hands over the very deadline the model named, and
        a datetime holds whole microseconds only. A deadline between two microseconds came back a
        hair early, the model found nothing due, and the timer fed it again at once, never
        letting the event loop run (a host silent for 30 s in the chaos run)."""
        before = self._with_heartbeats()
        now = (self.clock.now() - self.model_origin).total_seconds() if at is None else at
        try:
            after, effects = advance(before, given, now)
        except TableError as refusal:
            if refusal.heard is not None:
                after, effects = refusal.heard
                steps.append((before, after, effects))
                self.model_state = after
            return refusal
        steps.append((before, after, effects))
        self.model_state = after
        return None

    def _moment(self, seconds: float) -> datetime:
        """The pure table's moment ``seconds`` on the actor's clock."""
        return self.model_origin + timedelta(seconds=seconds)

    def _with_heartbeats(self) -> TableState:
        """The model's state with the heartbeats taken at once since its last step (`heard_at`,
        the actor's: see the module's docstring): each such seat heard from at that moment.

        Once asked, that state is the actor's model state, and the heartbeats are forgotten: the
        timer asks after every play, and a state made afresh each time found its deadlines
        afresh too (a state keeps them once found: `amigos.table.next_deadline`)."""
        state = self.model_state
        heard = self.heard_at
        if not heard:
            return state
        seats = list(state.seats)
        for number, seen in heard.items():
            seat = seats[number]
            if seen > seat.last_seen + SAME_MOMENT:
                seats[number] = evolve(seat, last_seen=seen)
        heard.clear()
        state = self.model_state = evolve(state, seats=tuple(seats))
        return state

    def _model_due(self) -> Deadline | None:
        """The pure table's next deadline, the heartbeats taken at once counted (the timer's)."""
        return next_deadline(self._with_heartbeats())

    def entry_context(self, match_number: int) -> EntryContext:
        """What `entries_of` needs to know of this table that only the server knows: the model's
        origin, the table, the match's number ``match_number``, its seats' names, accounts and
        computer levels, the ladder's counts before the step (the actor's own ``cards``, which it
        updates after each step) and the table a vote created. Kept while the match's number and
        the next table stay the same: a seat's name, account and level do not change at a table."""
        known = self._entry_context
        if known is not None and (known.match_number, known.next_table_id) == (
            match_number,
            self.next_table_id,
        ):
            return known
        self._entry_context = EntryContext(
            origin=self.model_origin,
            table_id=self.id,
            match_number=match_number,
            names=tuple(self.game.names),
            user_ids=tuple(seat.user_id for seat in self.seats),
            cards=self.cards,
            next_table_id=self.next_table_id,
            levels=tuple(seat.level for seat in self.seats),
        )
        return self._entry_context


#: Two moments of the model this close (seconds) are one: the actor's clock is read to the
#: microsecond.
SAME_MOMENT = 1e-6
