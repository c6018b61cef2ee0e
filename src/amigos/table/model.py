"""The data of a live table: its configuration, its timings and its immutable state.

Everything here is a frozen value. :func:`amigos.table.advance` is the only thing that makes a new
state from an old one, so a table can be rebuilt at any time by replaying its inputs.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from amigos.engine import Action, Deal, HandState, Match, Termination, Variant

#: `TableState.due` before `advance.next_deadline` has been asked for that state.
UNKNOWN: object = object()


class Mode(enum.Enum):
    """A clocked table played in one sitting, or a correspondence table (a day per move)."""

    LIVE = "live"
    CORRESPONDENCE = "correspondence"


class Conduct(enum.Enum):
    """Which rules of time and conduct a table follows (docs/rules.md, "Live tables").

    * AMIGOS: the Amigos platform's rules: the 60/5/20 clock, yellow cards, the 5-minute
      reconnection window and the blue card.
    * TIMED: Cuban and the draw and fives games: a 30-second clock after which the system plays,
      no cards, and a 2-minute grace after which a computer player holds an absent player's seat.
    * CORRESPONDENCE: a day per move, no cards, no heartbeat.
    """

    AMIGOS = "amigos"
    TIMED = "timed"
    CORRESPONDENCE = "correspondence"


@dataclass(frozen=True, slots=True)
class Timing:
    """Every duration the table uses, in seconds. The defaults are the specs' numbers."""

    invitation: float = 30.0
    blocking: float = 60.0
    single: float = 5.0
    single_lay: float = 6.0
    open: float = 20.0
    card_every: float = 5.0
    timed: float = 30.0
    heartbeat_timeout: float = 30.0
    reconnect: float = 300.0
    grace: float = 120.0
    vote: float = 60.0
    vote_absence: float = 10.0  # a seat with no page open this long during the vote has left
    computer: float = 20.0
    correspondence: float = 86_400.0
    # The pause between a hand's end and the next deal (the server's AMIGOS_TABLE_HAND_PAUSE_SECONDS
    # is fed into it, so the live table and this model wait alike).
    hand_pause: float = 5.0


class Phase(enum.Enum):
    """What the table is doing."""

    # Invitations out, waiting for answers; once every seat accepted, the match starts, or waits for
    # the organizer's button (``TableState.start_until``) when `gathering.organizer_starts` says so.
    INVITING = "inviting"
    # A hand is to be dealt: after a hand, once the pause between hands is over (``deal_at``, the
    # DEAL deadline), then waiting for the server's deal key.
    DEALING = "dealing"
    PLAYING = "playing"  # a hand is running
    VOTING = "voting"  # the match reached its target: rematch, rotate or lobby
    CLOSED = "closed"  # the table is over; everyone is back in the lobby


class Situation(enum.Enum):
    """Why the seat to move has the time it has (docs/rules.md, "The turn clock")."""

    BLOCKING = "blocking"  # one of the legal tiles would block the hand: 60 s
    SINGLE = "single"  # exactly one legal tile: 5 s, laid by the system at 6 s
    OPEN = "open"  # several legal tiles and none blocks: 20 s
    TIMED = "timed"  # Cuban and the draw games: 30 s, then the system plays
    COMPUTER = "computer"  # a computer player is to move
    CORRESPONDENCE = "correspondence"  # a day


class Colour(enum.Enum):
    """Card colours (docs/rules.md, "Cards")."""

    YELLOW = "yellow"
    BLUE = "blue"
    RED = "red"


class VoteChoice(enum.Enum):
    """What a player chooses after a match reached its target (spec §2.9.3)."""

    REMATCH = "rematch"
    ROTATE = "rotate"
    LOBBY = "lobby"


class Invitation(enum.Enum):
    """Where a seat's invitation stands."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REFUSED = "refused"


def conduct_of(variant: Variant, mode: Mode) -> Conduct:
    """Which rules of time a table of ``variant`` played in ``mode`` follows: a day per move, the
    Amigos platform's, or the timed ones (Cuban, the draw and fives games)."""
    if mode is Mode.CORRESPONDENCE:
        return Conduct.CORRESPONDENCE
    return Conduct.AMIGOS if variant.amigos_conduct else Conduct.TIMED


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What the organizer chose when creating the table.

    ``players`` holds one account identifier per seat in engine seat order (seat ``i+1`` plays
    after seat ``i``), None for a computer player. ``organizer`` is the organizer's seat: in a
    four-seat partnership table the partner sits at ``organizer + 2``, the organizer's right at
    ``organizer + 1`` and left at ``organizer + 3``.
    """

    table_id: str
    variant: Variant
    players: tuple[str | None, ...]
    organizer: int = 0
    mode: Mode = Mode.LIVE
    timing: Timing = field(default_factory=Timing)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names for the match and its record (``computer:<seat>`` for a computer)."""
        return tuple(
            player if player is not None else f"computer:{seat}" for seat, player in enumerate(self.players)
        )

    # Which rules of time the table follows (`conduct_of`), asked several times by every input:
    # found once, when the configuration is made.
    conduct: Conduct = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "conduct", conduct_of(self.variant, self.mode))


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat: who sits there and how they stand right now.

    ``player`` None is a computer player. ``away_since`` is when the seat was found absent (no
    heartbeat, socket closed, or left); ``held_by_computer`` means a computer plays for an absent
    player (TIMED conduct); ``cards`` counts the cards given in this match by colour name.
    ``page_open``: whether a page of the player is joined (every one closing is `Disconnected`,
    one joining `Reconnected`): a play from a seat judged away for a silence brings it back only
    then (`presence.heard_from`). ``vote_absent_since``: during the vote, since when the seat has
    had no page joined (`presence.leaves_vote`).
    """

    player: str | None
    invitation: Invitation
    last_seen: float
    away_since: float | None = None
    abandon: bool = False
    held_by_computer: bool = False
    yellow: int = 0
    blue: int = 0
    red: int = 0
    vote: VoteChoice | None = None
    page_open: bool = True
    vote_absent_since: float | None = None

    @property
    def is_computer(self) -> bool:
        return self.player is None

    @property
    def is_away(self) -> bool:
        return self.away_since is not None

    @property
    def plays_itself(self) -> bool:
        """Whether the server's computer player chooses this seat's moves."""
        return self.player is None or self.held_by_computer


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The clock of the seat to move.

    ``budget`` is the time it has from ``started``; ``card_at`` when the next yellow card falls
    (None: no more cards); ``system_at`` when the system moves for the seat (None: never).
    """

    seat: int
    started: float
    situation: Situation
    budget: float
    card_at: float | None
    system_at: float | None
    cards: int = 0

    @property
    def expires(self) -> float:
        return self.started + self.budget


