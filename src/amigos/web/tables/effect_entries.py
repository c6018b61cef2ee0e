"""The log entries a live table stores, written from the pure table's effects (issue 37).

Why this exists: the table actor still decides a table's rules by itself and writes its typed log
entries (`log_entries`) as it goes. The pure model (`amigos.table.advance`) is meant to be the
one place with those rules; for the actor to run `advance` and keep only I/O, the entries it
stores must come from what the model decided. `entries_of` is that brick: from one step of the
pure table (the state before, the state after, the effects it gave) and what only the server knows
(`EntryContext`: accounts, names, the card ladder's counts, the wall clock's origin, the table's
identity), it writes the entries the actor writes today for the same step, in the same order.
Nothing in production calls it yet (tests/web/tables/test_effect_entries_agree.py keeps it equal
to the actor's rows, step by step).

Rule decisions stay out: a move's entries are written by the actor's own writer (`Game.act`,
replaying the model's moves on a scratch `Game` set to the state before the step), a deal's by
`Game.deal`, a turn clock's legal plays by `game.legal_plays`, moments by `rendering.iso`.

What the effects lack, found here elsewhere (each a candidate for the effect to carry):
* `Moved`/`SystemPlay`: the placement, the points, the ends, the tiles drawn (`Played`, `Drew`):
  the move is applied again (`apply_move`); a computer player's move (reason "computer"): read
  from the seat before the step.
* `HandStarted`: the key, the hands, the boneyard, the draw for the first lead: from the hand in
  play after the step (or the `HandVoided` that revealed a voided deal's key), the deal derived
  again from its key. `MatchStarted` has no effect at all: written with the match's first deal.
* `HandEnded`/`MatchEnded`: the sheet with the players' names (the model's match names its
  accounts); `MatchEnded` the moment it ended and the vote's deadline: from the state after.
* `Notice` of a seat away: since when and its window's end (`Disconnected`): from the state after.
* `CardGiven`: the account and its counts on the ladder; `VoteResult`: the next table: context.
* Hands' identities and commitments use the server's table identity (`EntryContext.table_id`),
  which the model's ``config.table_id`` must equal once the actor runs it.
* An accepted invitation has no effect: its `SeatChanged` is not written here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from amigos.engine import Match, Termination, deal_from_key
from amigos.engine.deal import commitment
from amigos.engine.trail import VoidedDeal
from amigos.table import effects as fx
from amigos.table import first_lead_draw, hand_id
from amigos.table.model import TableState, VoteChoice
from amigos.table.presence import window
from amigos.web.tables import log_entries as le
from amigos.web.tables.actor_clock import WORDS
from amigos.web.tables.actor_votes import VOTE_WORDS
from amigos.web.tables.entry_writing import legal_plays
from amigos.web.tables.game import Game, HandLog
from amigos.web.tables.rendering import iso

#: The protocol's word for each notice the actor stores as a `Notice` entry.
NOTICE_CODES: dict[fx.NoticeKind, str] = {
    fx.NoticeKind.NO_BLOCKING_SITUATION: "no_blocking",
    fx.NoticeKind.FRESH_TIME: "fresh_time",
}

#: The level the actor names for a computer player holding an absent player's seat
#: (`PresenceMixin._window_lapsed`).
HOLDING_LEVEL = "normal"


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

    def at(self, seconds: float) -> str:
        """A model moment as the protocol writes it."""
        return iso(self.origin + timedelta(seconds=seconds)) or ""


def _scratch(before: TableState, after: TableState, context: EntryContext) -> Game:
    """A `Game` standing where ``before`` stands, so the actor's own writers (`Game.act`,
    `Game.deal`, `Game.reshuffle`, `Game.end_match`) write this step's entries."""
    game = Game(context.table_id, before.variant, context.names, match_number=context.match_number)
    # The match as the server names its players (the model's holds account identifiers): the
    # score sheet an entry carries shows these names.
    game.match = None if before.match is None else replace(before.match, players=context.names)
    if game.match is None and after.match is not None:
        # The model begins the match with its first deal.
        game.match = Match.new(before.variant, context.names, after.match.first_leader)
    hand = before.hand
    if hand is not None:
        game.hand = hand.state
        identity = hand_id(game.record_table, hand.number, hand.redeal)
        game.hands = [
            HandLog(
                number=hand.number,
                id=identity,
                key=hand.key,
                # Bound to the server's identity of the hand (the model's binds its own
                # ``config.table_id``, which is the same once the actor runs the model).
                commitment=commitment(hand.key, identity),
                start=hand.state,
                offered=hand.reshuffle,
            )
        ]
        # Each voided deal counts in the next deal's identity (`Game.deal`).
        game.voided = {hand.number: [_VOID] * hand.redeal} if hand.redeal else {}
    elif before.redeal:
        number = len(before.match.hands) + 1 if before.match is not None else 1
        game.voided = {number: [_VOID] * before.redeal}
    return game


