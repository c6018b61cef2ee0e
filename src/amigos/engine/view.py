"""What one seat, a spectator or a replay may see of a hand. Nothing else leaves the engine.

A seat sees its own tiles, the table, how many tiles everyone holds, the public story of the hand
(plays, passes with the ends they passed on, draws without the drawn tile) and the scores. It never
sees another seat's tiles or the boneyard's order, until the hand is over and a replay view shows
everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .actions import Action
from .line import Line
from .outcome import HandOutcome
from .state import DrawEvent, Event, HandState, PassEvent, legal_actions_for
from .tiles import Tile, tile_set
from .variants import Variant


@dataclass(frozen=True, slots=True)
class SeatView:
    """A hand as seen from ``seat`` (None: a spectator, who holds nothing).

    ``revealed`` holds every seat's tiles only in a replay view of a finished hand.
    """

    variant: Variant
    seat: int | None
    hand: frozenset[Tile]
    hand_sizes: tuple[int, ...]
    line: Line
    to_move: int
    leader: int
    history: tuple[Event, ...]
    boneyard_size: int
    play_points: tuple[int, ...]
    tie_winner: int | None
    outcome: HandOutcome | None
    revealed: tuple[frozenset[Tile], ...] | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def open_ends(self) -> tuple[int, ...]:
        return self.line.open_ends()

    def legal_actions(self) -> tuple[Action, ...]:
        """The seat's legal actions; empty unless it is this seat's turn in a live hand."""
        if self.seat is None or self.outcome is not None or self.to_move != self.seat:
            return ()
        return legal_actions_for(self.variant, self.line, self.hand)

    def unseen_tiles(self) -> frozenset[Tile]:
        """Tiles this seat cannot see: not in its hand and not on the table."""
        return frozenset(tile_set(self.variant.max_pip)) - self.hand - frozenset(self.line.tiles)

    def void_suits(self) -> dict[int, frozenset[int]]:
        """Suits each seat is known not to hold: the ends it passed on.

        A pass happens only when nothing is left to draw, so a suit passed on stays missing for
        the rest of the hand.
        """
        voids: dict[int, set[int]] = {seat: set() for seat in range(self.variant.players)}
        for event in self.history:
            if isinstance(event, PassEvent):
                voids[event.seat].update(event.ends)
        return {seat: frozenset(suits) for seat, suits in voids.items()}

    def determinize(self, others: Mapping[int, Iterable[Tile]], boneyard: Sequence[Tile]) -> HandState:
        """A full HandState equal to the real one in everything public, with these hidden tiles.

        ``others`` gives the tiles of every other seat and ``boneyard`` the hidden pile (draw
        order matters for future draws). Sizes must match the view and the tiles must be exactly
        the unseen ones. Consistency with past passes is the caller's business (see
        :meth:`void_suits`).
        """
        players = self.variant.players
        hands: list[frozenset[Tile]] = []
        given: list[Tile] = []
        expected_seats = {seat for seat in range(players) if seat != self.seat}
        if set(others) != expected_seats:
            raise ValueError(f"tiles must be given for seats {sorted(expected_seats)}")
        for seat in range(players):
            if seat == self.seat:
                hands.append(self.hand)
                continue
            tiles = list(others[seat])
            if len(tiles) != self.hand_sizes[seat]:
                raise ValueError(f"seat {seat} holds {self.hand_sizes[seat]} tiles, not {len(tiles)}")
            hands.append(frozenset(tiles))
            given.extend(tiles)
        if len(boneyard) != self.boneyard_size:
            raise ValueError(f"the boneyard holds {self.boneyard_size} tiles, not {len(boneyard)}")
        given.extend(boneyard)
        if len(set(given)) != len(given) or set(given) != self.unseen_tiles():
            raise ValueError("the hidden tiles must be exactly the unseen tiles, each once")
        return HandState(
            variant=self.variant,
            hands=tuple(hands),
            boneyard=tuple(boneyard),
            line=self.line,
            to_move=self.to_move,
            leader=self.leader,
            history=self.history,
            play_points=self.play_points,
            tie_winner=self.tie_winner,
            outcome=self.outcome,
        )


def _public_history(history: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    return tuple(
        DrawEvent(event.seat, None) if isinstance(event, DrawEvent) and event.seat != seat else event
        for event in history
    )


def seat_view(state: HandState, seat: int) -> SeatView:
    """What ``seat`` may see."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.variant.players:
        raise ValueError(f"no seat {seat!r} in {state.variant.name}")
    return _view(state, seat, state.hands[seat], None)


def spectator_view(state: HandState) -> SeatView:
    """What a spectator may see: the table and the public story, no hidden tile."""
    return _view(state, None, frozenset(), None)


def replay_view(state: HandState) -> SeatView:
    """Everything, for replays: only once the hand is over."""
    if not state.is_over:
        raise ValueError("a replay view shows hidden tiles: only for a finished hand")
    view = _view(state, None, frozenset(), state.hands)
    return SeatView(
        variant=view.variant,
        seat=None,
        hand=frozenset(),
        hand_sizes=view.hand_sizes,
        line=view.line,
        to_move=view.to_move,
        leader=view.leader,
        history=state.history,
        boneyard_size=view.boneyard_size,
        play_points=view.play_points,
        tie_winner=view.tie_winner,
        outcome=view.outcome,
        revealed=state.hands,
    )


def _view(
    state: HandState, seat: int | None, hand: frozenset[Tile], revealed: tuple[frozenset[Tile], ...] | None
) -> SeatView:
    return SeatView(
        variant=state.variant,
        seat=seat,
        hand=hand,
        hand_sizes=tuple(len(tiles) for tiles in state.hands),
        line=state.line,
        to_move=state.to_move,
        leader=state.leader,
        history=_public_history(state.history, seat),
        boneyard_size=len(state.boneyard),
        play_points=state.play_points,
        tie_winner=state.tie_winner,
        outcome=state.outcome,
        revealed=revealed,
    )
