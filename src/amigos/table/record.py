"""The record of a live match, built as the table goes (docs/record-format.md, "Live tables").

Both tables write their records here. :func:`hand_entry` writes one hand (its deal, leader and
moves, and its trail: key, commitment, times, the system's moves, voided deals) and
:func:`match_record` the match around the hands (its trail: table, times, how it ended, cards,
absent seats); the server's `Game.record` (web/tables/game.py) calls both, keeping each hand's
entry from one record to the next, and so does the pure table's draft below.

The pure table: the server keeps a :class:`RecordDraft` next to the table's state and, after every
``advance``, calls ``draft = update(draft, state, effects)``. ``to_record(draft)`` gives the
``amigos-record/1`` record at any moment: finished or not, it is what the server stores and hands
to the archive. Moves are written in record notation, with their times, which of them the system
or a computer player made, each hand's key and commitment, the cards and how the match ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from amigos.engine import HandState, Record, RecordHand, Termination, deal_from_key
from amigos.engine.record import hand_with_moves
from amigos.engine.trail import (
    CardNote,
    HandTrail,
    MatchTrail,
    VoidedDeal,
    hand_trail_json,
    match_trail_json,
)

from .effects import CardGiven, Effect, HandEnded, HandVoided, MatchEnded
from .flow import hand_id
from .model import HandInPlay, TableConfig, TableState
from .presence import absent_seats


@dataclass(frozen=True, slots=True)
class RecordDraft:
    """A match record in the making: the finished hands, the cards, the end (once known), and the
    hand being played (``current``)."""

    config: TableConfig
    started: float
    hands: tuple[RecordHand, ...] = ()
    cards: tuple[CardNote, ...] = ()
    ended: float | None = None
    termination: Termination | None = None
    offender: int | None = None
    current: HandInPlay | None = None
    voided: tuple[VoidedDeal, ...] = ()
    absent: tuple[int, ...] = ()


def new_draft(config: TableConfig, started: float) -> RecordDraft:
    return RecordDraft(config=config, started=started)


def update(draft: RecordDraft, state: TableState, effects: Iterable[Effect]) -> RecordDraft:
    """The draft after an ``advance`` that produced ``effects`` and left the table in ``state``."""
    for effect in effects:
        if isinstance(effect, CardGiven):
            number = draft.current.number if draft.current is not None else 0
            note = CardNote(effect.seat, effect.colour.value, effect.reason.value, effect.at, number)
            draft = replace(draft, cards=(*draft.cards, note))
        elif isinstance(effect, HandVoided):
            draft = replace(draft, voided=(*draft.voided, effect.voided), current=None)
        elif isinstance(effect, HandEnded):
            hand = state.hand
            assert hand is not None and hand.number == effect.number
            finished = record_hand(state.config, hand, draft.voided)
            draft = replace(draft, hands=(*draft.hands, finished), current=None, voided=())
        elif isinstance(effect, MatchEnded):
            seats = ((not seat.is_computer, seat.is_away, seat.held_by_computer) for seat in state.seats)
            draft = replace(
                draft,
                ended=state.now if state.ended is None else state.ended,
                termination=effect.termination,
                offender=effect.offender,
                absent=absent_seats(seats),
            )
    # The hand in play (a new one, or more moves of this one) is read from the state itself.
    hand = state.hand
    if hand is not None and not hand.state.is_over:
        draft = replace(draft, current=hand)
    return draft


def to_record(draft: RecordDraft) -> Record:
    """The record as it stands: finished hands, then the hand in play (if any) cut where it is."""
    config = draft.config
    hands = draft.hands
    if draft.current is not None:
        hands = (*hands, record_hand(config, draft.current, draft.voided))
    players = tuple(
        player if player is not None else f"computer:{seat}" for seat, player in enumerate(config.players)
    )
    return match_record(
        config.variant.name,
        players,
        hands,
        table=config.table_id,
        mode=config.mode.value,
        started=draft.started,
        ended=draft.ended,
        termination=draft.termination,
        offender=draft.offender,
        cards=draft.cards,
        absent=draft.absent,
    )


def record_hand(config: TableConfig, hand: HandInPlay, voided: tuple[VoidedDeal, ...] = ()) -> RecordHand:
    """One hand as a record writes it (`hand_entry`): the pure table keeps a hand's moves, not their
    notation, so the hand is played again from its deal (as dealt, or derived from its key) to
    write them."""
    if hand.dealt is not None:
        start = hand.dealt.state
    else:
        variant = config.variant
        deal = deal_from_key(hand.key, variant)
        start = HandState.start(variant, deal.hands, hand.state.leader, deal.boneyard, hand.state.tie_winner)
    state = start
    moves: list[str] = []
    for stamp in hand.moves:
        moves.append(state.move_notation(stamp.action))
        state = state.apply(stamp.action, stamp.seat)
    return hand_entry(
        start,
        moves,
        key=hand.key,
        hand_id=hand_id(config.table_id, hand.number, hand.redeal),
        commitment=hand.commitment,
        started=hand.started,
        times=tuple(stamp.at for stamp in hand.moves),
        system=tuple(stamp.reason for stamp in hand.moves),
        voided=voided,
    )


def hand_entry(
    start: HandState,
    moves: Sequence[str],
    *,
    key: str,
    hand_id: str,
    commitment: str,
    times: tuple[float, ...] | None,
    system: tuple[str | None, ...],
    voided: tuple[VoidedDeal, ...] = (),
    started: float | None = None,
) -> RecordHand:
    """One hand of a live record: the hand that began at ``start`` (its deal, boneyard and leader)
    with ``moves``, each already in record notation (written as it was made, so the hand need not
    be played again), and its trail: the deal's ``key`` and ``commitment`` under ``hand_id``, when
    each move was made (``times``, seconds since the epoch; None when some are not known), why the
    system made each one (``system``: None for the player's own), the deals of this hand voided
    before it (Cuban reshuffles) and when the hand started (None: not kept). The trail's fields are
    written by engine/trail.py's codec, which the engine's reader checks."""
    base = hand_with_moves(start, moves)
    trail = HandTrail(
        key=key,
        hand_id=hand_id,
        commitment=commitment,
        started=started,
        times=times,
        system=system,
        voided=voided,
    )
    return RecordHand(
        deal=base.deal,
        boneyard=base.boneyard,
        leader=base.leader,
        moves=base.moves,
        extra=hand_trail_json(trail),
    )


def match_record(
    variant: str,
    players: tuple[str, ...],
    hands: tuple[RecordHand, ...] = (),
    *,
    table: str,
    mode: str | None = None,
    started: float | None = None,
    ended: float | None = None,
    termination: Termination | None = None,
    offender: int | None = None,
    cards: tuple[CardNote, ...] = (),
    absent: tuple[int, ...] = (),
) -> Record:
    """A live match's record: the ``variant``'s name, the ``players`` by seat, the ``hands``
    (`hand_entry`), and the match's trail: the ``table`` it was played at, its ``mode``, when it
    ``started`` and ``ended``, how (``termination``; None while it goes on) and by whose doing
    (``offender``: an unfinished match's), the cards given and the seats ``absent`` at its end
    (docs/record-format.md). Fields not given are left out of the record."""
    trail = MatchTrail(
        table=table,
        mode=mode,
        started=started,
        ended=ended,
        termination=termination,
        offender=offender,
        cards=cards,
        absent=absent,
    )
    return Record(variant=variant, players=players, hands=hands, extra=match_trail_json(trail))
