"""The turn clock: the part of the table actor that times each turn and gives its cards.

Each turn of a live match runs on a clock (`timing.turn_clock`, docs/rules.md): a yellow card when
the time runs out and every few seconds after, the system's move for a single tile or a turn that
ran out, and no clock at all while the table waits for an absent player. The actor's deadline
dispatch (`TableActor._table_deadline`) decides when; this part decides what a turn's clock is and
what its running out does. `TableActor` inherits it, and every method here runs inside the actor.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from amigos.web.tables import store, timing
from amigos.web.tables.actor_types import Pending, SeatState
from amigos.web.tables.game import legal_plays
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.engine import Action
    from amigos.table import Conduct
    from amigos.web.tables.actor_types import Clock
    from amigos.web.tables.game import Game


class TurnClockMixin:
    """The turn clock and its cards, for `TableActor` (which sets the attributes below)."""

    seats: list[SeatState]
    game: Game
    clock: Clock
    conduct: Conduct
    deadline_at: datetime | None
    cards: dict[int, dict[str, int]]
    # The clock shown for the turn under way (None when no clock runs), the turn's clock, when it
    # started and how many cards it gave.
    clock_info: dict[str, Any] | None
    turn: timing.TurnClock | None
    turn_started: datetime | None
    turn_cards: int

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.

        @property
        def paused(self) -> bool: ...
        def _act(self, seat: int, action: Action, *, system: bool, reason: str | None = None) -> Pending: ...

    def _set_clock(self, pending: Pending) -> None:
        """Start the turn clock of the seat in turn (its legal plays go to that seat only).

        While the table waits for an absent player no clock runs (docs/rules.md, "Connection and
        absence"): the clock starts afresh when the player is back."""
        assert pending.write is not None
        write = pending.write
        now = self.clock.now()
        seat = self.game.to_move
        assert seat is not None and self.game.hand is not None
        if self.paused:
            self.clock_info = None
            self.turn = self.turn_started = None
            write.deadline = (None, "")
            return
        state = self.seats[seat]
        computer = state.is_computer or state.held_by_computer
        clock = timing.turn_clock(self.game.hand, self.conduct, computer)
        self.turn, self.turn_started, self.turn_cards = clock, now, 0
        data = {
            "seat": seat,
            "deadline": iso(now + timedelta(seconds=clock.seconds)),
            "seconds": clock.seconds,
            "situation": clock.situation,
            "legal": legal_plays(self.game.hand, seat),
        }
        pending.events.append(("clock", data))
        self.clock_info = data
        if clock.card_after is not None:
            write.deadline = (now + timedelta(seconds=clock.card_after), "card")
        elif clock.system_after is not None:
            write.deadline = (now + timedelta(seconds=clock.system_after), "system_play")
        else:
            assert clock.abandon_after is not None
            write.deadline = (now + timedelta(seconds=clock.abandon_after), "abandon")

    def _clock_card(self, seat: int, now: datetime) -> Pending:
        """The turn's time ran out (or 5 s more passed): a yellow card; the player is told there
        was no blocking situation when a 20-second clock runs out the first time."""
        pending = Pending(write=store.Write(events=[], at=now))
        assert pending.write is not None
        clock = self.turn
        first = self.turn_cards == 0
        if clock is not None and clock.situation == "normal" and first:
            pending.events.append(("notice", {"code": "no_blocking", "seat": seat}))
        single = clock is not None and clock.single
        reason = "slow_single" if single else "timeout" if first else "every_5s"
        self._give_card(pending, seat, "yellow", reason)
        self.turn_cards += 1
        started = self.turn_started or now
        if clock is not None and clock.single and clock.system_after is not None:
            pending.write.deadline = (started + timedelta(seconds=clock.system_after), "system_play")
        else:
            every = clock.card_every if clock is not None else timing.TIMING.card_every
            base = self.deadline_at if self.deadline_at is not None else now
            pending.write.deadline = (base + timedelta(seconds=every), "card")
        return pending

    def _system_play(self, seat: int) -> Pending:
        """The system moves for the seat: its single tile at 6 s, the default move when a timed
        turn ran out, or for a computer player that did not answer in time."""
        hand = self.game.hand
        assert hand is not None
        clock = self.turn
        situation = clock.situation if clock is not None else "timed"
        reason = {"single": "single_tile", "computer": "computer_late"}.get(situation, "timeout")
        return self._act(seat, hand.default_action(), system=True, reason=reason)

    def _give_card(self, pending: Pending, seat: int, colour: str, reason: str) -> None:
        state = self.seats[seat]
        if state.user_id is None:
            return  # computer players get no cards
        counts = self.cards.setdefault(seat, {"yellow": 0, "blue": 0, "red": 0})
        counts[colour] += 1
        hand = self.game.current()
        data: dict[str, object] = {
            "seat": seat,
            "user_id": state.user_id,
            "colour": colour,
            "reason": reason,
            "cards": dict(counts),
        }
        # A table with computer players is practice: its cards are shown (the table's rules hold)
        # but never reach the account's ladder, so exploring the site cannot get anyone suspended.
        practice = any(other.is_computer for other in self.seats)
        if practice:
            data["practice"] = True
        pending.events.append(("card", data))
        if practice:
            return
        assert pending.write is not None
        pending.write.cards.append(
            {
                "user_id": state.user_id,
                "match": self.game.match_number,
                "hand": None if hand is None else hand.number,
                "colour": colour,
                "reason": reason,
            }
        )
