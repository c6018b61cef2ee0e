"""Why the Recreo core refuses something: a stable code, the values involved, and an English line.

The English line is for the command line and logs. Anything shown to a person on the site is built
from :attr:`RecreoError.code` and :attr:`RecreoError.params` instead, so that a page in Spanish never
shows an English sentence and no caller has to match message text.
"""

from __future__ import annotations

import enum
from typing import Any


class Refusal(enum.StrEnum):
    """Every reason the core can give. The values are stable: sites and tests key on them."""

    # A hand on the sheet.
    BAD_SIDE = "bad-side"
    HAND_POINTS = "hand-points"
    TIED_BLOCK_POINTS = "tied-block-points"
    HAND_AFTER_END = "hand-after-end"
    # Seating and the lead.
    LEADER_NOT_SEATED = "leader-not-seated"
    RIGHT_IS_LEADER = "right-is-leader"
    RIGHT_IS_PARTNER = "right-is-partner"
    # Ending a match from its sheet.
    MATCH_OVER = "match-over"
    MATCH_NOT_OVER = "match-not-over"
    SUSPEND_OVER = "suspend-over"
    SUSPEND_TIED = "suspend-tied"
    FORFEIT_OVER = "forfeit-over"
    BAD_OFFENDER = "bad-offender"
    # A final result.
    NEGATIVE_SCORE = "negative-score"
    SCORE_TOO_HIGH = "score-too-high"
    OFFENDER_MISMATCH = "offender-mismatch"
    TIED_SCORE = "tied-score"
    DEFAULT_AFTER_TARGET = "default-after-target"
    SUSPENDED_AFTER_TARGET = "suspended-after-target"
    TARGET_NOT_REACHED = "target-not-reached"
    BOTH_REACHED = "both-reached"
    HANDS_NOT_OVER = "hands-not-over"
    HANDS_ALREADY_OVER = "hands-already-over"
    HANDS_ENDED_NORMALLY = "hands-ended-normally"
    NO_TANTOS_LIMIT = "no-tantos-limit"
    # The event file.
    NOT_JSON = "not-json"
    NOT_OBJECT = "not-object"
    UNKNOWN_FORMAT = "unknown-format"
    BAD_FIELD = "bad-field"
    PLAYER_COUNT = "player-count"
    PLAYER_NAME = "player-name"
    BAD_TARGET = "bad-target"
    BAD_STAKE = "bad-stake"
    BAD_DATE = "bad-date"
    NO_SUCH_ROUND = "no-such-round"
    NO_SUCH_TABLE = "no-such-table"
    NO_SUCH_PLAYER = "no-such-player"
    BAD_SCORE = "bad-score"
    BAD_END = "bad-end"
    SECOND_RESULT = "second-result"
    ROUND_INCOMPLETE = "round-incomplete"


class RecreoError(ValueError):
    """A refusal of the core. ``where`` points into an event file (``results[3]``) when it comes
    from one, and is empty otherwise."""

    def __init__(self, code: Refusal, message: str, *, where: str = "", **params: Any) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.code = code
        self.where = where
        self.params = params
