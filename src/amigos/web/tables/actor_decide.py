"""The pure table decides: the part of the table actor that hands an input to `amigos.table.advance`
and carries out what it answers (issue 37, "one live table").

Why: a table's rules live in one place, the pure model, as lila's round actor runs scalachess.
Every input of a live table is judged only by the model: a move (a person's or a computer
player's), a request for a new deal, the answers to the invitations and the organizer's start and
call-off, a choice after the match, a page joining or closing, a heartbeat that brings a player
back, a command refused for its version (`CommandHeard`), a suspension, a rebuilt table's restart,
and the timer (one `Tick` per deadline due, at the moment it fell due). A step becomes the
stored rows (`effect_entries.entries_of`) and the table row's changes (`effect_writes.write_of`),
stored before anyone is told (`_commit`); the record is built by the actor's `Game`, which
follows the same rows (`Game.follow`); and what the actor's other parts read (the status, each
seat's computer holding and vote, the cards, the clock last shown) is set from the model's new
state (`_follow`). What the model asks of the server is done here too: a fresh key for each deal
it needs, the next table a vote decided, and the seat of an account the step's cards suspended.
Nothing here decides a rule.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
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
from amigos.web.tables.actor_types import Pending
from amigos.web.tables.effect_entries import entries_of
from amigos.web.tables.effect_writes import StepWrite, WriteContext, merged, status_of, write_of
from amigos.web.tables.log_entries import CardGiven, MatchEnded, TurnClockShown

if TYPE_CHECKING:
    from amigos.table import Effect, TableError, TableState
    from amigos.table.inputs import TableInput
    from amigos.web.tables.actor_model import Step
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
    votes: dict[int, VoteChoice]
    clock_info: TurnClockShown | None
    deadline_at: datetime | None
    deadline_kind: str
    model_origin: datetime
    links: NextTables
    broken: bool

    if TYPE_CHECKING:
        # Defined by the actor, its model part and its presence part.
        def _feed(
            self, given: TableInput, steps: list[Step], at: float | None = None
        ) -> TableError | None: ...
        def entry_context(self, match_number: int) -> EntryContext: ...
        def _absent_seats(self) -> tuple[int, ...]: ...
        async def _commit(self, pending: Pending) -> None: ...
        def _rebuild_later(self) -> None: ...
        def _new_key(self) -> str: ...
        def _seat_by_lot(self) -> int: ...
        async def _wake_next_table(self) -> None: ...

    async def _decided(
        self, given: TableInput, *, at: float | None = None, quiet: bool = False
    ) -> list[LogEntry]:
        """The model takes ``given`` (at ``at`` in its own seconds, by default now: `_feed`); what
        its step did is stored and told, and returned. A deal it calls for (`DealNeeded`) is
        dealt at once with a fresh key, in the same write (a voided deal and the new one go out
        as one message), except after the
        step that ended a hand: the next hand's deal is then a write of its own, as the pause
        between hands makes it. An account the step's cards suspended (the card ladder, found as
        they are stored) is then given to the model (`Suspend`), which ends what that ends. A
        refusal is raised as the command's error (returned quietly with ``quiet``: an input
        from the server itself, a page joining, say), after storing what the refused input still
        did (a person's move is a sign of life whatever the rules say of it:
        `amigos.table.TableError.heard`)."""
        steps: list[Step] = []
        refusal = self._feed(given, steps, at)
        try:
            stored, voted = await self._carry_out_steps(steps)
        except CommandError:
            raise  # a write refused: `_commit` marked the actor broken already
        except Exception:
            # The model took the steps, but their rows were not all stored: the actor's memory is
            # ahead of the log. It stops serving and is rebuilt from the log, which has every
            # step it told; what it did not store was never told to anyone.
            self.broken = True
            log.exception("table %s: could not carry out a step; it will be rebuilt", self.id)
            self._rebuild_later()
            raise CommandError("busy", "the table is being reloaded; try again") from None
        if voted:
            await self._wake_next_table()
        if refusal is not None and not quiet:
            raise CommandError(refusal.code, refusal.detail or refusal.code)
        return stored

    async def _carry_out_steps(self, steps: list[Step]) -> tuple[list[LogEntry], bool]:
        """Store and tell ``steps`` (the model's, growing as deals and suspensions are fed in),
        in writes as `_decided` says; the entries stored, and whether a vote was decided."""
        index = 0
        stored: list[LogEntry] = []
        voted = False
        while True:
            group = _Group()
            # The accounts the cards stored by this round's writes suspended.
            accounts: list[int] = []
            while index < len(steps):
                before, after, effects = steps[index]
                index += 1
                if any(type(effect) is VoteResult for effect in effects):
                    voted = True
                    effects = await self._next_table(effects)
                group.add(self._carried_out(before, after, effects), bool(effects))
                needed = next((effect for effect in effects if type(effect) is DealNeeded), None)
                if needed is not None:
                    if any(type(effect) is HandEnded for effect in effects):
                        stored += await self._store(group)
                        accounts += group.suspended
                        group = _Group()
                    self._feed(self._deal_for(after, needed), steps)
            stored += await self._store(group)
            seat = self._suspended_seat([*accounts, *group.suspended])
            if seat is None:
                break
            self._feed(inputs.Suspend(seat), steps)
        return stored, voted

    def _suspended_seat(self, accounts: list[int]) -> int | None:
        """The seat of the first of ``accounts`` (suspended by cards just stored) seated here
        (None: none)."""
        if not accounts:
            return None
        return next((seat.number for seat in self.seats if seat.user_id in accounts), None)

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

    async def _store(self, group: _Group) -> list[LogEntry]:
        """Store and tell the steps gathered in ``group``, the record written again once, from
        the game after all of them, when one of them asked for it (`write_of`'s ``record``); the
        entries stored are returned (none when the steps changed nothing)."""
        write = group.write
        if write is None or not (group.effects or self._changes(write)):
            return []
        if group.record:
            write.record = self.game.record(absent=self._absent_seats() if group.ended else ())
        await self._commit(Pending(entries=group.entries, write=write))
        return group.entries

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
        context = self.entry_context(number)
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
            made = [stamp.action for stamp in final.moves[len(was.moves) :]]
            self.game.follow(entries, final.state, len(final.moves), made)
        else:
            self.game.replay(entries, None if final is None else final.dealt)
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
        rows are ``entries``: the status, each seat's computer holding and vote, the cards, and
        the turn's clock as last shown. (Presence is read from the model's state itself:
        `PresenceMixin`.)"""
        self.status = status_of(state)
        votes = self.votes
        for number, seat in enumerate(state.seats):
            self.seats[number].held_by_computer = seat.held_by_computer
            if seat.vote is not None or number in votes:
                _keep(votes, number, seat.vote)
        for entry in entries:
            if type(entry) is CardGiven:
                self.cards[entry.seat] = dict(entry.cards)
            elif type(entry) is TurnClockShown:
                self.clock_info = entry
        if state.clock is None or state.phase is not Phase.PLAYING or state.paused:
            self.clock_info = None


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

    @property
    def suspended(self) -> list[int]:
        """The accounts the cards of the write, once stored, suspended (`store.Write.suspended`)."""
        return [] if self.write is None else self.write.suspended

    def add(self, step: StepWrite, effects: bool) -> None:
        self.entries += step.entries
        self.write = step.write if self.write is None else merged(self.write, step.write)
        self.effects = self.effects or effects
        self.record = self.record or step.record
        self.ended = self.ended or any(type(entry) is MatchEnded for entry in step.entries)
