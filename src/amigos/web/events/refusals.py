"""The Recreo core's refusals in the person's language, chosen by code (never by English text).

:mod:`amigos.recreo` explains itself in English for the command line; it also gives every refusal a
stable :class:`~amigos.recreo.errors.Refusal` code and the values involved. This table turns those
into a sentence for the page, so a Spanish page never shows the core's English.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from amigos.recreo.errors import RecreoError, Refusal

MESSAGES: dict[Refusal, Promise] = {
    Refusal.BAD_SIDE: _("Choose a pair."),
    Refusal.HAND_POINTS: _("A hand is worth from 1 to %(highest)s points."),
    Refusal.TIED_BLOCK_POINTS: _("A tied block is written as 0."),
    Refusal.HAND_AFTER_END: _("Hand %(hand)s was entered after the match was over."),
    Refusal.LEADER_NOT_SEATED: _("The leader and the player at their right must both sit at this table."),
    Refusal.RIGHT_IS_LEADER: _("The leader cannot be the player at their own right: choose an opponent."),
    Refusal.RIGHT_IS_PARTNER: _("The player at the leader's right is an opponent, never the partner."),
    Refusal.MATCH_OVER: _("The match is already over."),
    Refusal.MATCH_NOT_OVER: _("The match has not reached its target yet."),
    Refusal.SUSPEND_OVER: _("The match is already over: confirm it instead of suspending it."),
    Refusal.SUSPEND_TIED: _("The score is tied: play one more hand before suspending."),
    Refusal.FORFEIT_OVER: _("The match is already over: there is nothing to forfeit."),
    Refusal.BAD_OFFENDER: _("Choose the pair that forfeits."),
    Refusal.NEGATIVE_SCORE: _("Points cannot be negative."),
    Refusal.SCORE_TOO_HIGH: _("%(a)s–%(b)s cannot happen: no pair ends a match with more than %(highest)s."),
    Refusal.OFFENDER_MISMATCH: _("Only a match ended by default has an offending pair."),
    Refusal.TIED_SCORE: _("%(a)s–%(b)s is a tie: a match always has a winning pair."),
    Refusal.DEFAULT_AFTER_TARGET: _(
        "%(a)s–%(b)s already reached the target of %(limit)s: there is nothing left to forfeit."
    ),
    Refusal.SUSPENDED_AFTER_TARGET: _(
        "%(a)s–%(b)s reached the target of %(limit)s: the match ended normally, it was not suspended."
    ),
    Refusal.TARGET_NOT_REACHED: _("%(a)s–%(b)s did not reach the target of %(limit)s."),
    Refusal.BOTH_REACHED: _("%(a)s–%(b)s: only one pair can reach the target of %(limit)s."),
    Refusal.HANDS_NOT_OVER: _("%(a)s–%(b)s hands: a match is won with 4 hands and a lead of 2."),
    Refusal.HANDS_ALREADY_OVER: _("%(a)s–%(b)s hands: the match was already over one hand earlier."),
    Refusal.HANDS_ENDED_NORMALLY: _("%(a)s–%(b)s hands reached the target: the match ended normally."),
    Refusal.NO_TANTOS_LIMIT: _("The hands-won target has no points limit."),
    Refusal.NOT_JSON: _("The file is not valid JSON."),
    Refusal.NOT_OBJECT: _("The file must hold a JSON object."),
    Refusal.UNKNOWN_FORMAT: _("This is not an event file (%(expected)s)."),
    Refusal.BAD_FIELD: _("The field “%(field)s” has the wrong kind of value."),
    Refusal.PLAYER_COUNT: _("Events are for %(counts)s players; this file has %(count)s."),
    Refusal.PLAYER_NAME: _("Player %(number)s needs a name."),
    Refusal.BAD_TARGET: _("The target must be 100, 200 or hands won."),
    Refusal.BAD_STAKE: _("The stake must be a number from 0 to %(highest)s, in cents at most."),
    Refusal.BAD_DATE: _("The date must look like 2026-11-21."),
    Refusal.NO_SUCH_ROUND: _("Round %(round)s does not exist: this event has %(rounds)s rounds."),
    Refusal.NO_SUCH_TABLE: _("Table %(table)s does not exist in round %(round)s."),
    Refusal.NO_SUCH_PLAYER: _("Player %(player)s does not exist: this event has %(players)s players."),
    Refusal.BAD_SCORE: _("The score must be two whole numbers from 0 to %(highest)s."),
    Refusal.BAD_END: _("A match ends by target, suspension or default."),
    Refusal.SECOND_RESULT: _("This table has two results."),
    Refusal.ROUND_INCOMPLETE: _("Round %(earlier)s is incomplete (no result for table %(tables)s)."),
}

RANGE_MESSAGE = _("The field “%(field)s” must be a whole number from %(minimum)s to %(maximum)s.")
PLACE_MESSAGE = _("Round %(round)s, table %(table)s: %(reason)s")
WHERE_MESSAGE = _("%(where)s: %(reason)s")


def explain(exc: RecreoError) -> str:
    """One sentence for the page, in the active language, saying what was refused and where."""
    params: dict[str, Any] = dict(exc.params)
    if exc.code is Refusal.BAD_FIELD and params.get("wanted") == "range":
        reason = str(RANGE_MESSAGE) % params
    else:
        reason = str(MESSAGES[exc.code]) % params
    if "round" in params and "table" in params and exc.code not in _PLACE_IN_MESSAGE:
        return str(PLACE_MESSAGE) % {**params, "reason": reason}
    if exc.where and "round" not in params:
        # A pointer into the file (players[2], penalties[0]) is the same in every language.
        return str(WHERE_MESSAGE) % {"where": exc.where.split(" ")[0], "reason": reason}
    return reason


_PLACE_IN_MESSAGE = frozenset({Refusal.NO_SUCH_TABLE, Refusal.NO_SUCH_ROUND})
