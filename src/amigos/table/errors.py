"""The one error a table raises for a refused input, with a stable code for the site to translate.

The site never matches the English message: it maps ``code`` to a Spanish and English text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .effects import Effect
    from .model import TableState

#: Every code :class:`TableError` can carry, so callers (and tests) can check they know them all.
CODES = frozenset(
    {
        "wrong_phase",  # the input does not apply to what the table is doing now
        "not_seated",  # the sender holds no seat at this table (the protocol's code)
        "not_organizer",  # only the organizer may do this
        "not_invited",  # the seat has no pending invitation
        "invitation_expired",  # an acceptance after the invitation's moment: it lapsed
        "not_all_accepted",  # the match cannot start before every seat accepted
        "already_started",  # the match has started already: no start button any more
        "computer_seat",  # a human command for a seat a computer player holds
        "not_your_turn",  # a move from a seat that is not the one to move
        "illegal_play",  # the engine refused the move (a tile not held, an arm it does not fit, ...)
        "bad_key",  # a deal key that is not a UUID
        "leader_required",  # the first hand of this family needs a leader from the caller
        "bad_leader",  # a leader that is not a seat
        "bad_vote",  # a vote for no known choice
        "not_voting",  # a choice while no vote is open
        "bad_input",  # stored or sent data that is not a table input
        "no_reshuffle",  # no new deal may be asked now (not offered to the seat, or play began)
        "table_paused",  # the table waits for an absent player: no move until they return
        "not_playing",  # a move or a new deal asked for with no match under way, or no hand in play
        "held_by_computer",  # a person's command for their seat, which a computer player holds
    }
)


class TableError(ValueError):
    """An input the table refuses. The caller's state is unchanged (states are immutable).

    ``code`` is one of :data:`CODES`; ``detail`` is an English sentence for logs and developers.

    ``heard``: what the refused input still did, when it did something: the table after it and
    the effects to carry out (None: nothing, the caller's state stands). A person's play or
    request for a new deal from their own seat is a sign of life whatever the rules then say of it
    (`presence.command_heard`): their silence counts from it, and a player judged away for a
    silence whose page is still joined is back. `advance` fills it; a caller keeps that table as
    it would keep an accepted input's, then answers the refusal.
    """

    def __init__(
        self, code: str, detail: str = "", *, heard: tuple[TableState, list[Effect]] | None = None
    ) -> None:
        if code not in CODES:
            raise ValueError(f"unknown table error code: {code}")
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.heard = heard
