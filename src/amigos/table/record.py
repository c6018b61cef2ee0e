"""The record of a live match, built as the table goes (docs/record-format.md, "Live tables").

The server keeps a :class:`RecordDraft` next to the table's state and, after every
``advance``, calls ``draft = update(draft, state, effects)``. ``to_record(draft)`` gives the
``amigos-record/1`` record at any moment: finished or not, it is what the server stores and hands
to the archive. Moves are written in record notation, with their times, which of them the system
or a computer player made, each hand's key and commitment, the cards and how the match ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from amigos.engine import HandState, Record, RecordHand, Termination, deal_from_key
from amigos.engine.tiles import sort_tiles
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
            voided = VoidedDeal(effect.seat, effect.key, effect.hand_id, effect.commitment)
            draft = replace(draft, voided=(*draft.voided, voided), current=None)
        elif isinstance(effect, HandEnded):
            hand = state.hand
            assert hand is not None and hand.number == effect.number
            finished = record_hand(state.config, hand, draft.voided)
            draft = replace(draft, hands=(*draft.hands, finished), current=None, voided=())
        elif isinstance(effect, MatchEnded):
            draft = replace(draft, ended=state.now, termination=effect.termination, offender=effect.offender)
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
    trail = MatchTrail(
        table=config.table_id,
        mode=config.mode.value,
        started=draft.started,
        ended=draft.ended,
        termination=draft.termination,
        offender=draft.offender,
        cards=draft.cards,
    )
    players = tuple(
        player if player is not None else f"computer:{seat}" for seat, player in enumerate(config.players)
    )
    return Record(
        variant=config.variant.name,
        players=players,
        hands=hands,
        extra=match_trail_json(trail),
    )


def record_hand(config: TableConfig, hand: HandInPlay, voided: tuple[VoidedDeal, ...] = ()) -> RecordHand:
    """One hand as a record writes it, with its trail (key, commitment, times, system moves)."""
    variant = config.variant
    deal = deal_from_key(hand.key, variant)
    state = HandState.start(variant, deal.hands, hand.state.leader, deal.boneyard, hand.state.tie_winner)
    moves: list[str] = []
    for stamp in hand.moves:
        moves.append(state.move_notation(stamp.action))
        state = state.apply(stamp.action, stamp.seat)
    trail = HandTrail(
        key=hand.key,
        hand_id=hand_id(config, hand.number, hand.redeal),
        commitment=hand.commitment,
        started=hand.started,
        times=tuple(stamp.at for stamp in hand.moves),
        system=tuple(stamp.reason for stamp in hand.moves),
        voided=voided,
    )
    return RecordHand(
        deal=tuple(tuple(sort_tiles(tiles)) for tiles in deal.hands),
        boneyard=deal.boneyard,
        leader=hand.state.leader,
        moves=tuple(moves),
        extra=hand_trail_json(trail),
    )
