"""Who is at the table: the part of the table actor that follows each seat's presence.

A live match counts on its players being there (docs/rules.md, "Connection and absence"): the
sockets of each seat, its heartbeats, the window an absent player has to come back, what happens
when it lapses (a blue card and the end of the match at an Amigos table, a computer player holding
the seat elsewhere) and the clock that stops while the table waits and starts afresh on the return.
This is one job with its own state (`sockets`, `last_seen`, `away_since`, `vote_left`), so it is
kept apart from the actor's queue and commands; `TableActor` inherits it, and every method here
runs inside the actor, like the rest of its jobs.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async

from amigos.table import (
    Cancellation,
    CardReason,
    Conduct,
    DeadlineKind,
    Phase,
    SuspensionEnds,
    VoteChoice,
    inputs,
    next_presence,
    suspension_ending,
    tracks_absence,
    waits_for_absent,
)
from amigos.table.flow import Resume, resumption
from amigos.table.presence import (
    Heard,
    Lapse,
    Return,
    Sign,
    absent_seats,
    comeback,
    heard_from,
    leaves_vote,
    others_held,
    window,
    window_lapse,
)
from amigos.web.tables import store, suspensions
from amigos.web.tables.actor_types import HOLDING_LEVEL, SILENCE, TIMING, Pending, SeatState, later
from amigos.web.tables.log_entries import (
    ComputerHolds,
    Disconnected,
    Reconnected,
    SeatReturned,
    TableCancelled,
)
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.table import TableError
    from amigos.web.tables.actor_model import ModelJob
    from amigos.web.tables.actor_types import Clock
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import TurnClockShown


class PresenceMixin:
    """Presence at the table, for `TableActor` (which sets the attributes below)."""

    status: str
    conduct: Conduct
    seats: list[SeatState]
    game: Game
    clock: Clock
    clock_info: TurnClockShown | None
    deadline_at: datetime | None
    deadline_kind: str
    # The sockets seated at each seat (this process), when each seat was last heard from, since
    # when an absent seat is away, and, during the vote, since when a seat has had no page open.
    sockets: dict[int, set[object]]
    last_seen: dict[int, datetime]
    away_since: dict[int, datetime]
    vote_left: dict[int, datetime]
    _model_job: ModelJob

    if TYPE_CHECKING:
        # Defined by `TableActor` and its other parts.
        def _feed(self, given: inputs.TableInput, *, decided: bool = False) -> TableError | None: ...

        async def _commit(self, pending: Pending) -> None: ...
        async def _model_due_first(self) -> None: ...
        def seat_held_by(self, user_id: int) -> int | None: ...
        @property
        def phase(self) -> Phase: ...
        def _arm(self) -> None: ...
        def _set_clock(self, pending: Pending) -> None: ...
        def _give_card(self, pending: Pending, seat: int, colour: str, reason: CardReason) -> None: ...
        def _deal_next(self) -> Pending: ...
        def _end_for_suspension(self, offender: int) -> Pending: ...
        def _cancel(
            self, answered: list[SeatState], reason: str, ending: TableCancelled = ...
        ) -> Pending: ...
        def _vote_closed_by_suspension(self) -> Pending: ...
        def _open_invitees(self) -> list[int]: ...
        async def _tell_cancelled(self, invitees: list[int]) -> None: ...
        def _end_unfinished(
            self, termination: str, seat: int | None, pending: Pending | None = None
        ) -> Pending: ...
        async def _cast(self, seat: int, choice: VoteChoice, *, left: bool = False) -> None: ...

    @property
    def tracking(self) -> bool:
        """Whether absence counts now: the pure table's rule (`amigos.table.tracks_absence`)."""
        return tracks_absence(self.status == "playing", self.conduct)

    @property
    def paused(self) -> bool:
        """Whether the match waits for an absent player (no clock runs meanwhile): the pure table's
        rule (`amigos.table.waits_for_absent`)."""
        return waits_for_absent(
            self.status == "playing",
            self.conduct,
            (not self.seats[seat].held_by_computer for seat in self.away_since),
        )

    def _window(self) -> float:
        """How long an absent player has (`amigos.table.presence.window`)."""
        return window(self.conduct, TIMING)

    def _window_end(self, seat: int) -> datetime | None:
        since = self.away_since.get(seat)
        if since is None or self.seats[seat].held_by_computer or not self.tracking:
            return None
        return since + timedelta(seconds=self._window())

    def _next_presence(self) -> tuple[datetime, DeadlineKind, int] | None:
        """When a seat's silence or absence next matters, as (moment, kind, seat); None when nothing
        is pending: a seat unheard for 30 s is away (``HEARTBEAT``), an away seat's window lapses
        (``RECONNECT``, ``GRACE``: a blue card, or a computer player holds it), during the vote a
        seat whose page left has left (``VOTE_ABSENCE``). The pure table's rule, tie rule and all
        (`amigos.table.next_presence`: the earliest, then the lower seat), from the actor's own
        facts. The timer asks after every play (`TableActor._arm`), and the deadline's job when it
        fires (`_on_deadline`), which takes the earliest one at a time."""
        return next_presence(
            self.phase,
            self.conduct,
            TIMING,
            self.seats,
            self.last_seen,
            self.away_since,
            self.vote_left,
            later,
        )

    async def _suspended(self, seat: int) -> bool:
        user_id = self.seats[seat].user_id
        if user_id is None:
            return False
        return bool(await database_sync_to_async(suspensions.account_suspended)(user_id, self.clock.now()))

    def _ended_by_suspension(self, suspended: Collection[int]) -> Pending | None:
        """The accounts ``suspended`` (by this table's cards, or suspended from outside it: a desk
        decision, an administrator, told by moderation or found when the player's sockets go): what
        they end, as the pure table's rule (`suspension_ending`) decides: the match under way (for
        suspension, the seat its offender), a table still inviting (cancelled, reason
        ``suspension``, as the organizer's call cancels it) or the vote (closed for the meeting
        room, as a vote that is not unanimous closes); or None (nobody seated here, the table over)."""
        accounts = [seat.user_id for seat in self.seats]
        ending = suspension_ending(self.phase, accounts, suspended)
        if ending is None:
            return None
        self._feed(inputs.Suspend(next(seat.number for seat in self.seats if seat.user_id in suspended)))
        if ending.ends is SuspensionEnds.MATCH:
            return self._end_for_suspension(ending.seat)
        if ending.ends is SuspensionEnds.TABLE:
            return self._cancel([], "expired", TableCancelled(Cancellation.SUSPENSION.value))
        return self._vote_closed_by_suspension()

    async def _found_suspended(self, seat: int) -> Pending | None:
        """Whether the seat's player, whose sockets just went (or who went silent, or whose
        suspension moderation told: `suspension_imposed`), was suspended from outside the table,
        whose session watchdog closes the sockets: then what it ends ends at once
        (`_ended_by_suspension`)."""
        user_id = self.seats[seat].user_id
        if user_id is None or not await self._suspended(seat):
            return None
        return self._ended_by_suspension({user_id})

    async def suspension_imposed(self, user_id: int) -> None:
        """Moderation suspended ``user_id`` away from the table (`suspension_news`; inside the
        actor): if the player holds a seat here and the account is suspended now, asked of the
        database rather than taken from the news, what the pure rule `suspension_ending` says ends
        ends at once (`_found_suspended`): the match being played, as when their sockets close (at
        a correspondence table too, where no socket closing or silence would ever tell it); a
        table still inviting, cancelled, its other invitees told as when the organizer cancels it;
        or the vote, closed for the meeting room. A seat held or only invited to counts (an
        invitation not yet answered too: the pure table's seats are its accounts)."""
        seat = self.seat_held_by(user_id)
        if seat is None:
            return
        # Only a table still inviting has open invitations, and a suspension cancels it.
        invited = [invitee for invitee in self._open_invitees() if invitee != user_id]
        ended = await self._found_suspended(seat)
        if ended is None:
            return
        await self._commit(ended)
        await self._tell_cancelled(invited)

    def _unheard_at(self, seat: int, at: datetime) -> bool:
        """Whether the seat's silence has lasted its whole allowance by ``at``."""
        seen = self.last_seen.get(seat)
        return seen is None or seen + SILENCE <= at

    async def _gone(self, seat: int, at: datetime) -> Pending:
        """The seat is absent from ``at``: away, with its window, unless the player's account was
        suspended from outside the table (a desk decision, an administrator), whose sockets the
        session watchdog just closed: then the match ends for suspension at once."""
        ended = await self._found_suspended(seat)
        if ended is not None:
            return ended
        self._feed(inputs.Disconnected(seat))
        return self._away(seat, at)

    async def _presence_lapsed(self, kind: DeadlineKind, seat: int, at: datetime) -> None:
        if kind is DeadlineKind.VOTE_ABSENCE:
            # No page of the seat came back during the vote: the player left, which is a choice
            # for the meeting room (as leaving is in `amigos.table`), and the vote closes at once.
            self.vote_left.pop(seat, None)
            if self.status == "voting":
                await self._cast(seat, VoteChoice.LOBBY, left=True)
            return
        ended = await self._found_suspended(seat)
        if ended is not None:
            await self._commit(ended)
        elif kind is DeadlineKind.HEARTBEAT:
            if self._unheard_at(seat, at):
                # Still unheard: a heartbeat taken while the suspension was looked up (taken at
                # once, `heard_at_once`) means the player is there after all.
                await self._commit(self._away(seat, at))
        else:
            await self._window_lapsed(seat)

    async def _window_lapsed(self, seat: int) -> None:
        """The seat's window ran out: what the pure table's rule (`window_lapse`) decides, stored
        and told."""
        held = [state.held_by_computer for state in self.seats]
        computer = [state.user_id is None for state in self.seats]  # nobody's seat to hold
        lapse = window_lapse(self.conduct, others_held(held, computer, seat))
        if lapse is Lapse.BLUE_CARD:
            pending = Pending(write=store.Write(at=self.clock.now()))
            self._give_card(pending, seat, "blue", CardReason.NO_RETURN)
            await self._commit(self._end_unfinished("abandonment", seat, pending))
        elif lapse is Lapse.ABANDONED:
            await self._commit(self._end_unfinished("abandonment", seat))
        else:
            # Two minutes away at a timed table: a computer player holds the seat until the return.
            self.seats[seat].held_by_computer = True
            pending = Pending(
                entries=[ComputerHolds(seat, HOLDING_LEVEL)],
                write=store.Write(at=self.clock.now()),
            )
            self._resume_clock(pending)
            await self._commit(pending)

    def _absent_seats(self) -> tuple[int, ...]:
        """The people's seats away now, as the pure rule `absent_seats` says: written in the record
        as the match ends (docs/record-format.md, ``absent``)."""
        return absent_seats(
            (state.user_id is not None, state.number in self.away_since, state.held_by_computer)
            for state in self.seats
        )

    def _away(self, seat: int, at: datetime) -> Pending:
        """The seat is found absent from ``at``. A player who goes while the table already waits
        for someone else is marked "Abandono" (``abandon``) and has their own window."""
        waiting = self.paused
        self.away_since[seat] = at
        pending = Pending(
            entries=[Disconnected(seat, iso(at), iso(at + timedelta(seconds=self._window())), waiting)],
            write=store.Write(at=self.clock.now()),
        )
        if self.paused and self.clock_info is not None:
            # The game waits: the clock of the seat in turn stops; it starts afresh on the return.
            self.clock_info = None
            assert pending.write is not None
            pending.write.deadline = (None, "")
        return pending

    def _resume_clock(self, pending: Pending) -> None:
        """Nothing keeps the table waiting any more: what the pure rule `resumption` says, a fresh
        clock for the seat in turn or the next hand dealt if the table stopped between hands."""
        resume = resumption(
            in_match=self.status == "playing",
            paused=self.paused,
            in_hand=self.game.in_hand,
            clock_running=self.clock_info is not None,
            # The pause between hands is over when its stored deadline was spent while waiting.
            deal_due=self.deadline_kind != "deal" or self.deadline_at is None,
        )
        if resume is Resume.CLOCK:
            self._set_clock(pending)
        elif resume is Resume.DEAL:
            dealt = self._deal_next()
            pending.entries += dealt.entries
            assert pending.write is not None and dealt.write is not None
            pending.write.record = dealt.write.record
            pending.write.deadline = dealt.write.deadline

    def _heard(self, seat: int, sign: Sign) -> Heard:
        """What hearing ``sign`` from ``seat`` means, as the pure table's rule
        (`amigos.table.presence.heard_from`) says, from where the seat stands here."""
        state = self.seats[seat]
        return heard_from(
            sign,
            computer=state.is_computer,
            away=seat in self.away_since,
            held=state.held_by_computer,
            page_open=bool(self.sockets.get(seat)),
        )

    def _present(self, seat: int, sign: Sign = Sign.HEARTBEAT) -> Pending | None:
        """The seat's player was heard from (``sign``): what the pure table's rule
        (`amigos.table.presence.heard_from`) decides. An absent player who is back gets the seat
        back from a computer player at once; a waiting table goes on with fresh time. None:
        nothing to store."""
        heard = self._heard(seat, sign)
        if heard is Heard.NOBODY:
            return None
        self.last_seen[seat] = self.clock.now()
        if heard is Heard.PRESENT:
            return None
        self.away_since.pop(seat)
        pending = Pending(entries=[Reconnected(seat)], write=store.Write(at=self.clock.now()))
        state = self.seats[seat]
        held, state.held_by_computer = state.held_by_computer, False
        # What the return does is the pure table's rule (`amigos.table.presence.comeback`).
        back = comeback(self.tracking, held, self.game.to_move == seat, self.paused)
        if back is Return.RESUME:
            self._resume_clock(pending)
        elif back is not Return.BACK:
            pending.entries.append(SeatReturned(seat))
            if back is Return.MOVE:
                self._set_clock(pending)  # the player takes the move back, with a fresh clock
        return pending

    async def played_by(self, seat: int) -> None:
        """The seat's player moved or asked for a new deal (inside the actor): the surest sign of
        life, counted before the command is judged (`heard_from`, `Sign.PLAY`): the silence counts
        from here, and a seat judged away for silence while its page is still joined (late
        heartbeats) is back before its play is judged. A seat whose pages all closed stays away.
        Kept when the command is then refused (`command_heard`: the page is there all the same)."""
        back = self._present(seat, Sign.PLAY)
        if back is not None:
            await self._commit(back)

    async def attach(self, key: object, seat: int) -> None:
        """A socket of the seat's player joined the table (inside the actor): it ends an absence
        from the vote, and the seat is heard from."""
        self.sockets.setdefault(seat, set()).add(key)
        await self._model_due_first()
        self._feed(inputs.Reconnected(seat))
        self.vote_left.pop(seat, None)
        await self.heard(seat, Sign.JOINED)

    def heard_at_once(self, seat: int) -> bool:
        """A heartbeat from the seat's player, taken without a job when that is all it is: a
        present player's silence simply counts from now. False when it is more (the player was
        away and is back, which is stored and told): then it goes through `heard` in the actor.

        Why: every seated page beats every 20 s, and pages that opened together (all of them,
        after a restart) beat together. A job each, with its task, its place in the queue and the
        timer set again, was work enough that a thousand tables' beats arriving within a few
        seconds doubled the server's load and its plays' delays (bench/load.py). The timer is not
        set again: the silence deadline only moves later, so a timer set for the earlier one fires,
        finds nothing due and is set for what is (`_on_deadline`)."""
        heard = self._heard(seat, Sign.HEARTBEAT)
        if heard is Heard.BACK:
            return False
        # Taken in the middle of a job (awaiting its storing or a look-up), it may change what
        # the job goes on to decide, which the pure table beside the actor cannot know.
        if self._model_job.inputs:
            self._model_job.unsure = True
        if heard is Heard.PRESENT:
            self.last_seen[seat] = self.clock.now()
        return True

    async def heard(self, seat: int, sign: Sign = Sign.HEARTBEAT) -> None:
        """A heartbeat (or a join) from the seat's player (inside the actor)."""
        if self.seats[seat].is_computer:
            return
        await self._model_due_first()
        if sign is Sign.HEARTBEAT and self._heard(seat, sign) is Heard.BACK:
            self._feed(inputs.Heartbeat(seat))
        pending = self._present(seat, sign)
        if pending is not None:
            await self._commit(pending)
        else:
            self._arm()

    async def detach(self, key: object, seat: int) -> None:
        """A socket of the seat's player closed or left the table (inside the actor): with no socket
        left the seat is away at once (during the vote, its absence from the vote starts)."""
        keys = self.sockets.get(seat)
        if keys is None or key not in keys:
            return
        keys.discard(key)
        if keys:
            return
        await self._model_due_first()
        computer = self.seats[seat].is_computer
        voting = leaves_vote(self.status == "voting", computer, pages_left=False)
        if not voting and self.tracking and seat not in self.away_since and not computer:
            # Away: the actor first asks whether the player was suspended (`_gone`), which the
            # model beside it is told instead (`Suspend`), else that the pages closed.
            await self._commit(await self._gone(seat, self.clock.now()))
            return
        self._feed(inputs.Disconnected(seat))
        if voting:
            # Its last page closed during the vote: unless one comes back soon (a reload), it left.
            self.vote_left[seat] = self.clock.now()
            self._arm()
