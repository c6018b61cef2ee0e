"""A live table's `TableState` read back from what the server stores: the table row, its seats,
its cards and the current match's log.

Why: the table actor is to keep one `amigos.table.TableState` and run `advance` on it (issue 37,
"one live table"), and a restarted actor must then find that state again in the database. This
module is that reading and nothing else: every rule stays in `amigos.table` (a hand is dealt with
`hand.deal_hand`, its moves laid with `hand.apply_move`, the turn clock made by `clock.turn_clock`
and its cards by `clock.after_card`, as `game.Game.replay` does), and where a stored fact does not
say something the model keeps, the value the actor's own restart assumes is used and named below.
The actor starts its pure table from it (`actor_model`) whenever it is built: at a process's
start, when it takes a table over, and after a failed write.

Times. The model counts float seconds; here they are seconds since ``origin``, a moment the
caller chooses and keeps for the table's life (the actor will choose it; the table's creation is
the natural one, since `TableState.opened` is then 0.0, which is what this reader sets it to).

What the stored log cannot know, set as the actor sets it when it is rebuilt (`TableActor.__init__`):

* ``SeatState.last_seen``: every seat counts as heard from ``now`` (the pure table's `TakeOver`
  does the same for the present seats, `flow.heard_again`; an away seat keeps its old moment
  there, which no log entry carries).
* ``SeatState.page_open``: no page is joined to a process that just started; a seat not away is
  taken as having one (True), as the actor counts it present, and an away seat as having none.
* ``SeatState.vote_absent_since``: None (the actor's ``vote_left`` starts empty; pages closing
  during the vote are not logged).
* ``TableState.opened``: 0.0, the ``origin`` (the table row's creation is not in `store.Loaded`).
* ``TableState.now``: ``now``.

And facts read indirectly, for the log has no entry of their own:

* ``HandInPlay.started``: the ``hand_started`` entry's ``at``. A log of an older version lacks
  it: then the start of the hand's first turn clock (`TurnClockShown`: its deadline less its
  seconds), which both tables start at the deal's moment; without any clock shown (none yet),
  ``now``.
* ``TableState.clock``: made again (`clock.turn_clock`, its situation judged again from the hand)
  from the last ``turn_clock`` entry's start, its deadline less its seconds. The entry keeps whole
  seconds and milliseconds: exact for the specs' durations, not for a fractional `Timing`.
* ``TableState.deal_at``: the table row's deadline when it is the deal's. While the table waits
  for an absent player between hands the model leaves the held deal out of the table's deadline
  (`advance.table_deadline`), so the row has none: the deal is then due the pause between hands
  after the hand's last move (`flow.next_deal_at`, as `flow.end_hand` sets it), read from the
  log. A table rebuilt in that wait once lost its deal and stayed between hands for good after
  the player came back (a chaos run across hosts found it).
* ``SeatState.yellow``/``blue``/``red``: the ``card`` entries of this match's log, counted. Not
  the `Card` rows (`Loaded.cards`): a practice card (a table with a computer player) is logged but
  never stored as a row, while the model counts it (the actor's restart adds those from the log).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from amigos.engine import Action, HandState, Match, Pass, Play, Termination, Tile, find_variant
from amigos.engine.actions import Arm
from amigos.table import (
    HandInPlay,
    Invitation,
    Mode,
    MoveStamp,
    Phase,
    SeatState,
    TableConfig,
    TableState,
    Timing,
    TurnClock,
    hand_id,
    needs_first_leader,
)
from amigos.table.clock import after_card, turn_clock
from amigos.table.flow import next_deal_at
from amigos.table.hand import apply_move, deal_hand
from amigos.web.tables import log_codec, log_facts, store
from amigos.web.tables.actor_types import phase_of
from amigos.web.tables.game import epoch, system_reason
from amigos.web.tables.log_entries import (
    HandEnded,
    HandStarted,
    HandVoided,
    LogEntry,
    MatchEnded,
    MatchStarted,
    Passed,
    Played,
    TableCancelled,
    TurnClockShown,
    VotesClosed,
)
from amigos.web.tables.rendering import match_name

#: A seat's invitation as its row spells it (anything else, such as "expired", did not come).
INVITATIONS = {"pending": Invitation.PENDING, "accepted": Invitation.ACCEPTED}


#: The table row's ``deadline_kind`` values this reader turns into the model's own deadlines.
START_KIND, DEAL_KIND, VOTES_KIND = "start", "deal", "votes"


def config_of(loaded: store.Loaded, timing: Timing) -> TableConfig:
    """The table's configuration: its variant, its players by seat (account ids as text, None for
    a computer player), its organizer's seat and mode. ``table_id`` is the identity the server's
    record gives this match (`Game.record_table`), under which every hand's key is committed; a
    table whose match has not started (match number 0) names the one it will play, the first."""
    variant = find_variant(loaded.variant, loaded.players)
    players = tuple(None if row.user_id is None else str(row.user_id) for row in loaded.seats)
    organizer = next((row.number for row in loaded.seats if row.user_id == loaded.organizer_id), 0)
    mode = Mode.CORRESPONDENCE if loaded.kind == "correspondence" else Mode.LIVE
    return TableConfig(
        table_id=match_name(loaded.id, max(loaded.match_number, 1)),
        variant=variant,
        players=players,
        organizer=organizer,
        mode=mode,
        timing=timing,
    )


class _Reader:
    """The current match's log read entry by entry into the model's pieces."""

    def __init__(self, config: TableConfig, origin: float, seconds: float) -> None:
        self.config = config
        self.origin = origin  # the origin, in seconds since the epoch
        self.seconds = seconds  # `now`, in seconds since the origin
        count = len(config.players)
        self.match: Match | None = None
        self.first_leader: int | None = None
        self.hand: HandInPlay | None = None
        self.redeal = 0
        self.first_clock: float | None = None
        self.dealt_at: float | None = None
        # Each seat's presence, vote and cards, and the turn clock last shown (`log_facts`).
        self.facts = log_facts.LogFacts([log_facts.SeatFacts() for _ in range(count)])
        self.ended: MatchEnded | None = None
        self.votes_closed = False
        self.cancelled = False

    def at(self, moment: str | None) -> float | None:
        """A logged moment (ISO 8601) in seconds since the origin."""
        return None if moment is None else epoch(moment) - self.origin

    def read(self, entry: LogEntry) -> None:
        log_facts.read_one(self.facts, entry)
        if isinstance(entry, MatchStarted):
            self.first_leader = entry.first_leader
        elif isinstance(entry, HandStarted):
            self._dealt(entry)
        elif isinstance(entry, HandVoided):
            assert self.hand is not None, "a deal voided with no hand in play"
            self.redeal = self.hand.redeal + 1
            self.hand = None
        elif isinstance(entry, Played | Passed):
            self._moved(entry)
        elif isinstance(entry, TurnClockShown):
            if self.first_clock is None:
                self.first_clock = self._clock_start(entry)
        elif isinstance(entry, HandEnded):
            self.redeal = 0
        elif isinstance(entry, MatchEnded):
            self.ended = entry
            match = self.match
            if (
                entry.termination
                and entry.termination != "target"
                and match is not None
                and not match.is_over
            ):
                # Stopped short of its target (abandonment, suspension): the match says so too.
                self.match = match.stop(Termination(entry.termination), entry.offender)
        elif isinstance(entry, VotesClosed):
            self.votes_closed = True
        elif isinstance(entry, TableCancelled):
            self.cancelled = True

    def _clock_start(self, entry: TurnClockShown) -> float | None:
        """When the clock ``entry`` shows started: its deadline less its (whole) seconds."""
        deadline = self.at(entry.deadline)
        return None if deadline is None else deadline - entry.seconds

    def _dealt(self, entry: HandStarted) -> None:
        """The deal the entry tells, dealt again as both tables deal (`hand.deal_hand`)."""
        if self.match is None:
            variant = self.config.variant
            # The model's match begins with its first deal, its first leader the deal's.
            leader = entry.leader if needs_first_leader(variant) else None
            self.match = Match.new(variant, self.config.names, leader)
        redeal = self.redeal
        dealt = deal_hand(self.match, entry.key, lambda number: hand_id(self.config.table_id, number, redeal))
        if dealt.commitment != entry.commitment or dealt.state.leader != entry.leader:
            raise ValueError(f"the log's hand {entry.number} is not the deal of its key")
        self.first_clock = None
        # When it was dealt; a log of an older version does not say (`hand_in_play` then takes
        # its first clock's start).
        self.dealt_at = self.at(entry.at)
        self.hand = HandInPlay(
            number=dealt.number,
            key=dealt.key,
            commitment=dealt.commitment,
            started=self.seconds if self.dealt_at is None else self.dealt_at,
            state=dealt.state,
            redeal=redeal,
            reshuffle=entry.reshuffle,
            dealt=dealt,
        )

    def _moved(self, entry: Played | Passed) -> None:
        hand, match = self.hand, self.match
        assert hand is not None and match is not None, "a move with no hand in play"
        action: Action
        if isinstance(entry, Played):
            arm = None if entry.arm is None else Arm(entry.arm)
            action, system = Play(Tile.parse(entry.tile), arm, entry.lead_left), entry.system
        else:
            action, system = Pass(), entry.automatic
        moved = apply_move(hand.state, match, entry.seat, action)
        at = self.at(entry.at)
        stamp = MoveStamp(
            entry.seat,
            action,
            self.seconds if at is None else at,
            system_reason(action, system, entry.reason),
        )
        self.match = moved.match
        self.hand = replace(hand, state=moved.after, moves=(*hand.moves, stamp))

    def held_deal(self, timing: Timing) -> float | None:
        """When the next hand is dealt, read from the log: the pause between hands after the last
        move of the hand that ended (None: no hand ended, or it ended with no move)."""
        hand = self.hand
        if hand is None or not hand.state.is_over or not hand.moves:
            return None
        return next_deal_at(hand.moves[-1].at, timing)

    def hand_in_play(self) -> HandInPlay | None:
        hand = self.hand
        if hand is None or self.dealt_at is not None or self.first_clock is None:
            return hand
        return replace(hand, started=self.first_clock)

    def clock(self, seats: tuple[SeatState, ...], timing: Timing) -> TurnClock | None:
        """The turn clock last shown, if it still runs, with the cards of that turn fallen
        (`clock.turn_clock`, then `clock.after_card` once per card)."""
        shown, hand = self.facts.clock, self.hand
        if shown is None or hand is None or hand.state.is_over:
            return None
        started = self._clock_start(shown)
        if started is None:
            return None
        state: HandState = hand.state
        clock = turn_clock(state, self.config.conduct, timing, started, seats[shown.seat].plays_itself)
        for _ in range(self.facts.clock_cards):
            if clock.card_at is None:
                break
            clock = after_card(clock, timing)
        return clock


def table_state(loaded: store.Loaded, timing: Timing, now: datetime, origin: datetime) -> TableState:
    """The table as the pure model holds it, at ``now``, read from ``loaded`` (`store.load`),
    its times in seconds since ``origin`` (see the module's docstring for the fields the stored
    log cannot know, and what is set in their place)."""
    config = config_of(loaded, timing)
    base = origin.timestamp()
    seconds = now.timestamp() - base
    reader = _Reader(config, base, seconds)
    for _, kind, data in loaded.log:
        reader.read(log_codec.decode(kind, data))
    seats = _seats(loaded, config, reader, seconds)
    hand = reader.hand_in_play()
    phase = phase_of(loaded.status, hand is not None and not hand.state.is_over)
    deadline = None if loaded.deadline_at is None else loaded.deadline_at.timestamp() - base
    kind = loaded.deadline_kind
    invite_until = None
    if phase is Phase.INVITING and kind != START_KIND:
        pending = [
            row.invited_until.timestamp() - base
            for row in loaded.seats
            if row.invitation == "pending" and row.invited_until is not None
        ]
        invite_until = min(pending) if pending else deadline
    ended = reader.ended
    termination = None if ended is None or not ended.termination else Termination(ended.termination)
    deal_at = None
    if phase is Phase.DEALING:
        deal_at = deadline if kind == DEAL_KIND else reader.held_deal(timing)
    return TableState(
        config=config,
        phase=phase,
        seats=seats,
        opened=0.0,
        now=seconds,
        match=reader.match,
        hand=hand,
        clock=reader.clock(seats, timing) if phase is Phase.PLAYING else None,
        vote_until=deadline if phase is Phase.VOTING and kind == VOTES_KIND else None,
        invite_until=invite_until,
        start_until=deadline if phase is Phase.INVITING and kind == START_KIND else None,
        deal_at=deal_at,
        termination=termination,
        offender=None if ended is None else ended.offender,
        ended=None if ended is None else reader.at(ended.at),
        redeal=reader.redeal,
    )


def _seats(loaded: store.Loaded, config: TableConfig, reader: _Reader, now: float) -> tuple[SeatState, ...]:
    seats = []
    for row, player in zip(loaded.seats, config.players, strict=True):
        number = row.number
        facts = reader.facts.seats[number]
        counts = facts.cards
        away = None if facts.away_since is None else reader.at(facts.away_since or None)
        if facts.away_since is not None and away is None:
            away = now  # away, since a moment the entry did not say
        seats.append(
            SeatState(
                player=player,
                invitation=INVITATIONS.get(row.invitation, Invitation.REFUSED),
                last_seen=now,
                away_since=away,
                abandon=facts.abandon if away is not None else False,
                held_by_computer=facts.held,
                yellow=counts["yellow"],
                blue=counts["blue"],
                red=counts["red"],
                vote=facts.vote,
                page_open=away is None,
            )
        )
    return tuple(seats)
