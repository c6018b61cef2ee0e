"""The `amigos-rating/1` file: reading it (every refusal of RATING-FORMAT.md) and the output JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .formula import AMIGOS_VARIANTS, RatedMatch, RatingInputError, outcome_of
from .ladder import PlayerStanding

FORMAT = "amigos-rating/1"


@dataclass(frozen=True, slots=True)
class RatingFile:
    players: tuple[str, ...]
    matches: tuple[RatedMatch, ...]


def parse_rating_file(source: str | bytes | dict[str, Any]) -> RatingFile:
    """Read and check a rating file; raises RatingInputError naming the match (from 1) at fault."""
    obj: Any = source
    if isinstance(obj, bytes):
        try:
            obj = obj.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RatingInputError(None, "the file is not UTF-8 text") from exc
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except RecursionError as exc:
            raise RatingInputError(None, "not JSON: nested too deeply") from exc
        except ValueError as exc:
            raise RatingInputError(None, f"not JSON: {str(exc).splitlines()[0][:80]}") from exc
    if not isinstance(obj, dict):
        raise RatingInputError(None, "the file must hold a JSON object")
    if obj.get("format") != FORMAT:
        raise RatingInputError(None, f"the format must be {FORMAT!r}")
    players = _players(obj.get("players"))
    raw_matches = obj.get("matches")
    if not isinstance(raw_matches, list):
        raise RatingInputError(None, "matches must be a list")
    registered = set(players)
    matches = tuple(_match(index, raw, registered) for index, raw in enumerate(raw_matches, start=1))
    return RatingFile(players=players, matches=matches)


def _players(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise RatingInputError(None, "players must be a list of names")
    seen: set[str] = set()
    for name in raw:
        if not isinstance(name, str) or not name:
            raise RatingInputError(None, f"a player's name must be a non-empty string, not {name!r}")
        if name in seen:
            raise RatingInputError(None, f"{name!r} is listed twice")
        seen.add(name)
    return tuple(raw)


def _match(index: int, raw: Any, registered: set[str]) -> RatedMatch:
    if not isinstance(raw, dict):
        raise RatingInputError(index, "a match must be a JSON object")
    variant = raw.get("variant")
    if not isinstance(variant, str) or variant not in AMIGOS_VARIANTS:
        raise RatingInputError(index, f"unknown variant {variant!r}")
    teams = raw.get("teams")
    if not isinstance(teams, list) or len(teams) != 2:
        raise RatingInputError(index, "teams must be two teams")
    for team in teams:
        if not isinstance(team, list) or len(team) != 2:
            raise RatingInputError(index, "a team must be two players")
        for player in team:
            if not isinstance(player, str) or player not in registered:
                raise RatingInputError(index, f"{player!r} is not a registered player")
    four = [player for team in teams for player in team]
    if len(set(four)) != 4:
        raise RatingInputError(index, "a player appears twice in the match")
    score = raw.get("score")
    if (
        not isinstance(score, list)
        or len(score) != 2
        or not all(isinstance(total, int) and not isinstance(total, bool) and total >= 0 for total in score)
    ):
        raise RatingInputError(index, "score must be two non-negative integers")
    complete = raw.get("complete", True)
    if not isinstance(complete, bool):
        raise RatingInputError(index, "complete must be true or false")
    match = RatedMatch(
        variant=variant,
        teams=((teams[0][0], teams[0][1]), (teams[1][0], teams[1][1])),
        score=(score[0], score[1]),
        complete=complete,
    )
    if complete:
        outcome_of(variant, match.score, index)  # a complete match must be a finished one
    return match


def rating_output(standings: Sequence[PlayerStanding]) -> dict[str, Any]:
    """The JSON object `amigos rating` prints."""
    return {"players": [standing.to_dict() for standing in standings]}
