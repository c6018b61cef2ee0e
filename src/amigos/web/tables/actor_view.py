"""What a seat or a spectator sees of a table: the part of the table actor that describes it.

A seat's description (`seat_dict`) goes out in events and in the snapshot; the snapshot is what a
page joining the table draws from. Both only read the actor's state, so they are kept apart from
the code that changes it; `TableActor` inherits them.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from amigos.table import Phase, TableState, may_reshuffle
from amigos.web.tables import rendering
from amigos.web.tables.actor_types import SeatState
from amigos.web.tables.actor_votes import VOTE_WORDS
from amigos.web.tables.entry_writing import seat_json
from amigos.web.tables.rendering import iso

if TYPE_CHECKING:
    from amigos.engine import Variant
    from amigos.table import VoteChoice
    from amigos.web.tables.actor_types import Clock
    from amigos.web.tables.game import Game
    from amigos.web.tables.log_entries import TurnClockShown


class SeatViewMixin:
    """The table as its audiences see it, for `TableActor` (which sets the attributes below)."""

    id: int
    version: int
    name: str
    variant: Variant
    target: int | None
    kind: str
    organizer_id: int
    status: str
    seats: list[SeatState]
    game: Game
    clock: Clock
    clock_info: TurnClockShown | None
    deadline_at: datetime | None
    cards: dict[int, dict[str, int]]
    chat: list[dict[str, Any]]
    votes: dict[int, VoteChoice]
    model_state: TableState

    if TYPE_CHECKING:
        # Defined by `TableActor` and its presence part.

        @property
        def organizer_seat(self) -> int: ...
        def _window_end(self, seat: int) -> datetime | None: ...
        @property
        def away_since(self) -> dict[int, datetime]: ...

    def seat_dict(self, seat: SeatState) -> dict[str, Any]:
        return seat_json(
            seat.number,
            self.variant,
            self.organizer_seat,
            user_id=seat.user_id,
            name=seat.label(self.variant.players),
            level=seat.level,
            away=seat.number in self.away_since,
            held_by_computer=seat.held_by_computer,
            invitation=seat.invitation,
            reconnect_deadline=iso(self._window_end(seat.number)),
            cards=self.cards.get(seat.number),
        )

    def _reshuffle_open(self, seat: int) -> bool:
        """Whether ``seat`` may still ask for a new deal of the hand in play, as the pure table holds
        it (`amigos.table.may_reshuffle`: offered, and nobody has moved yet)."""
        state = self.model_state
        hand = state.hand
        if hand is None or state.phase is not Phase.PLAYING:
            return False
        return may_reshuffle(hand.reshuffle, seat, len(hand.moves))

    def snapshot(self, audience: int | None) -> dict[str, Any]:
        now = self.clock.now()
        hand = self.game.current()
        turn = None
        if self.clock_info is not None and self.game.in_hand:
            info = self.clock_info
            shown = {
                "seat": info.seat,
                "deadline": info.deadline,
                "seconds": info.seconds,
                "situation": info.situation,
                "legal": info.legal,
            }
            turn = rendering.turn_for(shown, audience)
        votes = None
        if self.status == "voting":
            votes = {
                "deadline": iso(self.deadline_at),
                "choices": {str(seat.number): _vote_word(self.votes.get(seat.number)) for seat in self.seats},
            }
        return {
            "table_id": self.id,
            "version": self.version,
            "now": iso(now),
            "table": {
                "name": self.name,
                "variant": self.variant.name,
                "players": self.variant.players,
                "target": self.target,
                "kind": self.kind,
                "status": self.status,
                "organizer_id": self.organizer_id,
                "match": self.game.match_number,
            },
            "seat": audience,
            "seats": [self.seat_dict(seat) for seat in self.seats],
            "hand": None
            if hand is None
            else {
                "number": hand.number,
                "id": hand.id,
                "commitment": hand.commitment,
                "view": self.game.view_dict(audience),
                # Cuban: this seat alone learns it may still ask for a new deal (protocol.md).
                "reshuffle": audience is not None and self._reshuffle_open(audience),
            },
            "turn": turn,
            "sheet": self.game.sheet(),
            # Cuban: the draw for the match's first lead, as its first hand_started told it.
            "lead_draw": self.game.lead_draw_dict(),
            "previous_hands": self.game.previous_hands(),
            "votes": votes,
            "chat": list(self.chat[-30:]),
        }


def _vote_word(choice: VoteChoice | None) -> str | None:
    """A seat's choice as the protocol words it (None: not chosen yet)."""
    return None if choice is None else VOTE_WORDS[choice]
