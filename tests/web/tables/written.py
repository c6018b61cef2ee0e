"""A table's log written as the server writes it, with no database: the pure table
(`amigos.table.advance`) takes each input, and `effect_entries.entries_of` writes its step's
entries, as the actor does (`actor_decide`). Tests of what reads a log back (the record's game,
replay, the archive) build their logs here, so the log's rules are the model's alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from amigos.engine import Action, deal_from_key
from amigos.table import (
    Accept,
    AskReshuffle,
    Deal,
    Effect,
    Mode,
    Move,
    Phase,
    Start,
    TableInput,
    Tick,
    Timing,
    advance,
    first_lead_draw,
    open_table,
)
from amigos.web.tables.effect_entries import EntryContext, entries_of
from amigos.web.tables.log_entries import CardGiven, LogEntry
from amigos.web.tables.rendering import match_name
from tests.table.helpers import config

#: The moment the table opens. The pure table counts seconds since the Unix epoch here, so its own
#: record's times are the server's (`amigos.table.record` writes the model's seconds).
ORIGIN = datetime(2026, 11, 23, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass
class Written:
    """A table run by the pure table from its opening, every input's entries kept in ``log``.
    ``players``: each seat's account (None: a computer player)."""

    variant: str
    players: Sequence[str | None]
    table_id: int = 7
    match_number: int = 1
    mode: Mode = Mode.LIVE
    timing: Timing = field(default_factory=lambda: Timing(heartbeat_timeout=1e9))
    log: list[LogEntry] = field(default_factory=list)
    now: float = 0.0
    # The effects of the last input (for a test that follows the pure table's own record too).
    effects: list[Effect] = field(default_factory=list)

    def __post_init__(self) -> None:
        organizer = next(seat for seat, player in enumerate(self.players) if player is not None)
        cfg = config(self.variant, self.players, mode=self.mode, organizer=organizer, timing=self.timing)
        # The model names its hands as the server's records do (`restore.config_of`).
        cfg = replace(cfg, table_id=match_name(self.table_id, self.match_number))
        self.now = ORIGIN.timestamp()
        self.context = EntryContext(
            origin=EPOCH,
            table_id=self.table_id,
            match_number=self.match_number,
            names=self.names,
            user_ids=tuple(None if player is None else seat + 1 for seat, player in enumerate(self.players)),
            cards={},
            levels=tuple("" if player is not None else "normal" for player in self.players),
        )
        self.state, _ = open_table(cfg, self.now)
        for seat, player in enumerate(self.players):
            if seat != cfg.organizer and player is not None:
                self.send(Accept(seat))
        if self.state.awaits_start:
            self.send(Start(cfg.organizer))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player or f"Computer {seat}" for seat, player in enumerate(self.players))

    def send(self, given: TableInput, at: float | None = None) -> list[LogEntry]:
        """The entries of the pure table taking ``given`` at ``at`` (by default a second later)."""
        self.now = self.now + 1.0 if at is None else at
        before = self.state
        self.state, effects = advance(before, given, self.now)
        self.effects = effects
        entries = entries_of(before, self.state, effects, self.context)
        for entry in entries:
            if isinstance(entry, CardGiven):
                cards = dict(self.context.cards)
                cards[entry.seat] = dict(entry.cards)
                self.context = replace(self.context, cards=cards)
        self.log += entries
        return entries

    def deal(self, key: str, leader: int | None = None) -> list[LogEntry]:
        """The next deal, from ``key`` (after the pause between hands, as the server deals). A
        match's first deal where the rules draw for the lead (Cuban) names the leader the draw
        from its key chose, as the server's does (`actor_decide`)."""
        variant = self.state.variant
        if self.state.match is None and variant.draws_for_first_lead and leader is None:
            drawn = first_lead_draw(variant, deal_from_key(key, variant))
            leader = None if drawn is None else drawn.leader
        at = max(self.now + 1.0, self.state.deal_at or 0.0)
        return self.send(Deal(key, leader), at)

    def move(self, action: Action | None = None) -> list[LogEntry]:
        """The seat in turn moves ``action`` (by default its first legal one); a computer player's
        seat moves as the computer."""
        hand = self.state.hand
        assert hand is not None
        seat = hand.state.to_move
        chosen = hand.state.legal_actions()[0] if action is None else action
        return self.send(Move(seat, chosen, by_computer=self.state.seats[seat].plays_itself))

    def ask_reshuffle(self, seat: int) -> list[LogEntry]:
        return self.send(AskReshuffle(seat))

    def wait(self, seconds: float) -> list[LogEntry]:
        """Time passes: whatever falls due happens (a clock running out, the pause between hands)."""
        return self.send(Tick(), self.now + seconds)

    @property
    def in_hand(self) -> bool:
        hand = self.state.hand
        return hand is not None and not hand.state.is_over and self.state.phase is Phase.PLAYING