@dataclass(frozen=True, slots=True)
class MoveStamp:
    """One move of the current hand with its time and whether the system (or a computer) made it.

    ``reason`` is None for a player's own move, else a :class:`SystemReason` value, or
    ``"computer"`` for a computer player's move.
    """

    seat: int
    action: Action
    at: float
    reason: str | None = None


class DealtHand(NamedTuple):
    """The next hand of a match, dealt from its key (`hand.deal_hand`): its ``number`` in the
    match (from 1), the ``key`` as the deal writes it, the ``deal``, the hand before the lead
    (``state``: its leader by the match's rules), the identity its key is committed under
    (``hand_id``) and the ``commitment``, and the seats offered a new deal (``offer``: Cuban, 5
    or more doubles). A value here, beside the hand in play that keeps it (`HandInPlay.dealt`)."""

    number: int
    key: str
    deal: Deal
    state: HandState
    hand_id: str
    commitment: str
    offer: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandInPlay:
    """The hand being played, with the deal that made it and the moves' times.

    ``redeal`` counts the deals of this hand voided before it (Cuban reshuffles); ``reshuffle``
    lists the seats that may still ask for one (5 or more doubles, before the first move).
    ``dealt`` is the deal as `hand.deal_hand` made it (None where a caller built the hand
    itself): a value of the key, kept so that whoever writes the hand down (the server's rows,
    the record) need not derive the deal again, the costliest part of a hand's start.
    """

    number: int
    key: str
    commitment: str
    started: float
    state: HandState
    moves: tuple[MoveStamp, ...] = ()
    redeal: int = 0
    reshuffle: tuple[int, ...] = ()
    dealt: DealtHand | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TableState:
    """A whole table at one moment. Create it with :func:`amigos.table.open_table`."""

    config: TableConfig
    phase: Phase
    seats: tuple[SeatState, ...]
    opened: float
    now: float
    match: Match | None = None
    hand: HandInPlay | None = None
    clock: TurnClock | None = None
    vote_until: float | None = None
    invite_until: float | None = None
    start_until: float | None = None
    deal_at: float | None = None
    termination: Termination | None = None
    offender: int | None = None
    # When the match ended: the moment its deadline fell due, not when a late input found it.
    ended: float | None = None
    redeal: int = 0
    # `advance.next_deadline`'s answer for this very state, once asked: a state never changes, and
    # every input asks for the deadline before and after it (the next input's "before" is this
    # one's "after"), so keeping it halves the work of a play. Not part of the state's value.
    due: object = field(default=UNKNOWN, init=False, repr=False, compare=False)
    # Likewise `advance.table_deadline`'s answer (the deadline a server stores with the table) and
    # `paused` (asked several times by every move), once asked.
    own_due: object = field(default=UNKNOWN, init=False, repr=False, compare=False)
    waits: object = field(default=UNKNOWN, init=False, repr=False, compare=False)

    @property
    def variant(self) -> Variant:
        return self.config.variant

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def awaits_start(self) -> bool:
        """Whether every seat has accepted and the table waits for its organizer's button."""
        return self.phase is Phase.INVITING and self.start_until is not None

    @property
    def paused(self) -> bool:
        """Whether the match waits for an absent player (the clocks stand still meanwhile)."""
        known = self.waits
        if known is UNKNOWN:
            known = waits_for_absent(
                self.phase in (Phase.DEALING, Phase.PLAYING),
                self.config.conduct,
                (not seat.held_by_computer for seat in self.seats if seat.is_away),
            )
            object.__setattr__(self, "waits", known)
        return known is True


def waits_for_absent(in_match: bool, conduct: Conduct, away_unheld: Iterable[bool]) -> bool:
    """Whether a table waits for an absent player, its clocks standing still (docs/rules.md,
    "Connection and absence"). ``in_match``: a match is under way (a hand, or between two);
    ``away_unheld``: for every absent seat, whether no computer player holds it (a held seat is
    played, so the table goes on). Only a live match waits: before and after one nobody's clock
    runs, and a correspondence table has no presence to wait for. The server's actor asks this
    too; it is asked on every play, so ``away_unheld`` is read lazily."""
    return tracks_absence(in_match, conduct) and any(away_unheld)


def tracks_absence(in_match: bool, conduct: Conduct) -> bool:
    """Whether a seat's silence and absence count (docs/rules.md, "Connection and absence"):
    during a match under way (``in_match``: a hand, or between two) at a live table; a
    correspondence table has no heartbeat, and before and after a match nobody is waited for.
    Asked by `waits_for_absent`, `presence.next_presence`, the pure table when a seat's pages all
    close, and the server's actor before it looks a suspension up."""
    return in_match and conduct is not Conduct.CORRESPONDENCE
