"""The flow of a hand at a table: dealing, moves, the turn clock's outcomes (cards, the system's
plays), the end of a hand and of a match by its target, and a takeover's fresh time."""

from __future__ import annotations

import enum
import hashlib
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from amigos.engine import (
    Action,
    HandState,
    Match,
    Pass,
    Termination,
    Tile,
    Variant,
)
from amigos.engine.deal import Deal, normalise_key
from amigos.engine.evolve import evolve
from amigos.engine.variants.base import LeadDraw
from amigos.engine.variants.cuban import RESHUFFLE_DOUBLES

from . import inputs
from .clock import after_card, card_reason, start_clock, system_reason, warns_no_block
from .common import give_card
from .effects import (
    ComputerTurn,
    DealNeeded,
    Effect,
    HandEnded,
    HandStarted,
    HandVoided,
    MatchEnded,
    Moved,
    Notice,
    NoticeKind,
    ReshuffleOffered,
    SystemPlay,
    SystemReason,
    TurnStarted,
)
from .errors import TableError
from .hand import AppliedMove, DealInPlay, apply_move, deal_hand, may_reshuffle, void_deal
from .model import Colour, Conduct, HandInPlay, MoveStamp, Phase, TableState, Timing

#: The legal actions of a seat that can only pass (made once: asked at every turn).
_ONLY_PASS = (Pass(),)

#: The domain the draw for the first lead hashes a deal's key under (apart from the deal's own).
LEAD_DRAW_DOMAIN = b"amigos-lead-draw-v1"

#: The reason kept with a move a computer player made (records list it with the system's moves).
COMPUTER_MOVE = "computer"


def hand_id(table: str, number: int, redeal: int = 0) -> str:
    """The identity a hand's commitment binds its key to: the table's identity (the record's
    ``table``) and the hand's number (``<table>:hand:<number>``), and ``:deal:<k>`` for the k-th
    deal after a reshuffle, so no two keys are ever committed under the same identity. One rule
    for every table: this model's and the server's record of it."""
    base = f"{table}:hand:{number}"
    return base if redeal == 0 else f"{base}:deal:{redeal + 1}"


def needs_first_leader(variant: Variant) -> bool:
    """Whether a match of ``variant`` needs its first leader drawn by the server: Amigos and Cuban
    do; the draw games find theirs in the deal."""
    return not variant.deal_decides_first_leader


def first_lead_draw(variant: Variant, deal: Deal) -> LeadDraw | None:
    """The draw for the first lead of a match whose first deal is ``deal`` (Cuban: each seat
    draws one of its set-aside tiles, `Variant.first_lead_draw`), or None where the rules have no
    draw. The draw's randomness comes from the deal's key alone (SHA-256 of it under its own
    domain seeds the generator), so once the key is revealed anyone can draw again and check
    both the tiles and the leader; nothing the server chooses later can change it."""
    if deal.key is None:
        raise ValueError("a deal drawn for the lead needs its key")
    seed = hashlib.sha256(LEAD_DRAW_DOMAIN + b"|" + normalise_key(deal.key).encode("ascii")).digest()
    return variant.first_lead_draw(deal, random.Random(seed))


def must_pass(hand: HandState) -> bool:
    """Whether the seat to move in ``hand`` (not over) can only pass: it then passes at once, by the
    system, with no clock (the angry red face)."""
    return hand.legal_actions() == _ONLY_PASS


def computer_asks_reshuffle(hand: Iterable[Tile]) -> bool:
    """A computer player's answer to the offer: it asks for a new deal whenever it was dealt
    enough doubles to be offered one. Why: a double matches a single number, so a hand with five
    of them (half of a ten-tile hand) has few ways to follow and is the weakest kind of start;
    any fresh deal is, on average, better (docs/bots.md, "The Cuban reshuffle")."""
    return sum(1 for tile in hand if tile.is_double) >= RESHUFFLE_DOUBLES


def computer_reshuffle_seat(
    offered: tuple[int, ...],
    computers: Collection[int],
    hands: Sequence[Iterable[Tile]],
    moves: int = 0,
) -> int | None:
    """The seat whose computer player asks for a new deal of the hand just dealt, or None: the
    first, in seat order, of the seats ``offered`` one (Cuban, 5 or more doubles:
    `Match.reshuffle_offer`) that a computer player sits at (``computers``: the real computer
    players' seats) and that may still ask (`hand.may_reshuffle`: ``moves`` made so far, none
    when just dealt) and wants to (`computer_asks_reshuffle`, reading its tiles in ``hands``).

    It answers at once, before anyone moves, as if it had sent the request itself: the deal is
    voided and the hand dealt again, and asked again for that deal, until no computer asks. A seat
    a computer player only holds for an absent person is not in ``computers`` and never asks: the
    person's own answer, not given, is "no" (docs/bots.md, "The Cuban reshuffle"). It is asked in
    one place, the pure table's `deal`, which the server's actor runs as it runs every other
    step."""
    for seat in sorted(offered):
        if seat in computers and may_reshuffle(offered, seat, moves) and computer_asks_reshuffle(hands[seat]):
            return seat
    return None


