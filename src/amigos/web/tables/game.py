"""A table's match as its log tells it: the record's builder, and the views a page is drawn from.

`Game` decides nothing: the pure table (`amigos.table`) decides every move, deal and end, and its
steps are written as log entries (`effect_entries.entries_of`). `Game` follows those entries as
the actor stores them (`follow`), or reads them back from the stored log after a restart
(`replay`, where the engine lays every move again), and keeps what the record needs (each hand's
moves with their notation, times and system marks, the voided deals, the cards, how the match
ended) and the hand in play for the snapshot's views. It knows no database, no clock and no
socket. The record is built from it (`record`), each hand's part kept until the hand gains moves.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from amigos.engine import (
    Action,
    HandState,
    Match,
    Pass,
    Play,
    Tile,
    Variant,
    deal_from_key,
    seat_view,
    spectator_view,
)
from amigos.engine.actions import Arm
from amigos.engine.codec import sheet_json, view_json
from amigos.engine.outcome import Termination
from amigos.engine.trail import CardNote, VoidedDeal
from amigos.table.hand import DealInPlay, apply_move, void_deal
from amigos.table.model import DealtHand
from amigos.table.record import hand_entry, match_record
from amigos.web.tables.log_entries import (
    CardGiven,
    HandStarted,
    HandVoided,
    LogEntry,
    MatchEnded,
    MatchStarted,
    Passed,
    Played,
    TurnClockShown,
)
from amigos.web.tables.rendering import match_name


class Refused(Exception):
    """An action the game refuses, with a protocol error code (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


#: Each arm by its name in a command (`Arm(name)` asks the enum's machinery on every play).
_ARMS: dict[str, Arm] = {arm.value: arm for arm in Arm}


def parse_play(payload_tile: object, arm: object, lead_left: object) -> Play:
    """A Play from a command's fields; Refused("bad_payload") when they are malformed."""
    if not isinstance(payload_tile, str):
        raise Refused("bad_payload", '"tile" must be text like "6-4"')
    try:
        tile = Tile.parse(payload_tile)
    except (ValueError, TypeError):
        raise Refused("bad_payload", f"not a tile: {payload_tile[:12]!r}") from None
    chosen: Arm | None = None
    if arm is not None:
        if not isinstance(arm, str):
            raise Refused("bad_payload", '"arm" must be "up", "down", "left", "right" or null')
        chosen = _ARMS.get(arm)
        if chosen is None:
            raise Refused("bad_payload", f"no arm {arm[:12]!r}")
    if lead_left is not None and (isinstance(lead_left, bool) or not isinstance(lead_left, int)):
        raise Refused("bad_payload", '"lead_left" must be an integer or null')
    return Play(tile, chosen, lead_left)


@dataclass
class HandLog:
    """What the record needs of one hand: its start, its actions, when and by whom."""

    number: int
    id: str
    key: str
    commitment: str
    start: HandState
    actions: list[Action] = field(default_factory=list)
    #: Each action's notation, written as it was made (so the record needs no replay of the hand).
    moves: list[str] = field(default_factory=list)
    times: list[str] = field(default_factory=list)
    #: One entry per action: None for the player's own move, else the reason the system (or a
    #: computer player) made it, as the record's ``system`` field spells it (engine/trail.py).
    system: list[str | None] = field(default_factory=list)
    #: Cuban: the seats offered a new deal (5 or more doubles), who may ask for it before any move.
    offered: tuple[int, ...] = ()


def system_reason(action: Action, system: bool, reason: str | None) -> str | None:
    """The record's ``system`` mark of a move. Entries written before the reason was stored only
    say whether the system moved: a pass it made was an automatic pass, a play its single tile."""
    if reason is not None:
        return reason
    if not system:
        return None
    return "auto_pass" if isinstance(action, Pass) else "single_tile"


def epoch(at: str) -> float:
    """A log entry's ISO 8601 time as seconds since the epoch, the unit of the record's times."""
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


@dataclass
class Game:
    """The play of one table: the match so far and the hand in progress."""

    table_id: int
    variant: Variant
    names: tuple[str, ...]
    #: The table's kind as the record names it (``live`` or ``correspondence``; None: unsaid).
    mode: str | None = None
    match_number: int = 0
    match: Match | None = None
    hand: HandState | None = None
    hands: list[HandLog] = field(default_factory=list)
    termination: str = ""
    #: The seat whose doing ended the match unfinished (abandonment, suspension); None otherwise.
    offender: int | None = None
    #: When the match started and when it ended, in seconds since the epoch, as its `MatchStarted`
    #: and `MatchEnded` entries tell (None: not yet, or a log stored before they told it).
    started: float | None = None
    ended: float | None = None
    #: Every card given in the match, practice ones too, as the record writes them (`CardGiven`).
    cards: list[CardNote] = field(default_factory=list)
    #: The deals voided so far (Cuban reshuffles), by the number of the hand they were dealt for.
    voided: dict[int, list[VoidedDeal]] = field(default_factory=dict)
    #: Cuban: the draw that chose this match's first leader, as its first `HandStarted` told it
    #: (``[seat, tile]`` in draw order); None where the rules have no draw or before the deal.
    lead_draw: list[list[Any]] | None = None
    #: Each hand's record as last built, by hand id, with the number of actions it was built from:
    #: the record is rebuilt whole at every hand's start and end, and replaying every earlier hand
    #: each time made that cost grow with the match (a sixth of the server's time in closed play).
    _recorded: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict, repr=False, compare=False)

    # -- reading -----------------------------------------------------------------------------------

    @property
    def record_table(self) -> str:
        """The table's identity in this match's record, and the start of its hands' identities."""
        return match_name(self.table_id, self.match_number)

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    @property
    def to_move(self) -> int | None:
        return self.hand.to_move if self.hand is not None and not self.hand.is_over else None

    def view_dict(self, seat: int | None) -> dict[str, Any] | None:
        """The engine's view of the current hand for a seat (None: a spectator)."""
        if self.hand is None:
            return None
        view = spectator_view(self.hand) if seat is None else seat_view(self.hand, seat)
        return view_json(view)

    def sheet(self) -> dict[str, Any] | None:
        return None if self.match is None else sheet_json(self.match.sheet())

    def lead_draw_dict(self) -> dict[str, Any] | None:
        """Cuban: the draw for this match's first lead as the snapshot gives it (who won it, and
        every tile drawn), so a late joiner sees what the first `HandStarted` told; else None."""
        if self.lead_draw is None or self.match is None:
            return None
        return {"leader": self.match.first_leader, "draws": self.lead_draw}

    def previous_hands(self) -> list[dict[str, Any]]:
        finished = self.hands if self.hand is None or self.hand.is_over else self.hands[:-1]
        return [
            {"number": log.number, "id": log.id, "commitment": log.commitment, "key": log.key}
            for log in finished
        ]

    def current(self) -> HandLog | None:
        return self.hands[-1] if self.hands and self.hand is not None else None

    # -- producing log entries ---------------------------------------------------------------------

    def _begin(self, entry: MatchStarted) -> None:
        """The match ``entry`` starts: nothing of the one before is kept."""
        self.match_number = entry.match
        self.match = Match.new(self.variant, self.names, entry.first_leader)
        self.hand = None
        self.hands = []
        self.termination = ""
        self.offender = None
        self.voided = {}
        self.lead_draw = None
        self.started = epoch(entry.at) if entry.at else None
        self.ended = None
        self.cards = []

    def _deal_in_play(self) -> DealInPlay | None:
        """The hand in play as `void_deal` reads it (None: no hand is in play)."""
        log = self.current()
        if log is None or not self.in_hand:
            return None
        return DealInPlay(log.key, log.id, log.commitment, log.offered, len(log.actions))

    def _void(self, seat: int) -> tuple[int, VoidedDeal]:
        """``seat``'s request voids the deal of the hand in play (`void_deal`, which raises
        `TableError` when it may not): the voided deal is kept for the record, by the number of the
        hand to be dealt again, and returned with that number."""
        voided = void_deal(self._deal_in_play(), seat)
        log = self.hands.pop()
        self._recorded.pop(log.id, None)
        self.voided.setdefault(log.number, []).append(voided)
        self.hand = None
        return log.number, voided

    def _note_card(self, entry: CardGiven) -> None:
        """A card as the record writes it: in the hand in play (0 between hands), as the pure
        table's record numbers it. A card stored before its time was kept is left out: the
        record's cards need their time (engine/trail.py)."""
        if not entry.at:
            return
        log = self.current()
        hand = log.number if log is not None and self.in_hand else 0
        self.cards.append(CardNote(entry.seat, entry.colour, entry.reason, epoch(entry.at), hand))

    def _note_end(self, entry: MatchEnded) -> None:
        """How and when the match ended, as the record tells it: kept alike whether the entry was
        just made or is read back from the log (`replay`)."""
        self.termination = entry.termination
        self.offender = entry.offender
        self.ended = epoch(entry.at) if entry.at else None

    def _record(self, action: Action, move: str, at: str, mark: str | None) -> None:
        log = self.hands[-1]
        log.system.append(mark)
        log.actions.append(action)
        # A table keeps its hand's moves while it lasts; the same few texts recur at every table.
        log.moves.append(sys.intern(move))
        log.times.append(at)

    # -- replaying the log -------------------------------------------------------------------------

    def replay(self, entries: Iterable[LogEntry], dealt: DealtHand | None = None) -> None:
        """Bring the game to the state the log describes (actions are re-checked by the engine).
        ``dealt``: a deal the rows tell, as the live table dealt it (`deal_hand`), taken rather
        than derived again from its key."""
        for entry in entries:
            if dealt is not None and type(entry) is HandStarted and entry.key == dealt.key:
                self._apply_hand_started(entry, dealt.state)
            else:
                self._replay_entry(entry)

    def follow(
        self, entries: Iterable[LogEntry], final: HandState, moves: int, actions: Sequence[Action]
    ) -> None:
        """`replay` the rows of a step the pure table has just taken in the hand in play, which it
        left as ``final`` after the hand's ``moves``-th move; ``actions`` are the step's moves, in
        order, as the model holds them (not read back from their rows). The last move is laid from
        the model's state rather than applied again: applying every move twice was a tenth of a
        play's cost."""
        made = iter(actions)
        for entry in entries:
            kind = type(entry)
            if kind is TurnClockShown:
                continue  # the commonest row, which the record does not keep
            if kind is Played or kind is Passed:
                assert isinstance(entry, Played | Passed)
                system = entry.system if isinstance(entry, Played) else entry.automatic
                laid = final if self._moves() + 1 == moves else None
                self._replay_action(next(made), entry.seat, system, entry.reason, entry.at, laid)
            else:
                self._replay_entry(entry)

    def _replay_entry(self, entry: LogEntry, laid: HandState | None = None) -> None:
        """One row of the log; a move's, when ``laid`` is given, ends in that hand (`follow`)."""
        if isinstance(entry, MatchStarted):
            self._begin(entry)
        elif isinstance(entry, HandStarted):
            self._apply_hand_started(entry)
        elif isinstance(entry, HandVoided):
            # Judged and described again by the rule that voided it (as a logged move is).
            self._void(entry.seat)
        elif isinstance(entry, Played):
            assert self.hand is not None
            play = Play(
                Tile.parse(entry.tile), None if entry.arm is None else Arm(entry.arm), entry.lead_left
            )
            self._replay_action(play, entry.seat, entry.system, entry.reason, entry.at, laid)
        elif isinstance(entry, Passed):
            self._replay_action(Pass(), entry.seat, entry.automatic, entry.reason, entry.at, laid)
        elif isinstance(entry, MatchEnded):
            self._note_end(entry)
        elif isinstance(entry, CardGiven):
            self._note_card(entry)

    def _moves(self) -> int:
        """How many moves the hand in play has had (0 before its deal)."""
        return len(self.hands[-1].actions) if self.hands else 0

    def _replay_action(
        self,
        action: Action,
        seat: int,
        system: bool,
        reason: str | None,
        at: str,
        laid: HandState | None = None,
    ) -> None:
        """A logged move laid again, checked and ended as it was when made (`apply_move`); or,
        with ``laid`` (the hand after it, as the pure table made it), only noted and ended."""
        mark = system_reason(action, system, reason)
        if laid is None:
            moved = apply_move(self.hand, self.match, seat, action)
            self._record(action, moved.notation, at, mark)
            self.hand, self.match = moved.after, moved.match
            return
        assert self.hand is not None and self.match is not None
        self._record(action, self.hand.move_notation(action), at, mark)
        self.hand = laid
        if laid.outcome is not None:  # the hand is over: the match's own sheet counts it
            self.match = self.match.finish_hand(laid)

    def _apply_hand_started(self, entry: HandStarted, state: HandState | None = None) -> None:
        """``state``: the hand before the lead, when the caller has it already (a live table
        dealing, `deal_hand`; deriving a deal from its key is the costliest step of a hand's
        start). Replaying, the entry's key and leader give it."""
        assert self.match is not None
        if state is None:
            state = self.match.start_hand(deal_from_key(entry.key, self.variant), entry.leader)
        if entry.lead_draw:
            self.lead_draw = [[seat, tile] for seat, tile in entry.lead_draw]
        self.hands.append(
            HandLog(
                number=entry.number,
                id=entry.id,
                key=entry.key,
                commitment=entry.commitment,
                start=state,
                offered=entry.reshuffle,
            )
        )
        self.hand = state

    # -- the record ----------------------------------------------------------------------------------

    def record(self, absent: tuple[int, ...] = ()) -> dict[str, Any]:
        """The match so far as a record (docs/record-format.md) with the live extensions (the
        table's mode, the match's times and cards as its log told them, how it ended), as
        `amigos.table.record` builds every live record (`match_record`, `hand_entry`): the fields
        are written by engine/trail.py's codec, never by hand, so the engine (and so the archive
        and ``amigos replay``) can check them; a record with other field names or units is refused
        (the archive then would never get the match)."""
        hands = [self._record_hand(log) for log in self.hands]
        for stale in self._recorded.keys() - {log.id for log in self.hands}:
            del self._recorded[stale]
        record = match_record(
            self.variant.name,
            self.names,
            table=self.record_table,
            mode=self.mode,
            started=self.started,
            ended=self.ended,
            termination=Termination(self.termination) if self.termination else None,
            offender=self.offender if self.termination not in ("", "target") else None,
            cards=tuple(self.cards),
            absent=absent,
        ).to_obj()
        # The hands as the engine writes them (`RecordHand.to_obj`), kept from one record to the
        # next: the record is written again at every hand's start and end, and converting every
        # earlier hand again each time was a fortieth of a closed loop's interpreter time.
        record["hands"] = hands
        return record

    def _record_hand(self, log: HandLog) -> dict[str, Any]:
        """One hand of the record (`hand_entry`), built again only when it gained actions since it
        was last built (the same object each time otherwise: a record is written, never changed)."""
        kept = self._recorded.get(log.id)
        if kept is not None and kept[0] == len(log.actions):
            return kept[1]
        built = hand_entry(
            log.start,
            log.moves,
            key=log.key,
            hand_id=log.id,
            commitment=log.commitment,
            times=tuple(epoch(at) for at in log.times) if all(log.times) else None,
            system=tuple(log.system),
            voided=tuple(self.voided.get(log.number, ())),
        ).to_obj()
        self._recorded[log.id] = (len(log.actions), built)
        return built
