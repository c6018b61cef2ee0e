"""Who is at the table: heartbeats, absence and return, computer players holding a seat, a page
closed during the vote, and suspensions."""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol, TypeVar

from amigos.engine import Termination

from .common import MATCH_PHASES, close, end_unfinished, humans, set_seat
from .effects import (
    Cancellation,
    DeadlineKind,
    Effect,
    Notice,
    NoticeKind,
    SeatReturned,
    TableCancelled,
    VoteResult,
)
from .errors import TableError
from .flow import begin_turn, resume_if_ready
from .model import Conduct, Phase, TableState, Timing, VoteChoice, tracks_absence

#: A seat's account: a player's name in this model, a user's number at the live server.
Account = TypeVar("Account")

#: A moment: seconds in this model, an aware datetime at the live server (which asks the same rules).
Moment = TypeVar("Moment", float, datetime)


class Sign(enum.Enum):
    """How a seat's player was heard from."""

    HEARTBEAT = "heartbeat"  # a page of the seat beat
    JOINED = "joined"  # a page joined the table as the seat (a new socket, a reload)
    PLAY = "play"  # the player moved, or asked for a new deal


class Heard(enum.Enum):
    """What hearing from a seat's player does (`heard_from`)."""

    NOBODY = "nobody"  # a computer player's seat: there is nobody to hear, no silence counts
    PRESENT = "present"  # the seat's silence counts from now
    BACK = "back"  # ... and the absent player is back (`comeback` says what that does)


def heard_from(sign: Sign, *, computer: bool, away: bool, held: bool, page_open: bool) -> Heard:
    """What a sign of life from a seat does (docs/rules.md, "Connection and absence"). Any sign
    from a person counts as being heard: their silence counts from now. An absent player is back
    when a page of theirs beats or joins; a play (or a request for a new deal) brings them back
    only while a page of theirs is still joined (``page_open``: they were judged away for a
    silence, say late heartbeats on a slow network, and the play shows they are there) and no
    computer player holds the seat (the player takes it back by joining again, the
    ``held_by_computer`` refusal says so). A seat whose pages all closed stays away until a page
    joins. The server's actor asks this for every heartbeat, join and play, the pure table for
    `Heartbeat`, `Reconnected`, `Move` and `AskReshuffle`. Both count a play before judging it,
    and keep it when the play is refused (`command_heard`)."""
    if computer:
        return Heard.NOBODY
    if not away or (sign is Sign.PLAY and (held or not page_open)):
        return Heard.PRESENT
    return Heard.BACK


#: The refusals of a person's command that hear nobody: its sender holds no seat here (a command
#: forged or sent to the wrong table: nobody's sign of life), or it is not a command a page sends
#: (malformed: the socket refuses it before the table sees it, the pure table's codec likewise).
UNHEARD = frozenset({"not_seated", "bad_payload", "bad_input"})


def command_heard(refusal: str | None) -> bool:
    """Whether a person's play or request for a new deal, from their own seat, is a sign of life
    (`heard_from` with `Sign.PLAY`) given the first refusal it meets (a protocol code; None: none
    yet, or accepted). It is, whatever the rules or the table's version then say of it: a tile laid
    out of turn, one that does not fit, a stale version, a request refused while the table waits
    all come from a page that is there (docs/rules.md, "Connection and absence"). It is counted
    before the command is judged, since the judging depends on it (a player judged away for a
    silence is back, and the table no longer waits), and it stands when the command is refused.
    Only a sender who holds no seat here, or a malformed command, is heard from by nobody
    (`UNHEARD`). The server's actor asks this for `table.play` and `table.reshuffle`; the pure
    table for a person's `Move` and `AskReshuffle` (a refusal then carries the table as the sign
    of life left it: `TableError.heard`)."""
    return refusal not in UNHEARD


def absent_seats(seats: Iterable[tuple[bool, bool, bool]]) -> tuple[int, ...]:
    """The seats the record names ``absent`` as the match ends (docs/record-format.md): each
    person's seat (``person``) that is away (``away``: judged absent, a computer player holding it
    or not yet) or held by a computer (``held``). The archive never counts such a match as their
    win or loss, nor rates it, whoever finished it for them. ``seats``: ``(person, away, held)``
    per seat, in order; the pure table's record and the server's actor both ask this."""
    return tuple(number for number, (person, away, held) in enumerate(seats) if person and (away or held))