def deal(state: TableState, given: inputs.Deal, now: float, effects: list[Effect]) -> TableState:
    """Deal the hand the server keyed (`hand.deal_hand`; the first
    hand's leader checked first): publish its commitment and start the first turn. When a
    computer player asks for a new deal at once (`computer_reshuffle_seat`), the deal is voided
    as its request would void it (`void`: `HandVoided`, then `DealNeeded` for the same hand)."""
    if state.phase is not Phase.DEALING:
        raise TableError("wrong_phase", "no hand is waiting to be dealt")
    if state.deal_at is not None:
        raise TableError("wrong_phase", "the pause between hands is not over")
    variant = state.variant
    match = state.match
    if match is None:
        leader = given.leader
        if needs_first_leader(variant):
            if leader is None:
                raise TableError("leader_required", f"{variant.name} needs the first leader")
            if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < variant.players:
                raise TableError("bad_leader", f"no seat {leader!r} to lead")
        else:
            leader = None
        match = Match.new(variant, state.config.names, leader)
    dealt = deal_hand(match, given.key, lambda number: hand_id(state.config.table_id, number, state.redeal))
    hand = HandInPlay(
        number=dealt.number,
        key=dealt.key,
        commitment=dealt.commitment,
        started=now,
        state=dealt.state,
        redeal=state.redeal,
        reshuffle=dealt.offer,
        dealt=dealt,
    )
    effects.append(HandStarted(dealt.number, dealt.state.leader, dealt.commitment))
    effects.extend(ReshuffleOffered(seat) for seat in dealt.offer)
    state = replace(state, phase=Phase.PLAYING, match=match, hand=hand, clock=None)
    computers = [seat for seat, info in enumerate(state.seats) if info.is_computer]
    asking = computer_reshuffle_seat(dealt.offer, computers, dealt.deal.hands)
    if asking is not None:
        return void(state, asking, effects)
    return begin_turn(state, now, effects)


def play_refusal(*, playing: bool, held_by_computer: bool, paused: bool) -> str | None:
    """Why a person's move, or request for a new deal, is refused by where the table stands (a
    protocol code), or None: the match must be under way (``playing``: a hand, or between two), no
    computer player may hold the seat (an absent player does not move), and the table must not wait
    for an absent player; asked in that order. Then the hand decides (no hand in play, the turn,
    the tile). The server's actor asks this too, after its own checks of who sent the command
    and which version they saw (``not_seated``, ``stale_version``)."""
    if not playing:
        return "not_playing"
    if held_by_computer:
        return "held_by_computer"
    if paused:
        return "table_paused"
    return None


def _refuse_play(state: TableState, seat: int, by_computer: bool = False) -> None:
    """`play_refusal` for ``seat``'s command (a computer player's own move holds its seat)."""
    refusal = play_refusal(
        playing=state.phase in (Phase.DEALING, Phase.PLAYING),
        held_by_computer=state.seats[seat].held_by_computer and not by_computer,
        paused=state.paused,
    )
    if refusal is not None:
        raise TableError(refusal, f"seat {seat} may not play now")


