"""What a table asks the world to do or tell: the outputs of :func:`amigos.table.advance`.

Effects name seats and tiles only where everyone may know them (a laid tile is public; hands are
never in an effect). The server renders each effect for its audience through the engine's views.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from amigos.engine import Action, HandOutcome, Termination
from amigos.engine.trail import VoidedDeal

from .model import Colour, Situation, VoteChoice


class DeadlineKind(enum.Enum):
    """What happens when a deadline falls due."""

    INVITATION = "invitation"
    START = "start"  # the organizer's window to start the match
    CARD = "card"
    SYSTEM_PLAY = "system_play"
    TURN = "turn"
    HEARTBEAT = "heartbeat"
    RECONNECT = "reconnect"
    GRACE = "grace"
    VOTE = "vote"
    DEAL = "deal"  # the pause between hands is over: the next hand is dealt
    VOTE_ABSENCE = "vote_absence"  # a seat's page closed during the vote has not come back: it left


class Cancellation(enum.Enum):
    """Why a table closed before its match started (the values are the words the live table
    stores with its ``cancelled`` entry)."""

    INVITATIONS = "invitations"  # an invitation was refused or not answered in time
    ORGANIZER = "organizer"  # the organizer called the table off
    NOT_STARTED = "not_started"  # everyone accepted, and the organizer did not start it in time
    SUSPENSION = "suspension"  # a seated player's account was suspended (`suspension_ending`)


class SystemReason(enum.Enum):
    """Why the system moved for a seat."""

    AUTO_PASS = "auto_pass"  # noqa: S105 (not a password) — no legal tile: the pass is automatic (the angry red face)
    SINGLE_TILE = "single_tile"  # the only legal tile, laid at 6 s
    TIMEOUT = "timeout"  # TIMED conduct: the 30 s ran out
    COMPUTER_LATE = "computer_late"  # a computer player did not answer in time


class CardReason(enum.Enum):
    """Why a card was given (the values are the words the live table stores and sends)."""

    TIMEOUT = "timeout"  # the turn's time ran out: its first yellow card
    EVERY_5S = "every_5s"  # another 5 seconds passed: the next one
    SLOW_SINGLE = "slow_single"  # a single legal tile not laid within its 5 seconds
    NO_RETURN = "no_reconnection"  # not back within the reconnection window: the blue card
    ADMINISTRATOR = "staff"  # an administrator's red card


class NoticeKind(enum.Enum):
    """Things the table says to everyone (the site translates each kind)."""

    INVITATION_REFUSED = "invitation_refused"  # told to the organizer (``seat`` refused)
    INVITATION_EXPIRED = "invitation_expired"  # told to the organizer (``seat`` did not answer)
    NO_BLOCKING_SITUATION = "no_blocking_situation"  # the seat's clock ran out with no block in hand
    PLAYER_AWAY = "player_away"  # the seat lost its connection; the table waits
    PLAYER_LEFT = "player_left"  # the seat left the table on purpose; the table waits
    ABANDON = "abandon"  # a waiting player left while the table waited ("Abandono")
    PLAYER_BACK = "player_back"
    FRESH_TIME = "fresh_time"  # the table moved to another process; the seat in turn starts again


@dataclass(frozen=True, slots=True)
class Deadline:
    """The table's next deadline changed: call ``advance(state, Tick(), at)`` at ``at``.

    ``at`` None means the table has no deadline any more.
    """

    at: float | None
    kind: DeadlineKind | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class InvitationSent:
    seat: int
    until: float


@dataclass(frozen=True, slots=True)
class InvitationAccepted:
    """``seat``'s player accepted the invitation and sits at the table (everyone's pages show the
    seat taken; the server writes it as the seat's change)."""

    seat: int


@dataclass(frozen=True, slots=True)
class StartAwaited:
    """Every seat accepted; the match starts when the organizer (``organizer``: its seat) presses
    the start button, and the table is cancelled if nobody has by ``until``."""

    organizer: int
    until: float


@dataclass(frozen=True, slots=True)
class TableCancelled:
    """The table closed before its match started, for ``reason`` (a :class:`BackToLobby` follows)."""

    reason: Cancellation


@dataclass(frozen=True, slots=True)
class TableReady:
    """Every seat accepted: the match starts now (a :class:`DealNeeded` follows)."""