class Lapse(enum.Enum):
    """What happens when an absent player's window runs out (docs/rules.md, "Connection and
    absence")."""

    BLUE_CARD = "blue_card"  # an Amigos table: a blue card, and the match ends by abandonment
    HELD = "held"  # elsewhere: a computer player holds the seat until the player returns
    ABANDONED = "abandoned"  # elsewhere, with nobody left: the match ends by abandonment, no card


class Return(enum.Enum):
    """What an absent player's return does (docs/rules.md, "Connection and absence")."""

    BACK = "back"  # no match under way: the player is simply back (a computer's hold just ends)
    SEAT = "seat"  # a computer player gives the seat back; someone else moves, or the table waits
    MOVE = "move"  # ... in the seat's turn: the player moves at once, with a fresh clock
    RESUME = "resume"  # the table may have waited for this player: it goes on if nothing else keeps it


def comeback(in_match: bool, held: bool, in_turn: bool, paused: bool) -> Return:
    """What the return of an absent player does. ``held``: a computer player held the seat;
    ``in_turn``: the seat is to move in the hand under way; ``paused``: the table still waits
    for someone once this player is back. The server's actor asks this too."""
    if not in_match:
        return Return.BACK
    if not held:
        return Return.RESUME
    return Return.MOVE if in_turn and not paused else Return.SEAT


def window(conduct: Conduct, timing: Timing) -> float:
    """How long an absent player has to come back: 5 minutes at an Amigos table, the 2-minute
    grace elsewhere (a correspondence table has no window: it has no heartbeat)."""
    return timing.reconnect if conduct is Conduct.AMIGOS else timing.grace


def window_lapse(conduct: Conduct, others_held: Iterable[bool]) -> Lapse:
    """What the lapse of a seat's window does. ``others_held``: for every other person's seat,
    whether a computer player already holds it. When every other person is gone too (or there is
    nobody else), the match ends by this last one's abandonment, rather than computer players
    playing it out for nobody, for ever."""
    if conduct is Conduct.AMIGOS:
        return Lapse.BLUE_CARD
    return Lapse.ABANDONED if all(others_held) else Lapse.HELD


def others_held(held: Sequence[bool], computer: Sequence[bool], seat: int) -> list[bool]:
    """For every person's seat but ``seat``, in order: whether a computer player holds it (what
    `window_lapse` reads). ``held`` and ``computer``: per seat, whether a computer player holds it
    for an absent person, and whether a computer player sits there (nobody to hold it for). The
    pure table asks this when a window lapses (`advance`)."""
    return [
        is_held
        for index, (is_held, is_computer) in enumerate(zip(held, computer, strict=True))
        if not is_computer and index != seat
    ]


def seen(
    state: TableState, seat: int, now: float, effects: list[Effect], sign: Sign = Sign.HEARTBEAT
) -> TableState:
    """The seat's player was heard from (``sign``): what `heard_from` decides. An absent player
    who is back gets the seat back from a computer player at once, and a waiting table goes on
    with fresh time. A heartbeat or a page from a computer player's seat is refused; a move for
    it is the hand's to judge."""
    info = state.seats[seat]
    if info.is_computer and sign is not Sign.PLAY:
        raise TableError("computer_seat", f"seat {seat} is a computer player")
    heard = heard_from(
        sign,
        computer=info.is_computer,
        away=info.away_since is not None,
        held=info.held_by_computer,
        page_open=info.page_open,
    )
    if heard is Heard.NOBODY:
        return state
    state = set_seat(state, seat, last_seen=now)
    if heard is Heard.PRESENT:
        return state
    state = set_seat(state, seat, away_since=None, abandon=False, held_by_computer=False)
    effects.append(Notice(NoticeKind.PLAYER_BACK, seat))
    hand = state.hand
    in_turn = state.phase is Phase.PLAYING and hand is not None and hand.state.to_move == seat
    back = comeback(state.phase in MATCH_PHASES, info.held_by_computer, in_turn, state.paused)
    if back is Return.RESUME:
        return resume_if_ready(state, now, effects)
    if back is not Return.BACK:
        effects.append(SeatReturned(seat))
    if back is Return.MOVE:
        # The player takes the move back from the computer player, with a fresh clock.
        return begin_turn(replace(state, clock=None), now, effects)
    return state


