"""The immutable state of one hand (mano): whose turn it is, what may be played, what happened.

``HandState.apply`` returns a new state and never changes the old one. Drawing from the boneyard
is automatic: when a seat's turn comes and it holds no playable tile, it draws from the front of
the pile until it can play or the pile is empty. A block is declared the moment nobody can lay a
tile and nothing is left to draw, so no pointless passes are ever asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .actions import Action, IllegalAction, Pass, Play
from .evolve import evolve
from .line import Line
from .notation import move_notation, parse_move
from .outcome import HandEnd, HandOutcome
from .tiles import MAX_SUPPORTED_PIP, Tile
from .variants import Variant


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """``seat`` laid a tile; ``points`` scored during play (fives games, else 0).

    ``ends`` are the open ends the tile was laid on (as they showed just before it; empty for the
    lead), so a reader of the history knows what the player saw without replaying the line.
    """

    seat: int
    play: Play
    points: int = 0
    ends: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PassEvent:
    """``seat`` passed while the open ends showed ``ends``."""

    seat: int
    ends: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawEvent:
    """``seat`` drew a tile from the boneyard. ``tile`` is None when hidden from the viewer."""

    seat: int
    tile: Tile | None


Event = PlayEvent | PassEvent | DrawEvent


class DealError(ValueError):
    """A deal that does not fit the variant (wrong sizes, a tile twice or missing)."""


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand in progress or finished. Create it with :meth:`start`.

    ``hands`` are the tiles each seat holds now (``dealt``: as dealt); ``boneyard`` what is left
    to draw, front first; ``to_move`` the seat whose turn it is (the closer once the hand is over);
    ``play_points`` what each side scored during play (fives games).
    """

    variant: Variant
    hands: tuple[frozenset[Tile], ...]
    boneyard: tuple[Tile, ...]
    line: Line
    to_move: int
    leader: int
    history: tuple[Event, ...] = ()
    play_points: tuple[int, ...] = ()
    tie_winner: int | None = None
    outcome: HandOutcome | None = None
    dealt: tuple[frozenset[Tile], ...] = field(default=(), compare=False)
    # `legal_actions`, once asked: a live table asks a state for them several times per turn (is
    # the pass forced, is the play single, which plays close the hand).
    _legal: tuple[Action, ...] | None = field(default=None, init=False, repr=False, compare=False)

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        variant: Variant,
        hands: Sequence[Iterable[Tile]],
        leader: int,
        boneyard: Sequence[Tile] = (),
        tie_winner: int | None = None,
    ) -> HandState:
        """The state before the lead. Validates the deal against the variant (raises DealError).

        ``boneyard`` is the draw pile in draw order, or Cuban's set-aside tiles (never drawn);
        ``tie_winner`` is the side that wins a block with tied pips (Cuban only).
        """
        frozen = tuple(frozenset(hand) for hand in hands)
        check_deal(variant, [list(hand) for hand in hands], list(boneyard))
        if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < variant.players:
            raise DealError(f"the leader must be a seat from 0 to {variant.players - 1}")
        if tie_winner is not None and not 0 <= tie_winner < variant.sides:
            raise DealError(f"the tie winner must be a side from 0 to {variant.sides - 1}")
        return cls(
            variant=variant,
            hands=frozen,
            boneyard=tuple(boneyard),
            line=Line.empty(variant.spinner),
            to_move=leader,
            leader=leader,
            play_points=(0,) * variant.sides,
            tie_winner=tie_winner,
            dealt=frozen,
        )

    # -- reading the state -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def open_ends(self) -> tuple[int, ...]:
        """The values showing at the open ends (empty before the lead)."""
        return self.line.open_ends()

    @property
    def drawable(self) -> tuple[Tile, ...]:
        """Tiles that can still be drawn (Cuban's set-aside tiles never are)."""
        return self.boneyard if self.variant.draws else ()

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile that fits an open end (any tile before the lead)."""
        if self.line.is_empty:
            return bool(self.hands[seat])
        return _holds_playable(self.hands[seat], self.line)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to move, one per distinct resulting position."""
        if self.outcome is not None:
            return ()
        legal = self._legal
        if legal is None:
            legal = legal_actions_for(self.variant, self.line, self.hands[self.to_move])
            object.__setattr__(self, "_legal", legal)  # a cache: the state itself never changes
        return legal

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def default_action(self) -> Action:
        """The action the table takes for a player whose time ran out: the first legal action
        (the heaviest tile, on the first arm it may take), or the pass when nothing fits.

        Play is mandatory, so a timeout never passes while a tile can be laid.
        """
        actions = self.legal_actions()
        if not actions:
            raise IllegalAction("the hand is over", "hand_over")
        return actions[0]

    def closing_actions(self) -> tuple[Action, ...]:
        """Legal plays that would block the hand at once ("situación de cierre").

        The Amigos turn clock gives 60 seconds when the player holds such a tile, so a live table
        asks this on every turn: with nothing left to draw it is answered from the line alone
        (the tile laid, then does anybody hold a tile for the new ends?) instead of playing
        every move out.
        """
        closing: list[Action] = []
        seat = self.to_move
        hands = self.hands
        # The suits the other seats hold, gathered once: a play whose new ends show one of them
        # (nearly every play) does not block, whatever the mover keeps.
        others: set[int] | None = None
        for action in self.legal_actions():
            if not isinstance(action, Play):
                continue
            if self.drawable:
                outcome = self.apply(action, seat).outcome
                if outcome is not None and outcome.end is not HandEnd.DOMINO:
                    closing.append(action)
                continue
            tile = action.tile
            left = hands[seat] - {tile}
            if not left:
                continue  # the last tile: a domino, not a block
            if others is None:
                others = {
                    half
                    for other, hand in enumerate(hands)
                    if other != seat
                    for held in hand
                    for half in (held.high, held.low)
                }
            ends = set(self.line.ends_after(action))
            if ends.isdisjoint(others) and not _holds_suit(left, ends):
                closing.append(action)
        return tuple(closing)

    def side_to_move(self) -> int:
        return self.variant.team_of(self.to_move)

    # -- moving ----------------------------------------------------------------------------------

    def apply(self, action: Action, seat: int) -> HandState:
        """The state after ``action`` by ``seat``. Raises IllegalAction (with a code), never mutates.

        The seat is always checked against the seat to move: a caller cannot forget it, so a move
        sent by the wrong player is refused here whatever layer it came through.
        """
        if self.outcome is not None:
            raise IllegalAction("the hand is over", "hand_over")
        if seat != self.to_move:
            raise IllegalAction("not your turn", "not_your_turn")
        if isinstance(action, Pass):
            return self._apply_pass()
        if isinstance(action, Play):
            return self._apply_play(action)
        raise IllegalAction(f"not an action: {action!r}", "not_an_action")

    def _apply_pass(self) -> HandState:
        if self.can_play(self.to_move):
            raise IllegalAction("you hold a playable tile: pass refused", "pass_refused")
        history = (*self.history, PassEvent(self.to_move, self.line.open_ends()))
        return _next_turn(self, self.hands, self.boneyard, history, self.line, self.to_move)

    def _apply_play(self, play: Play) -> HandState:
        tile = play.tile
        seat = self.to_move
        if not isinstance(tile, Tile):
            raise IllegalAction(f"not a tile: {tile!r}", "not_a_tile")
        if tile not in self.hands[seat]:
            raise IllegalAction(f"{tile} is not in your hand", "not_in_hand")
        line = self.line
        if line.is_empty:
            if play.arm is not None:
                raise IllegalAction("the lead takes no arm", "arm_not_allowed")
            if self.variant.spinner and not tile.is_double and play.lead_left is None:
                raise IllegalAction(f"say which half of {tile} faces left", "arm_needed")
            if play.lead_left is not None and (tile.is_double or not self.variant.spinner):
                raise IllegalAction("this lead has no orientation to choose", "arm_not_allowed")
            capicua = False
        else:
            fits = line.fits(tile)
            if not fits:
                ends = " and ".join(str(value) for value in line.open_ends())
                raise IllegalAction(f"{tile} does not fit the open ends {ends}", "does_not_fit")
            if play.lead_left is not None:
                raise IllegalAction("only the lead says which half faces left", "arm_not_allowed")
            if play.arm is None:
                raise IllegalAction(f"say on which arm {tile} goes", "arm_needed")
            capicua = len(fits) >= 2
        new_line = line.lay(play)
        points = self.variant.play_score(new_line.count()) if self.variant.scores_during_play else 0
        hands = _replace(self.hands, seat, self.hands[seat] - {tile})
        history = (*self.history, PlayEvent(seat, play, points, line.open_ends()))
        side = self.variant.team_of(seat)
        state = self
        if points:
            scored = list(self.play_points)
            scored[side] += points
            state = _evolve(self, play_points=tuple(scored))
        if not hands[seat]:
            outcome = self.variant.score_hand(hands, True, seat, self.tie_winner, capicua)
            return _evolve(state, hands=hands, line=new_line, history=history, outcome=outcome, to_move=seat)
        return _next_turn(state, hands, self.boneyard, history, new_line, seat)

    def __str__(self) -> str:
        """A readable summary for logs, tests and the terminal."""
        lines = [f"{self.variant.name}: {self.line}"]
        for seat, hand in enumerate(self.hands):
            marker = ">" if seat == self.to_move and self.outcome is None else " "
            tiles = " ".join(str(tile) for tile in sorted(hand, reverse=True))
            lines.append(f"{marker} seat {seat}: {tiles}")
        if self.variant.draws:
            lines.append(f"  boneyard: {len(self.boneyard)} tiles")
        if self.outcome is not None:
            outcome = self.outcome
            lines.append(f"  {outcome.end}: winner {outcome.winner}, {outcome.points} points")
        return "\n".join(lines)

    # -- notation --------------------------------------------------------------------------------

    def parse_move(self, text: str) -> Action:
        """Read a move in record notation (``"5-3@3"``, ``"6-6@left"``, ``"pass"``).

        Raises IllegalAction for text that names no possible placement. Whether the move is legal
        in this state (the tile is held, passing is allowed...) is checked by :meth:`apply`.
        """
        return parse_move(self.variant, self.line, text)

    def move_notation(self, action: Action) -> str:
        """The canonical record notation of ``action`` in this state."""
        return move_notation(self.line, action)


