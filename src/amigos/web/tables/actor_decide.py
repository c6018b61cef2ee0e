"""The pure table decides: the part of the table actor that hands an input to `amigos.table.advance`
and carries out what it answers (issue 37, "one live table").

Why: a table's rules are to live in one place, the pure model, as lila's round actor runs
scalachess. The inputs this part takes are judged only by the model: a move (a person's or a
computer player's), a person's request for a new deal, the answers to the invitations and the
organizer's start and call-off, a choice after the match, a rebuilt table's restart, and the timer
when what fell due first is the turn's clock, the next deal or the vote's time. A step becomes the
stored rows (`effect_entries.entries_of`) and the table row's changes (`effect_writes.write_of`),
stored before anyone is told (`_commit`); the record is built by the actor's `Game`, which
follows the same rows (`Game.follow`); and what the actor's other parts still read (the status,
each seat's presence, computer holding and vote, the cards, the clock last shown) is set from the
model's new state (`_follow`). What the model asks of the server is done here too: a fresh key
for each deal it needs, and the next table a vote decided. Nothing here decides a rule.

The inputs not taken here yet (a page joining or closing, heartbeats and a seat's silence or
window, an invitation or the start button's window running out, a suspension found) are still
decided by the actor's own parts and fed to the model beside it (`actor_model`); the tests
compare both.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from amigos.engine import deal_from_key
from amigos.table import (
    DealNeeded,
    HandEnded,
    Moved,
    Phase,
    SystemPlay,
    VoteChoice,
    VoteResult,
    first_lead_draw,
    inputs,
    needs_first_leader,
)
from amigos.web.operations import metrics
from amigos.web.realtime.commands import CommandError
from amigos.web.tables import store
from amigos.web.tables.actor_model import SAME_MOMENT
from amigos.web.tables.actor_types import Pending
from amigos.web.tables.effect_entries import entries_of
from amigos.web.tables.effect_writes import StepWrite, WriteContext, merged, status_of, write_of
from amigos.web.tables.log_entries import CardGiven, MatchEnded, TurnClockShown

if TYPE_CHECKING:
    from amigos.table import Effect, TableError, TableState
    from amigos.table.inputs import TableInput
    from amigos.web.tables.actor_model import ModelJob
    from amigos.web.tables.actor_types import Clock, NextTables, SeatState
    from amigos.web.tables.effect_entries import EntryContext
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import LogEntry


log = logging.getLogger("amigos.tables")


class DecideMixin:
    """Inputs the model decides, for `TableActor` (which sets the attributes below)."""

    id: int
    clock: Clock
    game: Game
    seats: list[SeatState]
    status: str
    cards: dict[int, dict[str, int]]
    next_table_id: int | None
    last_seen: dict[int, datetime]
    away_since: dict[int, datetime]
    vote_left: dict[int, datetime]
    votes: dict[int, VoteChoice]
    clock_info: TurnClockShown | None
    deadline_at: datetime | None
    deadline_kind: str
    model_origin: datetime
    links: NextTables
    _model_job: ModelJob

    if TYPE_CHECKING:
        # Defined by the actor, its model part and its presence part.
        def _feed(self, given: TableInput, *, decided: bool = False) -> TableError | None: ...
        def entry_context(
            self, origin: datetime, cards: dict[int, dict[str, int]], match_number: int | None = None
        ) -> EntryContext: ...
        def _absent_seats(self) -> tuple[int, ...]: ...
        async def _commit(self, pending: Pending) -> None: ...
        def _new_key(self) -> str: ...
        def _seat_by_lot(self) -> int: ...
        async def _wake_next_table(self) -> None: ...

    async def _decided(self, given: TableInput) -> None:
        """The model takes ``given``; what its step did is stored and told. A deal it calls for
        (`DealNeeded`) is dealt at once with a fresh key, in the same write (a voided deal and
        the new one go out as one message), except after the step that ended a hand: the next
        hand's deal is then a write of its own, as the pause between hands makes it. A refusal is
        raised as the command's error, after storing what the refused input still did (a
        person's move is a sign of life whatever the rules say of it:
        `amigos.table.TableError.heard`)."""
        job = self._model_job
        index = len(job.steps)
        refusal = self._feed(given, decided=True)
        group = _Group()
        voted = False
        while index < len(job.steps):
            before, after, effects = job.steps[index]
            index += 1
            if any(type(effect) is VoteResult for effect in effects):
                voted = True
                effects = await self._next_table(effects)
            group.add(self._carried_out(before, after, effects), bool(effects))
            needed = next((effect for effect in effects if type(effect) is DealNeeded), None)
            if needed is not None and refusal is None:
                if any(type(effect) is HandEnded for effect in effects):
                    await self._store(group)
                    group = _Group()
                self._feed(self._deal_for(after, needed), decided=True)
        await self._store(group)
        if voted:
            await self._wake_next_table()
        if refusal is not None:
            raise CommandError(refusal.code, refusal.detail or refusal.code)

    async def _next_table(self, effects: list[Effect]) -> list[Effect]:
        """The vote decided a rematch or a rotation (`VoteResult`): the next table is created
        before the vote's close is stored, so its rows name it. Should that fail, everyone goes
        back to the meeting room instead, as a vote for it would send them."""
        result = next(effect for effect in effects if type(effect) is VoteResult)
        if result.choice is VoteChoice.LOBBY:
            return effects
        try:
            self.next_table_id = await self.links.make_next_table(
                self.id, result.choice.value, self.clock.now()
            )
        except Exception:
            log.exception("table %s: could not create the next table; back to the lobby", self.id)
            self.next_table_id = None
            lobby = replace(result, choice=VoteChoice.LOBBY)
            return [lobby if effect is result else effect for effect in effects]
        return effects

    async def _store(self, group: _Group) -> None:
        """Store and tell the steps gathered in ``group``, the record written again once, from
        the game after all of them, when one of them asked for it (`write_of`'s ``record``)."""
        write = group.write
        if write is None or not (group.effects or self._changes(write)):
            return
        if group.record:
            write.record = self.game.record(absent=self._absent_seats() if group.ended else ())
        await self._commit(Pending(entries=group.entries, write=write))

    def _changes(self, write: store.Write) -> bool:
        """Whether a step with no effects still changes the table's row (its deadline)."""
        return write.deadline is not None and write.deadline != (self.deadline_at, self.deadline_kind)

    def _deal_for(self, state: TableState, needed: DealNeeded) -> inputs.Deal:
        """The deal the model asked for, with a fresh key from the CSPRNG. Only a match's first
        deal (not one dealt again after a reshuffle) names its leader: drawn from the deal's
        set-aside tiles where the rules draw for it (Cuban), else a seat at random where the
        rules need one (`amigos.table.needs_first_leader`)."""
        variant = self.game.variant
        if needed.number != 1 or state.redeal:
            return inputs.Deal(self._new_key())
        if variant.draws_for_first_lead:
            key = self._new_key()
            drawn = first_lead_draw(variant, deal_from_key(key, variant))
            return inputs.Deal(key, None if drawn is None else drawn.leader)
        # The seat is drawn before the key, as the server always drew them.
        leader = self._seat_by_lot() if needs_first_leader(variant) else None
        return inputs.Deal(self._new_key(), leader)

    def _carried_out(self, before: TableState, after: TableState, effects: list[Effect]) -> StepWrite:
        """The rows and the row's changes of the model's step from ``before`` to ``after``, the
        actor's memory brought to ``after`` (the record is built once the job's steps are all
        carried out: `_store`)."""
        now = self.clock.now()
        # A step that deals a match's first hand starts it: its rows name the next match.
        number = self.game.match_number + (before.match is None and after.match is not None)
        context = self.entry_context(self.model_origin, self.cards, number)
        entries = entries_of(before, after, effects, context)
        moment = WriteContext(self.model_origin, now, number, self.next_table_id)
        step = write_of(before, after, entries, moment)
        for row in step.write.seats:
            seat = self.seats[row["number"]]
            seat.invitation, seat.invited_until = row["invitation"], row["invited_until"]
        # The step's last move is laid from the model's own hand (`Game.follow`) when the hand
        # in play after the step is the one it began with.
        final, was = after.hand, before.hand
        if final is not None and was is not None and (final.number, final.redeal) == (was.number, was.redeal):
            self.game.follow(entries, final.state, len(final.moves))
        else:
            self.game.replay(entries)
        self._follow(after, entries)
        for effect in effects:
            if type(effect) is Moved:
                metrics.count_play(False, "computer" if before.seats[effect.seat].plays_itself else None)
            elif type(effect) is SystemPlay:
                metrics.count_play(True, effect.reason.value)
        step.entries = entries
        return step

    def _follow(self, state: TableState, entries: list[LogEntry]) -> None:
        """What the actor's other parts read, set from the model's ``state`` after a step whose
        rows are ``entries``: the status, each seat's presence, holding and vote, the cards, and
        the turn's clock as last shown."""
        origin = self.model_origin
        self.status = status_of(state)
        for number, seat in enumerate(state.seats):
            self.seats[number].held_by_computer = seat.held_by_computer
            heard = self.last_seen.get(number)
            # Kept when the model's moment is the actor's (a datetime each time cost every play).
            if heard is None or abs((heard - origin).total_seconds() - seat.last_seen) > SAME_MOMENT:
                self.last_seen[number] = _at(origin, seat.last_seen)
            if seat.away_since is not None or number in self.away_since:
                _keep(
                    self.away_since, number, None if seat.away_since is None else _at(origin, seat.away_since)
                )
            absent = seat.vote_absent_since
            if absent is not None or number in self.vote_left:
                _keep(self.vote_left, number, None if absent is None else _at(origin, absent))
            _keep(self.votes, number, seat.vote)
        for entry in entries:
            if type(entry) is CardGiven:
                self.cards[entry.seat] = dict(entry.cards)
            elif type(entry) is TurnClockShown:
                self.clock_info = entry
        if state.clock is None or state.phase is not Phase.PLAYING or state.paused:
            self.clock_info = None


def _at(origin: datetime, seconds: float) -> datetime:
    """The model's moment ``seconds`` as the actor's clock reads it."""
    return origin + timedelta(seconds=seconds)


def _keep(memory: dict[int, Any], key: int, value: object) -> None:
    """``memory[key]`` is ``value``, or absent for None."""
    if value is None:
        memory.pop(key, None)
    else:
        memory[key] = value


class _Group:
    """Steps stored together in one write: their rows, their writes merged, whether one of
    them had effects, asked for the record to be written again, or ended the match."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.write: store.Write | None = None
        self.effects = False
        self.record = False
        self.ended = False

    def add(self, step: StepWrite, effects: bool) -> None:
        self.entries += step.entries
        self.write = step.write if self.write is None else merged(self.write, step.write)
        self.effects = self.effects or effects
        self.record = self.record or step.record
        self.ended = self.ended or any(type(entry) is MatchEnded for entry in step.entries)