def seat_away(state: TableState, seat: int, at: float, effects: list[Effect], deliberate: bool) -> TableState:
    """The seat is absent from ``at``: the table waits for it (its window starts). A player who
    goes while the table already waits for someone else is marked "Abandono"."""
    info = state.seats[seat]
    if info.is_computer:
        raise TableError("computer_seat", f"seat {seat} is a computer player")
    if info.away_since is not None:
        return state
    waiting = state.paused
    state = set_seat(state, seat, away_since=at, abandon=waiting)
    # "Abandono": a player who leaves while the table already waits for someone else.
    away = NoticeKind.PLAYER_LEFT if deliberate else NoticeKind.PLAYER_AWAY
    effects.append(Notice(NoticeKind.ABANDON if waiting else away, seat, since=at))
    if state.paused:
        return replace(state, clock=None)
    return state


def leaves_vote(voting: bool, computer: bool, pages_left: bool) -> bool:
    """Whether a page closing starts the seat's absence from the vote: during the vote, a person's
    last page (``pages_left``: whether another page of theirs is still joined). Unless a page of
    theirs joins again within `Timing.vote_absence` (a reload comes back sooner), the player has
    left the table: that is a choice of the meeting room, replacing any choice made, and it closes
    the vote (docs/protocol.md, "After the match"). A page joining ends the absence; a heartbeat
    does not (only a joined page beats). A seat already away when the vote opened has no page to
    close: the vote's own time runs for it. The server's actor asks this when a socket goes, the
    pure table on `Disconnected`."""
    return voting and not computer and not pages_left


def first_to_leave(closed: Mapping[int, Moment]) -> tuple[Moment, int] | None:
    """Of the seats whose absence from the vote runs (each with the moment its last page closed),
    the one whose absence began first, ties to the lower seat, with that moment: it is the first
    to have left, `Timing.vote_absence` later. None: no absence runs."""
    return min(((since, seat) for seat, since in closed.items()), default=None)


class Seated(Protocol):
    """What :func:`next_presence` reads of a seat: whether a computer player sits there, or holds
    it for an absent person (the pure table's `SeatState` and the actor's both say so)."""

    @property
    def is_computer(self) -> bool: ...

    @property
    def held_by_computer(self) -> bool: ...


def next_presence(
    phase: Phase,
    conduct: Conduct,
    timing: Timing,
    seats: Iterable[Seated],
    last_heard: Mapping[int, Moment],
    away_since: Mapping[int, Moment],
    left_vote: Mapping[int, Moment],
    later: Callable[[Moment, float], Moment],
) -> tuple[Moment, DeadlineKind, int] | None:
    """The earliest presence deadline of a table, as (moment, kind, seat); None: none runs.

    During a live match (not by correspondence, which has no heartbeat), each person's seat that no
    computer player holds has one: a present seat's silence, `Timing.heartbeat_timeout` after it
    was last heard from (``HEARTBEAT``: it is found away), or an away seat's window (`window`)
    lapsing (``RECONNECT`` at an Amigos table, ``GRACE`` elsewhere: `window_lapse`). During the vote,
    each seat whose pages all closed (`leaves_vote`) has left `Timing.vote_absence` after
    (``VOTE_ABSENCE``, `first_to_leave`). ``seats`` in seat order; ``last_heard``, ``away_since``
    and ``left_vote`` by seat number (a seat away counts as away, whatever it was last heard; a
    person never heard from has no silence: both tables hear every seat as they open);
    ``later(moment, seconds)``: the moment that many seconds after (seconds here, an aware
    datetime at the live server).

    The tie rule, the one both tables keep: the earliest moment first, then the lower seat, of
    whatever kind (a window lapsing and another seat's silence at the same moment: the lower seat's
    goes first, and may end the match before the other matters). A seat never has two at once (a
    present seat has a silence, an away one a window, and only during the vote, when neither
    counts, an absence from the vote), so no kind needs to go before another.

    The pure table (`advance.next_deadline`, which the server's timer reads) asks this for every
    input: so it walks the seats once, keeping the
    earliest moment of each kind (a seat ties only with a later seat, which then loses), and adds
    each kind's allowance once, to that earliest: no list, no sorting, no object per seat. The
    allowance is the same for every seat of a kind, so adding it keeps the order (exactly, for
    datetimes)."""
    if phase is Phase.VOTING:
        first = first_to_leave(left_vote)
        if first is None:
            return None
        return later(first[0], timing.vote_absence), DeadlineKind.VOTE_ABSENCE, first[1]
    if not tracks_absence(phase in MATCH_PHASES, conduct):
        return None
    heard: Moment | None = None  # the earliest a present person's seat was last heard from
    heard_seat = -1
    gone: Moment | None = None  # the earliest an away person's seat (held by nobody) went
    gone_seat = -1
    for seat, info in enumerate(seats):
        if info.is_computer or info.held_by_computer:
            continue  # nobody to hear, or a computer player holds it for now: nothing runs out
        since = away_since.get(seat)
        if since is not None:
            if gone is None or since < gone:  # strictly: a tie stays with the lower seat
                gone, gone_seat = since, seat
            continue
        seen = last_heard.get(seat)
        if seen is not None and (heard is None or seen < heard):
            heard, heard_seat = seen, seat
    lapse = None if gone is None else later(gone, window(conduct, timing))
    silence = None if heard is None else later(heard, timing.heartbeat_timeout)
    if lapse is not None and (
        silence is None or lapse < silence or (lapse == silence and gone_seat < heard_seat)
    ):
        kind = DeadlineKind.RECONNECT if conduct is Conduct.AMIGOS else DeadlineKind.GRACE
        return lapse, kind, gone_seat
    return None if silence is None else (silence, DeadlineKind.HEARTBEAT, heard_seat)