#: A stand-in for a deal voided before the step (only their number counts here).
_VOID = VoidedDeal(seat=0, key="", hand_id="", commitment="")


def entries_of(
    before: TableState, after: TableState, effects: Sequence[fx.Effect], context: EntryContext
) -> list[le.LogEntry]:
    """The entries the actor stores for the pure table's step from ``before`` to ``after`` that
    gave ``effects``, in the actor's order."""
    game = _scratch(before, after, context)
    cards = {seat: dict(counts) for seat, counts in context.cards.items()}
    keys = _deal_keys(before, after, effects)
    entries: list[le.LogEntry] = []
    for effect in effects:
        if isinstance(effect, fx.Moved):
            computer = before.seats[effect.seat].plays_itself
            reason = "computer" if computer else None
            entries += game.act(effect.seat, effect.action, at=context.at(effect.at), reason=reason)
        elif isinstance(effect, fx.SystemPlay):
            entries += game.act(
                effect.seat, effect.action, at=context.at(effect.at), system=True, reason=effect.reason.value
            )
        elif isinstance(effect, fx.HandStarted):
            if before.match is None and not game.hands and not game.voided:
                # The model begins the match with its first deal; the actor's entry says so first.
                assert after.match is not None
                game.match_number = context.match_number - 1
                started = after.hand.started if after.hand is not None else after.now
                entries += game.start_match(after.match.first_leader, at=context.at(started))
            key = keys.pop(0)
            drawn = None
            if effect.number == 1 and not game.voided.get(1) and before.variant.draws_for_first_lead:
                drawn = first_lead_draw(before.variant, deal_from_key(key, before.variant))
            entries += game.deal(key, drawn)
        elif isinstance(effect, fx.HandVoided):
            entries += game.reshuffle(effect.seat)
        elif isinstance(effect, fx.TurnStarted):
            state = game.hand
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
        elif isinstance(effect, fx.CardGiven):
            counts = cards.setdefault(effect.seat, {"yellow": 0, "blue": 0, "red": 0})
            counts[effect.colour.value] += 1
            entries.append(
                game.give_card(
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
                # A match run to its target was written with the move that ended it (`Game.act`).
                at = after.ended if after.ended is not None else after.now
                entries += game.end_match(effect.termination.value, effect.offender, at=context.at(at))
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
        # Deadline, InvitationSent, StartAwaited, TableReady, DealNeeded, ReshuffleOffered (told
        # with `HandStarted.reshuffle`), ComputerTurn and BackToLobby write no entry.
    if after.vote_until is not None and before.vote_until is None:
        # The match's end tells when the vote closes (`VotesMixin._after_match`).
        deadline = context.at(after.vote_until)
        entries = [
            replace(entry, votes_deadline=deadline) if isinstance(entry, le.MatchEnded) else entry
            for entry in entries
        ]
    return entries


def _deal_keys(before: TableState, after: TableState, effects: Sequence[fx.Effect]) -> list[str]:
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
    code = NOTICE_CODES.get(kind)
    if code is not None:
        return [le.Notice(code, seat)]
    if kind is fx.NoticeKind.PLAYER_BACK:
        assert seat is not None
        return [le.Reconnected(seat)]
    if kind in (fx.NoticeKind.PLAYER_AWAY, fx.NoticeKind.PLAYER_LEFT, fx.NoticeKind.ABANDON):
        assert seat is not None
        since = after.seats[seat].away_since
        assert since is not None
        lasts = window(after.config.conduct, after.config.timing)
        return [
            le.Disconnected(seat, context.at(since), context.at(since + lasts), kind is fx.NoticeKind.ABANDON)
        ]
    # The invitations' notices: the actor writes `InvitationRefused` with the account's name.
    assert seat is not None
    reason = "refused" if kind is fx.NoticeKind.INVITATION_REFUSED else "expired"
    return [le.InvitationRefused(seat, context.user_ids[seat], context.names[seat], reason)]
