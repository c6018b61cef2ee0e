"""What can happen to a table: the inputs of :func:`amigos.table.advance`.

Commands from players carry the seat the server authenticated; the table checks that the seat may
do it. ``Tick`` only lets time pass: the server sends it when :func:`next_deadline` falls due.
"""

from __future__ import annotations

from dataclasses import dataclass

from amigos.engine import Action

from .model import VoteChoice


@dataclass(frozen=True, slots=True)
class Accept:
    """The player at ``seat`` accepts the invitation."""

    seat: int


@dataclass(frozen=True, slots=True)
class Refuse:
    """The player at ``seat`` refuses the invitation."""

    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    """The player at ``seat`` presses the start button (only the organizer's press starts the match,
    once every seat has accepted: `gathering.start_refusal`)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """The player at ``seat`` calls the table off before its match starts (only the organizer may:
    `gathering.cancel_refusal`)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The server deals the next hand with ``key`` (a fresh UUID4 from the CSPRNG).

    ``leader`` is the first hand's leader for Amigos and Cuban, chosen at random by the server
    (the draw games find theirs in the deal); it is ignored after the first hand, where the rules
    decide.
    """

    key: str
    leader: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """``seat`` lays a tile or passes.

    ``by_computer`` is True when the server's computer player sends it for a seat it holds; a
    human's command for such a seat (and a computer's for a human's seat) is refused.
    """

    seat: int
    action: Action
    by_computer: bool = False


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The browser at ``seat`` says it is still there (also brings back an absent player)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CommandHeard:
    """A person's move or request for a new deal from ``seat``'s page that the table never judged
    (the server refused it first, for the version its page had seen). It came from a page that is
    there, so it counts as a play does for presence (`presence.heard_from`, `Sign.PLAY`), and
    nothing else happens."""

    seat: int


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The server lost every socket of ``seat``."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reconnected:
    """``seat`` has a socket again."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player at ``seat`` leaves the table on purpose."""

    seat: int


@dataclass(frozen=True, slots=True)
class Vote:
    """``seat`` chooses what happens after the match (rematch, rotate or lobby)."""

    seat: int
    choice: VoteChoice


@dataclass(frozen=True, slots=True)
class AskReshuffle:
    """Cuban: ``seat``, dealt 5 or more doubles, asks for a new deal before the first move."""

    seat: int


@dataclass(frozen=True, slots=True)
class Suspend:
    """The account at ``seat`` was suspended (the card ladder, or an administrator's red card)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RedCard:
    """An administrator gives ``seat`` a red card during the match (spec §3.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeOver:
    """Another process took the table over from its log: the seat in turn gets fresh time."""


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes; whatever fell due by ``now`` happens."""


TableInput = (
    Accept
    | Refuse
    | Start
    | Cancel
    | Deal
    | Move
    | Heartbeat
    | CommandHeard
    | Disconnected
    | Reconnected
    | Leave
    | Vote
    | AskReshuffle
    | Suspend
    | RedCard
    | TakeOver
    | Tick
)