class SuspensionEnds(enum.Enum):
    """What a seated player's suspension ends, by the table's phase."""

    MATCH = "match"  # a match under way ends unfinished (`Termination.SUSPENSION`, the seat its offender)
    TABLE = "table"  # a table not yet started is cancelled (`Cancellation.SUSPENSION`)
    VOTE = "vote"  # the vote closes for the meeting room: no next table


_SUSPENSION_ENDS = {
    Phase.INVITING: SuspensionEnds.TABLE,
    Phase.DEALING: SuspensionEnds.MATCH,
    Phase.PLAYING: SuspensionEnds.MATCH,
    Phase.VOTING: SuspensionEnds.VOTE,
}


@dataclass(frozen=True, slots=True)
class SuspensionEnding:
    """A suspension's consequence at a table: what ``ends``, and the ``seat`` whose account was
    suspended (the match's offender)."""

    seat: int
    ends: SuspensionEnds


def suspension_ending(
    phase: Phase, accounts: Sequence[Account | None], suspended: Collection[Account]
) -> SuspensionEnding | None:
    """What the suspension of the accounts ``suspended`` ends at a table in ``phase`` (docs/rules.md,
    "Suspension"): for the first seat whose account is among them, the match under way (a hand, or
    between two), a table still inviting (cancelled), or the vote after the match (closed for the
    meeting room, everyone back there). None: nothing ends (nobody seated here was suspended, or the
    table is over). ``accounts``: each seat's account (None for a computer player). The one rule
    for both tables: the pure table on `Suspend`, the server's actor when a write's cards suspend an
    account or moderation tells it of a suspension (`suspension_news`)."""
    ends = _SUSPENSION_ENDS.get(phase)
    if ends is None:
        return None
    seat = next(
        (seat for seat, account in enumerate(accounts) if account is not None and account in suspended),
        None,
    )
    return None if seat is None else SuspensionEnding(seat, ends)


def suspend(state: TableState, seat: int, effects: list[Effect]) -> TableState:
    """The account at ``seat`` was suspended: what `suspension_ending` says ends. A match in
    progress ends unfinished; a table not yet started is cancelled; a vote closes for the meeting
    room. Everyone else goes back to the meeting room. A computer player's seat: nothing ends."""
    player = state.seats[seat].player
    ending = None if player is None else suspension_ending(state.phase, state.config.players, {player})
    if ending is None:
        return state
    if ending.ends is SuspensionEnds.MATCH:
        return end_unfinished(state, Termination.SUSPENSION, ending.seat, effects)
    if ending.ends is SuspensionEnds.TABLE:
        effects.append(TableCancelled(Cancellation.SUSPENSION))
    else:
        effects.append(VoteResult(VoteChoice.LOBBY, state.config.players, state.config.organizer))
    return close(state, humans(state, except_seat=ending.seat), effects)
