"""Replaying a match record: every rule checked, the result of every hand, the match's end.

:func:`replay_record` returns a :class:`ReplayReport`; ``amigos.engine.codec.replay_json`` writes
it as exactly the JSON ``amigos replay`` prints. A record that breaks a rule raises
:class:`RecordError` naming the hand and the move (both from 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import IllegalAction
from .deal import Deal
from .match import Match
from .outcome import Termination
from .record import Record, RecordError, RecordHand
from .state import DealError, HandState, check_deal
from .trail import VoidedDeal, check_hand_trail, read_hand_trail, read_match_trail
from .variants import UnknownVariant, Variant, find_variant


@dataclass(frozen=True, slots=True)
class HandReport:
    """The result of one hand of a record. ``end`` is "unfinished" for a hand cut short."""

    end: str
    winner: int | None
    points: int
    score: tuple[int, ...]
    states: tuple[HandState, ...] = ()


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """Everything a replay established about a record."""

    variant: Variant | None
    variant_name: str
    hands: tuple[HandReport, ...]
    complete: bool
    winner: int | None
    score: tuple[int, ...]
    match: Match | None
    extended: bool = False
    termination: Termination | None = None
    deals_verified: int = 0
    #: The deals voided before a hand was played (Cuban reshuffles), with that hand's number.
    voided: tuple[tuple[int, VoidedDeal], ...] = ()
    # The seats away when the match ended (the record's ``absent``; not in its JSON).
    absent: tuple[int, ...] = ()


def record_variant(record: Record) -> Variant:
    """The record's variant (the number of players comes from the players list)."""
    try:
        return find_variant(record.variant, len(record.players))
    except UnknownVariant as exc:
        raise RecordError(0, 0, str(exc)) from exc


def replay_record(record: Record, keep_states: bool = False) -> ReplayReport:
    """Replay ``record`` under the rules. ``keep_states`` keeps every state of every hand (for
    replays in the browser and for tests)."""
    variant = record_variant(record)
    first_leader = record.hands[0].leader if record.hands else None
    if first_leader is not None and not 0 <= first_leader < variant.players:
        raise RecordError(1, 0, f"the leader must be a seat from 0 to {variant.players - 1}")
    match = Match.new(variant, record.players, first_leader)
    live = read_match_trail(record.extra, variant.players)
    extended = not live.is_empty
    verified = 0
    voided: list[tuple[int, VoidedDeal]] = []
    reports: list[HandReport] = []
    score = match.score
    for number, hand in enumerate(record.hands, start=1):
        trail = read_hand_trail(number, hand.extra)
        extended = extended or not trail.is_empty
        verified += check_hand_trail(number, variant, hand, trail)
        voided.extend((number, deal) for deal in trail.voided)
        if match.is_over:
            raise RecordError(number, 1 if hand.moves else 0, "the match was already over")
        if reports and reports[-1].end == "unfinished":
            previous = record.hands[number - 2]
            raise RecordError(
                number - 1,
                len(previous.moves) + 1,
                "the moves stop before the hand's end, yet another hand follows",
            )
        state = _start(match, variant, number, hand)
        states = [state]
        for index, text in enumerate(hand.moves, start=1):
            if state.is_over:
                raise RecordError(number, index, "the hand is already over")
            try:
                state = state.apply(state.parse_move(text), state.to_move)
            except IllegalAction as exc:
                raise RecordError(number, index, f"seat {state.to_move}: {exc.reason}") from exc
            if keep_states:
                states.append(state)
        kept = tuple(states) if keep_states else ()
        outcome = state.outcome
        if outcome is None:
            score = tuple(total + extra for total, extra in zip(match.score, state.play_points, strict=True))
            reports.append(HandReport("unfinished", None, 0, score, kept))
            continue
        match = match.finish_hand(state)
        score = match.score
        reports.append(HandReport(outcome.end.value, outcome.winner, outcome.points, score, kept))
    termination = _termination(match, live.termination, live.offender)
    if termination is not None and termination is not Termination.TARGET:
        match = match.stop(termination, live.offender)
    return ReplayReport(
        variant=variant,
        variant_name=record.variant,
        hands=tuple(reports),
        complete=termination is Termination.TARGET,
        winner=match.winner,
        score=score,
        match=match,
        extended=extended,
        termination=termination,
        deals_verified=verified,
        voided=tuple(voided),
        absent=live.absent,
    )


def _termination(match: Match, said: Termination | None, offender: int | None) -> Termination | None:
    """How the match ended: what the record says, checked against the hands replayed."""
    reached = match.is_over
    if said is None:
        return Termination.TARGET if reached else None
    if said is Termination.TARGET and not reached:
        raise RecordError(0, 0, "termination says target, but the hands do not reach it")
    if said is not Termination.TARGET and reached:
        raise RecordError(0, 0, f"termination says {said}, but the match reached its target")
    if said is not Termination.TARGET and offender is None:
        raise RecordError(0, 0, f"a match ended by {said} names its offender")
    return said


def _start(match: Match, variant: Variant, number: int, hand: RecordHand) -> HandState:
    if not 0 <= hand.leader < variant.players:
        raise RecordError(number, 0, f"the leader must be a seat from 0 to {variant.players - 1}")
    for tiles in (*hand.deal, hand.boneyard):
        for tile in tiles:
            if tile.high > variant.max_pip:
                raise RecordError(number, 0, f"{tile} is not a tile of the double-{variant.max_pip} set")
    try:
        check_deal(variant, hand.deal, hand.boneyard)
        return match.start_hand(Deal(hands=hand.deal, boneyard=hand.boneyard), leader=hand.leader)
    except DealError as exc:
        raise RecordError(number, 0, str(exc)) from exc