def reshuffle(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """Cuban: a seat dealt 5 or more doubles asks for a new deal before anyone moved. The deal is
    voided (its key revealed: `hand.void_deal`) and the same
    hand is dealt again, under a new hand identity."""
    _refuse_play(state, seat)
    return void(state, seat, effects)


def void(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """``seat``'s request for a new deal voids the deal in play (`hand.void_deal`, which refuses
    it with ``no_reshuffle`` when the seat may not ask), and the same hand is needed again
    (`DealNeeded`). A person's request reaches here through `reshuffle`, after the table's
    checks of the sender; a computer player's straight from `deal`, for it sends no command."""
    hand = state.hand
    in_play = None
    if state.phase is Phase.PLAYING and hand is not None:
        identity = hand_id(state.config.table_id, hand.number, hand.redeal)
        in_play = DealInPlay(hand.key, identity, hand.commitment, hand.reshuffle, len(hand.moves))
    voided = void_deal(in_play, seat)
    assert hand is not None
    effects.append(HandVoided(hand.number, voided))
    effects.append(DealNeeded(hand.number))
    return replace(state, phase=Phase.DEALING, hand=None, clock=None, redeal=hand.redeal + 1)


def move(state: TableState, given: inputs.Move, now: float, effects: list[Effect]) -> TableState:
    """A move from a seat: checked by where the table stands (`play_refusal`), then by who plays the
    seat (``computer_seat``), then by the hand (`hand.apply_move`: a hand in play, the turn, the
    rules, in that order), then laid."""
    seat = given.seat
    _refuse_play(state, seat, given.by_computer)
    if state.seats[seat].plays_itself != given.by_computer:
        raise TableError(
            "computer_seat", f"seat {seat} is played by {'a person' if given.by_computer else 'the computer'}"
        )
    hand = state.hand
    in_play = hand.state if state.phase is Phase.PLAYING and hand is not None else None
    moved = apply_move(in_play, state.match, seat, given.action)
    effects.append(Moved(seat, given.action, now))
    reason = COMPUTER_MOVE if given.by_computer else None
    state = record_move(state, seat, given.action, now, reason, moved)
    return begin_turn(state, now, effects)


def begin_turn(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """Hand the turn on: pass at once for a seat with no legal tile, end a finished hand, or start
    the clock of the seat to move (not while the table waits for an absent player)."""
    while True:
        hand = state.hand
        assert hand is not None
        if hand.state.is_over:
            return end_hand(state, now, effects)
        if state.paused:
            return replace(state, clock=None)
        seat = hand.state.to_move
        if must_pass(hand.state):
            effects.append(SystemPlay(seat, Pass(), SystemReason.AUTO_PASS, now))
            state = record_move(state, seat, Pass(), now, SystemReason.AUTO_PASS.value)
            continue
        computer = state.seats[seat].plays_itself
        clock = start_clock(hand.state, state.config, now, computer)
        effects.append(TurnStarted(seat, clock.situation, clock.budget, now))
        if computer:
            effects.append(ComputerTurn(seat))
        return evolve(state, clock=clock)


def record_move(
    state: TableState,
    seat: int,
    action: Action,
    at: float,
    reason: str | None,
    moved: AppliedMove | None = None,
) -> TableState:
    """Apply ``action`` to the hand (`hand.apply_move`; ``moved``: already applied by the caller, to
    apply it once) and keep it with its time and why the system made it. A move that ends the hand
    leaves the match with the hand added (`end_hand` then tells it)."""
    hand = state.hand
    assert hand is not None
    if moved is None:
        moved = apply_move(hand.state, state.match, seat, action)
    moves = (*hand.moves, MoveStamp(seat, action, at, reason))
    return evolve(state, match=moved.match, hand=evolve(hand, state=moved.after, moves=moves), clock=None)


def end_hand(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """The hand is over: reveal its key, then either ask for the next deal or, at the target,
    end the match and open the vote. The match already counts the hand (`record_move`: the move
    that ended it decided the match after it, `hand.apply_move`)."""
    hand = state.hand
    match = state.match
    assert hand is not None and match is not None and hand.state.outcome is not None
    assert len(match.hands) == hand.number, "the match counts the hand that ended"
    effects.append(HandEnded(hand.number, hand.state.outcome, hand.key, match.score))
    state = replace(state, clock=None)
    if match.is_over:
        effects.append(MatchEnded(Termination.TARGET, match.winner, None, match.official_score))
        seats = tuple(replace(info, vote=None) for info in state.seats)
        until = now + state.config.timing.vote
        return replace(
            state,
            phase=Phase.VOTING,
            seats=seats,
            vote_until=until,
            termination=Termination.TARGET,
            ended=now,
        )
    # The next hand is dealt after the pause between hands (the DEAL deadline: `deal_due`).
    return replace(state, phase=Phase.DEALING, redeal=0, deal_at=next_deal_at(now, state.config.timing))


def next_deal_at(ended: float, timing: Timing) -> float:
    """When the hand after one that ended at ``ended`` is dealt: once the pause between hands is
    over. Asked here, and by a server reading a table back from its log (the row keeps no deal
    deadline while the table waits for an absent player)."""
    return ended + timing.hand_pause


def deal_due(state: TableState, effects: list[Effect]) -> TableState:
    """The pause between hands is over: the server is asked for the next deal."""
    match = state.match
    effects.append(DealNeeded(len(match.hands) + 1 if match is not None else 1))
    return replace(state, deal_at=None)


class Resume(enum.Enum):
    """What a table does once nothing keeps it waiting for an absent player (`resumption`)."""

    NOTHING = "nothing"  # it was not waiting, or it still is, or its clock already runs
    CLOCK = "clock"  # the seat in turn gets a fresh clock
    DEAL = "deal"  # between hands, the pause ran out while it waited: the next hand is dealt now


def resumption(*, in_match: bool, paused: bool, in_hand: bool, clock_running: bool, deal_due: bool) -> Resume:
    """The one rule for going on after a wait, asked by the pure table (`resume_if_ready`) and the
    server's actor: only during a match and once nothing keeps the table waiting; in a hand, a
    fresh clock unless one runs; between hands, the deal at once if its pause ran out meanwhile
    (``deal_due``), else the pause's own deadline deals it later."""
    if not in_match or paused:
        return Resume.NOTHING
    if in_hand:
        return Resume.NOTHING if clock_running else Resume.CLOCK
    return Resume.DEAL if deal_due else Resume.NOTHING


def resume_if_ready(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """Start the clock again when nothing keeps the table waiting any more; between hands, deal
    at once if the pause ran out while the table waited (the deal was held: `Due.HOLD_DEAL`)."""
    resume = resumption(
        in_match=state.phase in (Phase.DEALING, Phase.PLAYING),
        paused=state.paused,
        in_hand=state.phase is Phase.PLAYING,
        clock_running=state.clock is not None,
        deal_due=state.deal_at is not None and state.deal_at <= now,
    )
    if resume is Resume.CLOCK:
        return begin_turn(state, now, effects)
    if resume is Resume.DEAL:
        return deal_due(state, effects)
    return state


def clock_card(state: TableState, at: float, effects: list[Effect]) -> TableState:
    """The clock ran out (or another 5 s passed): a yellow card, and when the next one falls."""
    clock = state.clock
    assert clock is not None and clock.card_at is not None
    if warns_no_block(clock):
        effects.append(Notice(NoticeKind.NO_BLOCKING_SITUATION, clock.seat))
    state = give_card(state, clock.seat, Colour.YELLOW, card_reason(clock), at, effects)
    if state.phase is not Phase.PLAYING:
        return state
    return replace(state, clock=after_card(clock, state.config.timing))


def system_play(state: TableState, at: float, effects: list[Effect]) -> TableState:
    """The system moves for the seat: the single tile at 6 s, the default move after 30 s, or
    for a computer player that did not answer."""
    clock = state.clock
    hand = state.hand
    assert clock is not None and hand is not None
    reason = system_reason(clock.situation)
    action = hand.state.default_action()
    effects.append(SystemPlay(clock.seat, action, reason, at))
    state = record_move(state, clock.seat, action, at, reason.value)
    return begin_turn(state, at, effects)


def gets_fresh_time(conduct: Conduct, in_hand: bool, paused: bool) -> bool:
    """Whether a table a new owner took over (a restart, another process) gives the seat in turn a
    whole clock again, everyone told why (a ``fresh_time`` notice): in a hand under way that does
    not wait for an absent player, at a live table. A correspondence table keeps its day as
    stored: a restart is no reason for another day. The server's actor asks this too."""
    return conduct is not Conduct.CORRESPONDENCE and in_hand and not paused


class Restart(enum.Enum):
    """What a table does when a new owner has rebuilt it (a restart, another process taking it over)."""

    START = "start"  # every seat accepted and no button is awaited (a rematch's table): the match starts
    AWAIT_START = "await_start"  # the organizer's button is awaited: its window runs on
    CANCEL = "cancel"  # not every seat accepted and no invitation is open: it can never start
    FRESH_TIME = "fresh_time"  # the seat in turn gets a whole clock again (`gets_fresh_time`)
    NOTHING = "nothing"


def on_restart(
    phase: Phase,
    *,
    everyone_accepted: bool,
    awaits_start: bool,
    invitations_open: bool,
    conduct: Conduct,
    paused: bool,
) -> Restart:
    """What a table rebuilt by a new owner does at once. Before the match: one whose seats have all
    accepted starts, unless it waits for the organizer's button (whose window runs on); one that
    can no longer start (an invitation refused or lapsed, the table never cancelled) is cancelled.
    In a hand: fresh time for the seat in turn (`gets_fresh_time`). The server's actor asks this
    when it is rebuilt (`_resume`), the pure table on `TakeOver`."""
    if phase is Phase.INVITING:
        if everyone_accepted:
            return Restart.AWAIT_START if awaits_start else Restart.START
        return Restart.NOTHING if invitations_open else Restart.CANCEL
    if gets_fresh_time(conduct, phase is Phase.PLAYING, paused):
        return Restart.FRESH_TIME
    return Restart.NOTHING


def heard_again(state: TableState, now: float) -> TableState:
    """A new owner rebuilt the table: the present seats' silence counts from now."""
    seats = tuple(replace(info, last_seen=now) if info.away_since is None else info for info in state.seats)
    return replace(state, seats=seats)


def fresh_time(state: TableState, now: float, effects: list[Effect]) -> TableState:
    """The seat in turn starts its clock again, everyone told why (a ``fresh_time`` notice)."""
    hand = state.hand
    assert hand is not None
    effects.append(Notice(NoticeKind.FRESH_TIME, hand.state.to_move))
    return begin_turn(replace(state, clock=None), now, effects)
