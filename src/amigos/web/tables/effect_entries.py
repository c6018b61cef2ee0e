"""The log entries a live table stores, written from the pure table's effects (issue 37).

Why this exists: the pure model (`amigos.table.advance`) is the one place with a table's rules,
and the actor runs it and keeps only I/O (`actor_decide`), so the entries it stores come from what
the model decided. `entries_of` writes them: from one step of the pure table (the state before,
the state after, the effects it gave) and what only the server knows (`EntryContext`: accounts,
names, the card ladder's counts, the wall clock's origin, the table's identity), the entries the
table stores for that step, in order. tests/web/tables/test_effect_entries_agree.py plays the same
inputs at a live actor and at a pure table of its own and requires the same rows.

Rule decisions stay out: each entry is spelt by its writer
(`entry_writing`: `move_entries`, `hand_started_entry`, `hand_ended_entry`, `match_ended_entry`,
`hand_voided_entry`, `legal_plays`), from what the model decided; moments by `rendering.iso`.

The moves of a step are the model's (its `Moved` and `SystemPlay` effects, the hand's
`MoveStamp`s), but a move's entries need the hand before and after it: the state before the step
(``before.hand.state``, or the hand dealt in the step) is the first move's before, the hand after
the step (``after.hand.state``, kept by the model until the next deal even once the hand is over:
`flow.end_hand`) is the last move's after, and only a move in between is applied again by the
engine (`HandState.apply`, some 15 µs a move; most steps hold one move, which costs none). The
alternative, the model's effects carrying each move's placement, points and tiles drawn, would put
tiles into effects, which the model keeps out of them (a drawn tile is one seat's secret).

What the effects lack, found here elsewhere (each a candidate for the effect to carry):
* `Moved`/`SystemPlay`: the placement, the points, the ends, the tiles drawn (`Played`, `Drew`):
  read from the hand before and after the move (above); a computer player's move (reason
  "computer"): read from the seat before the step.
* `HandStarted`: the key, the hands, the boneyard, the draw for the first lead: from the deal the
  hand in play after the step keeps (`HandInPlay.dealt`, as the model dealt it); a deal voided in
  its own step (its key revealed by its `HandVoided`) is derived again from its key
  (`amigos.table.hand.deal_hand`). `MatchStarted` has no effect at all: written with the match's
  first deal.
* `HandEnded`/`MatchEnded`: the sheet with the players' names (the model's match names its
  accounts); `MatchEnded` the moment it ended and the vote's deadline: from the state after.
* `Notice` of a seat away: since when and its window's end (`Disconnected`): from the state after.
* `CardGiven`: the account and its counts on the ladder; `VoteResult`: the next table: context.
* Hands' identities and commitments use the server's table identity (`EntryContext.table_id`),
  which the model's ``config.table_id`` must equal once the actor runs it.
* An accepted invitation (`InvitationAccepted`): the seat as every page draws it (`seat_json`),
  its computer level from the context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from amigos.engine import Action, HandState, Match, Termination
from amigos.engine.deal import commitment
from amigos.engine.trail import VoidedDeal
from amigos.table import effects as fx
from amigos.table import first_lead_draw, hand_id
from amigos.table.hand import deal_hand
from amigos.table.model import DealtHand, HandInPlay, TableState, VoteChoice
from amigos.table.presence import window
from amigos.web.tables import log_entries as le
from amigos.web.tables.actor_clock import WORDS
from amigos.web.tables.actor_types import HOLDING_LEVEL
from amigos.web.tables.actor_votes import VOTE_WORDS
from amigos.web.tables.entry_writing import (
    hand_ended_entry,
    hand_started_entry,
    hand_voided_entry,
    legal_plays,
    match_ended_entry,
    move_entries,
    seat_json,
)
from amigos.web.tables.rendering import iso, match_name


@dataclass(frozen=True)
class EntryContext:
    """What only the server knows about a table, for `entries_of`.

    ``origin``: the wall-clock moment the model's second 0 stands for (the model counts seconds,
    the protocol writes ISO moments). ``table_id`` and ``match_number``: the server's table and
    match, which name its hands (`Game.record_table`). ``names``: each seat's name as the match
    records it (the actor's seat labels). ``user_ids``: each seat's account (None: a computer).
    ``cards``: each seat's counts by colour as the server keeps them (from its Card rows) before
    the step; a card given adds to a copy. ``next_table_id``: the table a vote created (the server
    makes it while closing the vote; the model cannot know it)."""

    origin: datetime
    table_id: int
    match_number: int
    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    cards: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    next_table_id: int | None = None
    # Each seat's computer level ("" for a person's seat), as a seat's description names it.
    levels: tuple[str, ...] = ()

    def at(self, seconds: float) -> str:
        """A model moment as the protocol writes it."""
        return iso(self.origin + timedelta(seconds=seconds)) or ""

    @property
    def record_table(self) -> str:
        """The match's identity in its record, under which its hands are named (`hand_id`): the
        server's table and match, as `Game.record_table` spells it."""
        return match_name(self.table_id, self.match_number)


#: The effects of a move (a seat's own, or the system's for it).
_MOVES = (fx.Moved, fx.SystemPlay)

#: The effects that write no entry (`ReshuffleOffered` is told with `HandStarted.reshuffle`,
#: `HandEnded` with the move that ended the hand), asked third: a deadline follows nearly every
#: move, and went down the whole chain of kinds.
_SILENT = frozenset(
    {
        fx.Deadline,
        fx.InvitationSent,
        fx.StartAwaited,
        fx.TableReady,
        fx.DealNeeded,
        fx.ReshuffleOffered,
        fx.HandEnded,
        fx.ComputerTurn,
        fx.BackToLobby,
    }
)


def entries_of(
    before: TableState, after: TableState, effects: Sequence[fx.Effect], context: EntryContext
) -> list[le.LogEntry]:
    """The entries the actor stores for the pure table's step from ``before`` to ``after`` that
    gave ``effects``, in the actor's order.

    The effects are read in order, with the hand as the step has left it so far (``state``: its
    moves laid, `_moved`), and which hand it is (``named``: its number, identity, key and
    commitment under the server's table identity, found when its end is written)."""
    hand = before.hand
    state = None if hand is None else hand.state
    # How many moves the hand in play holds so far, and the hand after the step when it is that
    # same hand (its state is then the state after the step's last move: `_moved`).
    count = 0 if hand is None else len(hand.moves)
    final = after.hand
    if final is not None and (hand is None or (final.number, final.redeal) != (hand.number, hand.redeal)):
        final = None
    named: tuple[int, str, str, str] | None = None
    # Deals voided so far of the hand to be dealt, or of the hand in play (they name its deal).
    redeal = before.redeal
    opening = before.match is None
    keys: list[str] | None = None
    # The ladder's counts as the step's cards leave them (copied at the first card: most steps give none).
    cards: dict[int, dict[str, int]] | None = None
    entries: list[le.LogEntry] = []
    for effect in effects:
        if isinstance(effect, _MOVES):
            assert state is not None
            count += 1
            seat, action = effect.seat, effect.action
            after_move = _moved(state, seat, action, final, count)
            at = context.at(effect.at)
            if isinstance(effect, fx.Moved):
                mark = "computer" if before.seats[seat].plays_itself else None
                entries += move_entries(seat, action, state, after_move, at, False, mark)
            else:
                entries += move_entries(seat, action, state, after_move, at, True, effect.reason.value)
            state = after_move
            if after_move.outcome is not None:
                if named is None:
                    assert hand is not None
                    named = _named(hand, context.record_table)
                entries += _hand_ended(named, after_move, after, context, at)
        elif isinstance(effect, fx.TurnStarted):
            assert state is not None
            seconds = int(effect.seconds)
            entries.append(
                le.TurnClockShown(
                    effect.seat,
                    context.at(effect.at + seconds),
                    seconds,
                    WORDS[effect.situation],
                    legal_plays(state, effect.seat),
                )
            )
        elif type(effect) in _SILENT:
            continue
        elif isinstance(effect, fx.HandStarted):
            assert after.match is not None
            if opening:
                # The model begins the match with its first deal; the actor's entry says so first.
                opening = False
                started = context.at(after.hand.started if after.hand is not None else after.now)
                leader = after.match.first_leader
                entries.append(le.MatchStarted(context.match_number, tuple(context.names), leader, started))
            if keys is None:
                keys = _deal_keys(after, effects)
            key = keys.pop(0)
            # The match the hand is dealt in (its number, its leader): the model's before the step,
            # or the one it began with this deal.
            match = before.match or Match.new(before.variant, after.match.players, after.match.first_leader)
            dealt = _model_deal(after.hand, key, match, context.record_table, redeal)
            drawn = None
            if dealt.number == 1 and redeal == 0 and before.variant.draws_for_first_lead:
                drawn = first_lead_draw(before.variant, dealt.deal)
            entries.append(hand_started_entry(dealt, before.variant.draws, drawn, context.at(after.now)))
            state, count = dealt.state, 0
            named = (dealt.number, dealt.hand_id, dealt.key, dealt.commitment)
            final = after.hand
            if final is not None and (final.number, final.redeal) != (dealt.number, redeal):
                final = None
        elif isinstance(effect, fx.HandVoided):
            identity = hand_id(context.record_table, effect.number, redeal)
            voided = VoidedDeal(effect.seat, effect.key, identity, commitment(effect.key, identity))
            entries.append(hand_voided_entry(effect.number, voided))
            redeal += 1
            state, named, final = None, None, None
        elif isinstance(effect, fx.CardGiven):
            if cards is None:
                cards = {seat: dict(counts) for seat, counts in context.cards.items()}
            counts = cards.setdefault(effect.seat, le.no_cards())
            counts[effect.colour.value] += 1
            entries.append(
                le.CardGiven(
                    effect.seat,
                    context.user_ids[effect.seat],
                    effect.colour.value,
                    effect.reason.value,
                    dict(counts),
                    effect.practice,
                    context.at(effect.at),
                )
            )
        elif isinstance(effect, fx.Notice):
            entries += _notice(effect, after, context)
        elif isinstance(effect, fx.MatchEnded):
            if effect.termination is not Termination.TARGET:
                # A match run to its target was written with the move that ended it (`_hand_ended`).
                assert after.match is not None
                at = context.at(after.ended if after.ended is not None else after.now)
                match = replace(after.match, players=context.names)
                entries.append(
                    match_ended_entry(effect.termination.value, match, offender=effect.offender, at=at)
                )
        elif isinstance(effect, fx.InvitationAccepted):
            entries.append(le.SeatChanged(_seat(effect.seat, after, context)))
        elif isinstance(effect, fx.SeatHeldByComputer):
            entries.append(le.ComputerHolds(effect.seat, HOLDING_LEVEL))
        elif isinstance(effect, fx.SeatReturned):
            entries.append(le.SeatReturned(effect.seat))
        elif isinstance(effect, fx.VoteCast):
            entries.append(le.VoteCast(effect.seat, VOTE_WORDS[effect.choice], effect.left))
        elif isinstance(effect, fx.VoteResult):
            chosen = effect.choice is not VoteChoice.LOBBY
            entries.append(
                le.VotesClosed(VOTE_WORDS[effect.choice], context.next_table_id if chosen else None)
            )
        elif isinstance(effect, fx.TableCancelled):
            entries.append(le.TableCancelled(effect.reason.value))
    if after.vote_until is not None and before.vote_until is None:
        # The match's end tells when the vote closes.
        deadline = context.at(after.vote_until)
        entries = [
            replace(entry, votes_deadline=deadline) if isinstance(entry, le.MatchEnded) else entry
            for entry in entries
        ]
    return entries


def _seat(number: int, after: TableState, context: EntryContext) -> dict[str, Any]:
    """Seat ``number`` as the step left it, described as every page draws it (`seat_json`)."""
    info = after.seats[number]
    since = info.away_since
    until = None if since is None else since + window(after.config.conduct, after.config.timing)
    return seat_json(
        number,
        after.variant,
        after.config.organizer,
        user_id=context.user_ids[number],
        name=context.names[number],
        level=context.levels[number] if number < len(context.levels) else "",
        away=since is not None,
        held_by_computer=info.held_by_computer,
        invitation=info.invitation.value,
        reconnect_deadline=None if until is None else context.at(until),
        cards=context.cards.get(number),
    )


def _moved(state: HandState, seat: int, action: Action, final: HandInPlay | None, count: int) -> HandState:
    """The hand after ``seat``'s ``action`` in ``state``, the ``count``-th move of its hand. The
    hand after the step (``final``, when it is this hand) is the state after its last move; any
    other move is applied again by the engine (the model applied it already, and keeps only the
    step's last state)."""
    if final is not None and count == len(final.moves):
        return final.state
    return state.apply(action, seat)


def _namer(table: str, redeal: int) -> Callable[[int], str]:
    """How `deal_hand` names a hand by its number: after ``redeal`` voided deals of it."""
    return lambda number: hand_id(table, number, redeal)


def _model_deal(hand: HandInPlay | None, key: str, match: Match, table: str, redeal: int) -> DealtHand:
    """The deal of ``key`` in ``match`` after ``redeal`` voided deals, named under the server's
    table identity ``table``: the model's own (``hand.dealt``) when the hand in play after the step
    is that deal under that name, which is nearly always; else dealt again from its key, as the
    model dealt it (a deal a computer player voided in the step that dealt it leaves no hand in
    play; a hand may be built without its deal)."""
    dealt = None if hand is None else hand.dealt
    if dealt is not None and dealt.key == key and dealt.hand_id == hand_id(table, dealt.number, redeal):
        return dealt
    return deal_hand(match, key, _namer(table, redeal))


def _named(hand: HandInPlay, table: str) -> tuple[int, str, str, str]:
    """The deal of ``hand`` as the server names it: its number, identity and commitment under the
    server's table identity ``table`` (the model's bind its own ``config.table_id``, the same once
    the actor runs the model: its commitment is then taken as the model made it), and the key."""
    identity = hand_id(table, hand.number, hand.redeal)
    dealt = hand.dealt
    if dealt is not None and dealt.hand_id == identity:
        return hand.number, identity, hand.key, dealt.commitment
    return hand.number, identity, hand.key, commitment(hand.key, identity)


def _hand_ended(
    named: tuple[int, str, str, str], final: HandState, after: TableState, context: EntryContext, at: str
) -> list[le.LogEntry]:
    """The entries of the hand ``named`` ending ``final`` at ``at`` (the last move's moment): its
    end, and the match's when the hand took it to its target. The model's match after the step
    counts the hand (a move that ends a hand is the step's last); its sheet shows the server's
    names for the seats."""
    assert after.match is not None
    match = replace(after.match, players=context.names)
    number, identity, key, commit = named
    entries: list[le.LogEntry] = [hand_ended_entry(number, identity, key, commit, final, match)]
    winner = match.winner  # None for a match stopped unfinished: its end is its own effect's
    if winner is not None:
        entries.append(match_ended_entry("target", match, winner=winner, at=at))
    return entries


def _deal_keys(after: TableState, effects: Sequence[fx.Effect]) -> list[str]:
    """The key of each deal of the step, in order: a voided deal's is revealed by its `HandVoided`,
    the last one is the hand in play after the step."""
    keys: list[str] = []
    for effect in effects:
        if isinstance(effect, fx.HandVoided):
            keys.append(effect.key)
    dealt = sum(isinstance(effect, fx.HandStarted) for effect in effects)
    if dealt > len(keys) and after.hand is not None:
        keys.append(after.hand.key)
    return keys


def _notice(effect: fx.Notice, after: TableState, context: EntryContext) -> list[le.LogEntry]:
    """A notice as the actor stores it: a word to the table, or a seat away or back."""
    kind, seat = effect.kind, effect.seat
    code = le.NOTICE_CODES.get(kind)
    if code is not None:
        return [le.Notice(code, seat)]
    if kind is fx.NoticeKind.PLAYER_BACK:
        assert seat is not None
        return [le.Reconnected(seat)]
    if kind in (fx.NoticeKind.PLAYER_AWAY, fx.NoticeKind.PLAYER_LEFT, fx.NoticeKind.ABANDON):
        # The moment the notice carries: the seat may be back by the step's end (`fx.Notice`).
        since = effect.since
        assert seat is not None and since is not None
        lasts = window(after.config.conduct, after.config.timing)
        return [
            le.Disconnected(seat, context.at(since), context.at(since + lasts), kind is fx.NoticeKind.ABANDON)
        ]
    # The invitations' notices: the actor writes `InvitationRefused` with the account's name.
    assert seat is not None
    reason = "refused" if kind is fx.NoticeKind.INVITATION_REFUSED else "expired"
    return [le.InvitationRefused(seat, context.user_ids[seat], context.names[seat], reason)]
