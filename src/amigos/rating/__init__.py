"""amigos.rating: the PR points and quintiles of the online spec (§4.2), as RATING-FORMAT.md reads it.

Pure (standard library only), so that the site and `amigos rating` run the very same code and anyone
can audit a classification from the finished matches alone.
"""

from __future__ import annotations

from .formula import (
    AMIGOS_VARIANTS,
    MatchOutcome,
    RatedMatch,
    RatingInputError,
    match_changes,
    outcome_of,
    quintile,
)
from .ladder import Ladder, PlayerStanding, rate
from .rating_file import FORMAT, RatingFile, parse_rating_file, rating_output

__all__ = [
    "AMIGOS_VARIANTS",
    "FORMAT",
    "Ladder",
    "MatchOutcome",
    "PlayerStanding",
    "RatedMatch",
    "RatingFile",
    "RatingInputError",
    "match_changes",
    "outcome_of",
    "parse_rating_file",
    "quintile",
    "rate",
    "rating_output",
]
