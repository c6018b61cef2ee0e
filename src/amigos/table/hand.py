"""A hand at a live table, decided in one place: its deal (:func:`deal_hand`), and a seat's move in
it with all that follows (:func:`apply_move`).

A hand is dealt from the key the server drew (`deal_hand`: its number, the deal, the leader by the
match's rules, its commitment under the table's name for it, the seats offered a new deal); the
pure table's `flow.deal` asks it, and the server's writer and record read a deal back through it.
A deal a seat asks to be voided (Cuban, 5 or more doubles: `void_deal`) is judged and described
here too: the pure table's `flow.reshuffle` asks it, and the server's record (`Game`) when it
replays a stored log, so the voided deal a record keeps (seat, key, hand id, commitment) is built
in one place.

:func:`apply_move` is asked by the pure table (`flow.move`, and the system's own moves: an
automatic pass, a timed-out turn's default move) and by the server's record when it replays a
stored log (`web/tables/game.py`). Whatever the table decides before it
(who sent the move, whether the table waits for someone: `flow.play_refusal`) is the caller's;
from the hand on, the order of the refusals and the outcome are decided here and nowhere else:

1. no hand in play (none dealt yet, or the last one over): ``not_playing``;
2. another seat is to move: ``not_your_turn``;
3. the rules refuse the action (a tile not held, an arm it does not fit, a pass while a tile
   fits...): ``illegal_play``, with the engine's reason;

else the hand goes on (:attr:`AppliedMove.after`), with the tiles drawn for the next seat (the
draw games), and, when it ended, the match with the hand added (`Match.finish_hand`): whether
that match reached its target, and who won it.

The server plays every move through here, so it is on the path of every play: the answer is one
tuple (no copies of the states it names), and what only some callers need (the tiles drawn, the
move's notation) is read from it when asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from amigos.engine import Action, DrawEvent, HandState, IllegalAction, Match, commitment, deal_from_key
from amigos.engine.deal import normalise_key
from amigos.engine.trail import VoidedDeal

from .errors import TableError
from .model import DealtHand

_new_tuple = tuple.__new__

#: The refusals of a move by the hand, in the order they are asked (protocol codes, docs/protocol.md).
HAND_REFUSALS = ("not_playing", "not_your_turn", "illegal_play")


class AppliedMove(NamedTuple):
    """A move the hand took: ``before`` and ``after`` the move, and ``match``: the match the hand
    belongs to, with this hand added once the move ended it (the same match otherwise)."""

    seat: int
    action: Action
    before: HandState
    after: HandState
    match: Match

    @property
    def hand_over(self) -> bool:
        """Whether the move ended the hand (a domino or a block)."""
        return self.after.outcome is not None

    @property
    def match_over(self) -> bool:
        """Whether the hand this move ended took the match to its target (the only way a move ends
        a match; abandonment and suspension are the table's)."""
        return self.after.outcome is not None and self.match.is_over

    @property
    def winner(self) -> int | None:
        """The side that won the match by reaching its target with this move, else None."""
        return self.match.winner if self.after.outcome is not None else None

    @property
    def drawn(self) -> tuple[DrawEvent, ...]:
        """The tiles drawn from the boneyard after the move (the draw games), in the order drawn:
        the seat the turn passed to, holding no tile that fits, draws until one does (or the
        boneyard is empty). Empty elsewhere. The move's own event comes first in the history, then
        these."""
        return tuple(
            event
            for event in self.after.history[len(self.before.history) + 1 :]
            if isinstance(event, DrawEvent)
        )

    @property
    def notation(self) -> str:
        """The move as a record writes it (engine/notation.py), read from the state it was made in."""
        return self.before.move_notation(self.action)


def apply_move(hand: HandState | None, match: Match | None, seat: int, action: Action) -> AppliedMove:
    """``seat`` does ``action`` in ``hand``, the hand in play (None: none is) of ``match``.

    Raises :class:`TableError` with the first of :data:`HAND_REFUSALS` that applies (the module's
    docstring gives the order); nothing changes then (states are immutable). ``match`` may be None
    only when no hand is in play."""
    if hand is None or hand.outcome is not None:
        raise TableError("not_playing", "no hand is in play")
    if seat != hand.to_move:
        raise TableError("not_your_turn", "another seat is to play")
    try:
        after = hand.apply(action, seat)
    except IllegalAction as refusal:
        raise TableError("illegal_play", refusal.reason) from None
    assert match is not None, "a hand in play belongs to a match"
    if after.outcome is not None:
        match = match.finish_hand(after)
    # The tuple made directly: `AppliedMove(...)` runs a Python-level `__new__` on every play.
    return _new_tuple(AppliedMove, (seat, action, hand, after, match))


def deal_hand(match: Match, key: str, identity: Callable[[int], str]) -> DealtHand:
    """The next hand of ``match`` dealt from ``key``; ``identity`` names a hand by its number (each
    table has its own names, a redeal after a reshuffle another: `flow.hand_id`).

    Raises :class:`TableError` ``bad_key`` for a key that is not a UUID. The pure table deals here
    (`flow.deal`, which keeps the result with the hand: `HandInPlay.dealt`), and so does the
    server reading a log back (`restore`) and its writer (`entries_of`) for a deal voided in the
    step that dealt it."""
    try:
        key = normalise_key(key)
    except ValueError as error:
        raise TableError("bad_key", str(error)) from None
    number = len(match.hands) + 1
    dealt = deal_from_key(key, match.variant)
    ident = identity(number)
    return DealtHand(
        number,
        key,
        dealt,
        match.start_hand(dealt),
        ident,
        commitment(key, ident),
        match.reshuffle_offer(dealt),
    )


def may_reshuffle(offered: tuple[int, ...], seat: int, moves: int) -> bool:
    """Whether ``seat`` may ask for a new deal now: it was offered one (Cuban, 5 or more doubles:
    `Match.reshuffle_offer`) and nobody has moved yet (``moves``: the hand's moves so far)."""
    return seat in offered and moves == 0


class DealInPlay(NamedTuple):
    """What voiding a deal reads of the hand in play: the deal's ``key``, the identity its key is
    committed under (``hand_id``) and the ``commitment``, the seats offered a new deal
    (``offered``) and how many moves were made (``moves``). Each table keeps its hand its own way
    (the pure table's `HandInPlay`, the server's `HandLog`) and hands these over."""

    key: str
    hand_id: str
    commitment: str
    offered: tuple[int, ...]
    moves: int


def void_deal(deal: DealInPlay | None, seat: int) -> VoidedDeal:
    """``seat`` asks for a new deal of the hand in play (``deal``; None: no hand is in play): the
    voided deal as every record keeps it (`VoidedDeal`: the seat that asked, the key now revealed,
    the identity and commitment it was dealt under), from which the table tells everyone and deals
    the same hand again under the next identity.

    Raises :class:`TableError` ``no_reshuffle`` when no hand is in play, or the seat may not ask
    (`may_reshuffle`: not offered, or a move was made). Who may send the request at all and
    whether the table stands still for someone (`flow.play_refusal`) are the caller's, asked
    before. The pure table's `flow.reshuffle` asks this, and the server's record replaying a log."""
    if deal is None:
        raise TableError("no_reshuffle", "no hand is being played")
    if not may_reshuffle(deal.offered, seat, deal.moves):
        raise TableError("no_reshuffle", f"seat {seat} may not ask for a new deal now")
    return VoidedDeal(seat, deal.key, deal.hand_id, deal.commitment)