def legal_actions_for(variant: Variant, line: Line, hand: Iterable[Tile]) -> tuple[Action, ...]:
    """The legal actions of a seat holding ``hand`` at ``line`` (its turn, hand not over).

    Shared by :class:`HandState` and the seat views, so both always agree.
    """
    tiles = sorted(hand, key=_tile_order, reverse=True)
    if line.is_empty:
        leads: list[Action] = []
        for tile in tiles:
            if variant.spinner and not tile.is_double:
                # Both orientations: the record format names the arms after the lead's left half.
                leads.append(Play(tile, None, tile.high))
                leads.append(Play(tile, None, tile.low))
            else:
                leads.append(Play(tile))
        return tuple(leads)
    plays: list[Action] = [Play(tile, arm) for tile in tiles for arm in line.legal_arms(tile)]
    return tuple(plays) if plays else (Pass(),)


def _tile_order(tile: Tile) -> tuple[int, int]:
    return (tile.high, tile.low)


def _holds_playable(hand: Iterable[Tile], line: Line) -> bool:
    return _holds_suit(hand, set(line.open_ends()))


def _holds_suit(hand: Iterable[Tile], suits: set[int]) -> bool:
    return any(tile.high in suits or tile.low in suits for tile in hand)


def _replace(
    hands: tuple[frozenset[Tile], ...], seat: int, hand: frozenset[Tile]
) -> tuple[frozenset[Tile], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _evolve(state: HandState, **changes: object) -> HandState:
    return evolve(state, **changes)


def _next_turn(
    state: HandState,
    hands: tuple[frozenset[Tile], ...],
    boneyard: tuple[Tile, ...],
    history: tuple[Event, ...],
    line: Line,
    last_seat: int,
) -> HandState:
    """Hand the turn to the seat after ``last_seat``: draw for it if needed, or declare a block.

    ``last_seat`` made the last move; if it was a play, that play is what blocks the hand.
    """
    variant = state.variant
    seat = (last_seat + 1) % variant.players
    pile = boneyard if variant.draws else ()
    ends = set(line.open_ends())
    events = list(history)
    if pile and not _holds_suit(hands[seat], ends):
        drawn = list(pile)
        hand = set(hands[seat])
        while drawn:
            tile = drawn.pop(0)
            hand.add(tile)
            events.append(DrawEvent(seat, tile))
            if tile.high in ends or tile.low in ends:
                break
        hands = _replace(hands, seat, frozenset(hand))
        boneyard = tuple(drawn)
        pile = boneyard
    if not pile and not any(_holds_suit(hand, ends) for hand in hands):
        closer = _last_player(events)
        outcome = variant.score_hand(hands, False, closer, state.tie_winner)
        return _evolve(
            state,
            hands=hands,
            boneyard=boneyard,
            history=tuple(events),
            line=line,
            outcome=outcome,
            to_move=closer,
        )
    return _evolve(state, hands=hands, boneyard=boneyard, history=tuple(events), line=line, to_move=seat)


def _last_player(events: Sequence[Event]) -> int:
    for event in reversed(events):
        if isinstance(event, PlayEvent):
            return event.seat
    raise AssertionError("a block needs at least one tile on the table")


def check_deal(variant: Variant, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
    """Raise DealError unless ``hands`` and ``boneyard`` are exactly one full set, sized for the
    variant."""
    if len(hands) != variant.players:
        raise DealError(f"{variant.name} deals to {variant.players} seats, not {len(hands)}")
    # Which tiles were seen, one byte per place (`_PLACES`) rather than a set of tiles: a tile's
    # hash is a Python call, and with sets the check was about half of every hand's start.
    seen = bytearray(_PLACES)
    for seat, hand in enumerate(hands):
        if len(hand) != variant.hand_size:
            raise DealError(f"seat {seat} was dealt {len(hand)} tiles, expected {variant.hand_size}")
        _collect(hand, variant.max_pip, seen, f"seat {seat}")
    if len(boneyard) != variant.boneyard_size:
        raise DealError(f"the boneyard holds {len(boneyard)} tiles, expected {variant.boneyard_size}")
    _collect(boneyard, variant.max_pip, seen, "the boneyard")


#: One place per tile of the largest set, `high * (MAX_SUPPORTED_PIP + 1) + low`.
_PLACES = (MAX_SUPPORTED_PIP + 1) ** 2


def _collect(tiles: Iterable[Tile], max_pip: int, seen: bytearray, where: str) -> None:
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise DealError(f"{where}: not a tile: {tile!r}")
        high = tile.high  # a tile keeps its higher half first, so this bounds both halves
        if high > max_pip:
            raise DealError(f"{where}: {tile} is not in the set")
        place = high * (MAX_SUPPORTED_PIP + 1) + tile.low
        if seen[place]:
            raise DealError(f"{where}: {tile} is dealt twice")
        seen[place] = 1