@dataclass(frozen=True, slots=True)
class DealNeeded:
    """Send :class:`amigos.table.inputs.Deal` with a fresh key for hand ``number`` (1-based)."""

    number: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """Hand ``number`` is dealt; ``commitment`` binds its key (published now, key at the end)."""

    number: int
    leader: int
    commitment: str


@dataclass(frozen=True, slots=True)
class ReshuffleOffered:
    """Cuban: ``seat`` was dealt 5 or more doubles and may ask for a new deal.

    For that seat only: telling the others would reveal its doubles.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class HandVoided:
    """Hand ``number``'s deal was voided at a seat's request (``voided``, as `hand.void_deal`
    built it and the record keeps it); its key is revealed (so anyone can check the deal against
    its commitment and see the doubles) and a new deal follows."""

    number: int
    voided: VoidedDeal

    @property
    def seat(self) -> int:
        return self.voided.seat

    @property
    def key(self) -> str:
        return self.voided.key

    @property
    def hand_id(self) -> str:
        return self.voided.hand_id

    @property
    def commitment(self) -> str:
        return self.voided.commitment


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat`` is to move (the smiley face); its clock reads ``seconds`` from ``at``.

    Hidden information: ``situation`` and ``seconds`` are for the seat in turn only. Shown to the
    others they would tell that the seat holds a single legal tile (5 s) or a blocking one (60 s),
    which the spec keeps from them (§3.1.1.1: a single tile laid in time is never announced). The
    others learn whose turn it is and since when; they hear of the situation only through the
    notices and cards that the rules make public.
    """

    seat: int
    situation: Situation
    seconds: float
    at: float


@dataclass(frozen=True, slots=True)
class ComputerTurn:
    """The server's computer player must choose a move for ``seat`` (send it as a Move)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` moved by itself (a player, or a computer player at a computer's seat)."""

    seat: int
    action: Action
    at: float


@dataclass(frozen=True, slots=True)
class SystemPlay:
    """The system moved for ``seat`` (a pass with no legal tile, the single tile, a timeout)."""

    seat: int
    action: Action
    reason: SystemReason
    at: float


@dataclass(frozen=True, slots=True)
class CardGiven:
    """A card shown at the table; ``practice``: it never reaches the account's ladder
    (`amigos.table.sanctions.card_fate`), so the server passes only the others to the ladder."""

    seat: int
    colour: Colour
    reason: CardReason
    at: float
    practice: bool = False


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the table says to everyone. ``since``: for a seat found away, left, or marked
    "Abandono", the moment its absence began. Why it is carried here rather than read off the
    table after the step: one step may find a seat away (a silence that fell due) and then hear
    it back (the heartbeat or page that came late), so the state after the step no longer says
    when that absence began, while its log entry must."""

    kind: NoticeKind
    seat: int | None = None
    since: float | None = None


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Hand ``number`` is over; its ``key`` is revealed so anyone can check the deal."""

    number: int
    outcome: HandOutcome
    key: str
    score: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over: by target (``winner`` is a side) or unfinished (``offender`` a seat)."""

    termination: Termination
    winner: int | None
    offender: int | None
    score: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatHeldByComputer:
    """A computer player holds ``seat`` until its player returns."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatReturned:
    """The player of ``seat`` took their seat back from the computer player."""

    seat: int


@dataclass(frozen=True, slots=True)
class VoteCast:
    """``seat`` chose; ``left``: it left the table during the vote (its page closed and did not come
    back, or it left on purpose), which is a choice of the meeting room."""

    seat: int
    choice: VoteChoice
    left: bool = False


@dataclass(frozen=True, slots=True)
class VoteResult:
    """All voted the same (``players`` is the new seating, ``organizer`` the organizer's new
    seat), or not (``choice`` LOBBY: everyone goes back to the lobby)."""

    choice: VoteChoice
    players: tuple[str | None, ...]
    organizer: int


@dataclass(frozen=True, slots=True)
class BackToLobby:
    """These seats' players go back to the meeting room; the table is closed."""

    seats: tuple[int, ...]


Effect = (
    Deadline
    | InvitationSent
    | InvitationAccepted
    | StartAwaited
    | TableCancelled
    | TableReady
    | DealNeeded
    | HandStarted
    | ReshuffleOffered
    | HandVoided
    | TurnStarted
    | ComputerTurn
    | Moved
    | SystemPlay
    | CardGiven
    | Notice
    | HandEnded
    | MatchEnded
    | SeatHeldByComputer
    | SeatReturned
    | VoteCast
    | VoteResult
    | BackToLobby
)
