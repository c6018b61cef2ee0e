"""The event file (``amigos-event/1``): reading it into checked values.

Reading and checking happen together so that every refusal can say exactly where the problem is
(``results[3] (round 2, table 1): ...``). A value of :class:`EventFile` is therefore always possible
under the rules: every result belongs to a table of the schedule, appears once, has a winner, and
no round has results before the previous one is complete.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from amigos.recreo.errors import RecreoError, Refusal
from amigos.recreo.formats import PLAYER_COUNTS, Format, format_for
from amigos.recreo.scoring import (
    MAX_HAND_TANTOS,
    MatchEnd,
    MatchOutcome,
    ResultError,
    Target,
    max_match_score,
    score_match,
)

FORMAT_TAG = "amigos-event/1"
#: The largest stake a file may carry: what the site can store (nine digits, two of them decimals).
MAX_STAKE = Decimal("9999999.99")
#: A castigo costs at most what the richest hand would win.
MAX_PENALTY = MAX_HAND_TANTOS
#: Round, table and player numbers above this are refused before they are even compared.
_LARGEST = 2**31 - 1


class EventFileError(RecreoError):
    """An event file that is malformed or impossible; the message says what and where."""


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: int
    score: tuple[int, int]
    end: MatchEnd = MatchEnd.TARGET
    offender: str | None = None


@dataclass(frozen=True, slots=True)
class Penalty:
    """A castigo: ``points`` tantos against one player, recorded in one round."""

    round: int
    player: int
    points: int


@dataclass(frozen=True, slots=True)
class EventFile:
    """A recreational event as its file tells it (players, set-up, results, castigos), checked.

    Not to be confused with the site's stored event (``amigos.web.events.models.Event``) nor with
    the events of a played hand in the engine's record.
    """

    name: str
    origin: str
    date: str
    players: tuple[str, ...]
    target: Target
    stake: Decimal
    extra_payment: bool
    results: tuple[TableResult, ...]
    penalties: tuple[Penalty, ...]

    @property
    def format(self) -> Format:
        return format_for(len(self.players))

    def outcome(self, result: TableResult) -> MatchOutcome:
        return score_match(self.target, result.score, result.end, result.offender)


def _show(value: Any, limit: int = 60) -> str:
    """A value as JSON for an error message, cut short so the message stays one readable line."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad_field(where: str, key: str, wanted: str, value: Any) -> EventFileError:
    """A field of the wrong kind; ``wanted`` names the kind (integer, string, list, object, boolean)."""
    return EventFileError(
        Refusal.BAD_FIELD,
        f"'{key}' must be {_KINDS[wanted]}, got {_show(value)}",
        where=where,
        field=key,
        wanted=wanted,
    )


_KINDS = {
    "integer": "an integer",
    "string": "a string",
    "list": "a list",
    "object": "an object",
    "boolean": "true or false",
}


def _int(obj: dict[str, Any], key: str, where: str, minimum: int, maximum: int) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad_field(where, key, "integer", value)
    if not minimum <= value <= maximum:
        raise EventFileError(
            Refusal.BAD_FIELD,
            f"'{key}' must be from {minimum} to {maximum}, got {_show(value)}",
            where=where,
            field=key,
            wanted="range",
            minimum=minimum,
            maximum=maximum,
        )
    return int(value)


def _optional_str(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise _bad_field("", key, "string", value)
    return value


def _parse_target(raw: dict[str, Any]) -> Target:
    value = raw.get("target")
    if _is_int(value) and value in (100, 200):
        return Target(value)
    if value == "hands":
        return Target.HANDS_WON
    raise EventFileError(Refusal.BAD_TARGET, f"'target' must be 100, 200 or \"hands\", got {_show(value)}")


def _parse_players(raw: dict[str, Any]) -> tuple[str, ...]:
    players = raw.get("players")
    if not isinstance(players, list):
        raise _bad_field("", "players", "list", players)
    if len(players) not in PLAYER_COUNTS:
        counts = ", ".join(str(n) for n in PLAYER_COUNTS)
        raise EventFileError(
            Refusal.PLAYER_COUNT,
            f"'players': unknown player count {len(players)} (formats exist for {counts})",
            count=len(players),
            counts=counts,
        )
    for index, name in enumerate(players):
        where = f"players[{index}]"
        if not isinstance(name, str) or not name.strip():
            raise EventFileError(
                Refusal.PLAYER_NAME,
                "a player's name must be a non-empty string",
                where=where,
                number=index + 1,
            )
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise EventFileError(
                Refusal.PLAYER_NAME, "the name is not valid Unicode text", where=where, number=index + 1
            ) from None
    return tuple(players)


def _parse_stake(raw: dict[str, Any]) -> Decimal:
    value = raw.get("stake", 0)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
        or not 0 <= value <= MAX_STAKE
    ):
        raise EventFileError(
            Refusal.BAD_STAKE,
            f"'stake' must be a number from 0 to {MAX_STAKE}, got {_show(value)}",
            highest=str(MAX_STAKE),
        )
    stake = Decimal(str(value))
    if stake != stake.quantize(Decimal("0.01")):
        raise EventFileError(
            Refusal.BAD_STAKE,
            f"'stake' must be a number from 0 to {MAX_STAKE}, got {_show(value)}",
            highest=str(MAX_STAKE),
        )
    return stake


def _parse_result(index: int, item: Any, event_format: Format, target: Target) -> TableResult:
    where = f"results[{index}]"
    if not isinstance(item, dict):
        raise _bad_field(where, "results", "object", item)
    round_number = _int(item, "round", where, 1, _LARGEST)
    table = _int(item, "table", where, 1, _LARGEST)
    place = {"round": round_number, "table": table}
    where = f"{where} (round {round_number}, table {table})"
    _check_round(event_format, round_number, where)
    if event_format.assignment(round_number, table) is None:
        raise EventFileError(
            Refusal.NO_SUCH_TABLE,
            f"table {table} does not exist, "
            f"round {round_number} has {event_format.tables_per_round} table(s)",
            where=where,
            **place,
        )
    score = item.get("score")
    highest = max_match_score(target)
    if not (
        isinstance(score, list) and len(score) == 2 and all(_is_int(s) and 0 <= s <= highest for s in score)
    ):
        raise EventFileError(
            Refusal.BAD_SCORE,
            f"'score' must be two integers from 0 to {highest}, got {_show(score)}",
            where=where,
            highest=highest,
            **place,
        )
    end_raw = item.get("end", "target")
    try:
        end = MatchEnd(end_raw)
    except ValueError:
        raise EventFileError(
            Refusal.BAD_END,
            f'\'end\' must be "target", "suspended" or "default", got {_show(end_raw)}',
            where=where,
            **place,
        ) from None
    offender = item.get("offender")
    if end is MatchEnd.DEFAULT and offender not in ("a", "b"):
        raise EventFileError(
            Refusal.BAD_OFFENDER,
            f'default needs \'offender\' "a" or "b", not {_show(offender)}',
            where=where,
            **place,
        )
    if end is not MatchEnd.DEFAULT and offender is not None:
        raise EventFileError(
            Refusal.OFFENDER_MISMATCH,
            "'offender' is only meaningful when 'end' is \"default\"",
            where=where,
            **place,
        )
    result = TableResult(round_number, table, (score[0], score[1]), end, offender)
    try:
        score_match(target, result.score, end, offender)
    except ResultError as exc:
        message = str(exc)
        raise EventFileError(exc.code, message, where=where, **{**exc.params, **place}) from None
    return result


def _check_order(results: list[TableResult], event_format: Format) -> None:
    """Every table appears once, and round k+1 has no result until round k is complete."""
    seen: dict[tuple[int, int], int] = {}
    for index, result in enumerate(results):
        key = (result.round, result.table)
        if key in seen:
            raise EventFileError(
                Refusal.SECOND_RESULT,
                f"a second result for this table (the first is results[{seen[key]}])",
                where=f"results[{index}] (round {result.round}, table {result.table})",
                round=result.round,
                table=result.table,
            )
        seen[key] = index
    for index, result in enumerate(results):
        for earlier in range(1, result.round):
            tables_of_round = event_format.rounds[earlier - 1].tables
            missing = [t.table for t in tables_of_round if (earlier, t.table) not in seen]
            if missing:
                tables = ", ".join(str(t) for t in missing)
                raise EventFileError(
                    Refusal.ROUND_INCOMPLETE,
                    f"round {earlier} is incomplete (no result for table {tables})",
                    where=f"results[{index}] (round {result.round}, table {result.table})",
                    round=result.round,
                    table=result.table,
                    earlier=earlier,
                    tables=tables,
                )


def _parse_penalty(index: int, item: Any, event_format: Format) -> Penalty:
    where = f"penalties[{index}]"
    if not isinstance(item, dict):
        raise _bad_field(where, "penalties", "object", item)
    round_number = _int(item, "round", where, 1, _LARGEST)
    player = _int(item, "player", where, 1, _LARGEST)
    points = _int(item, "points", where, 0, MAX_PENALTY)
    _check_round(event_format, round_number, where)
    if player > event_format.players:
        raise EventFileError(
            Refusal.NO_SUCH_PLAYER,
            f"player {player} does not exist, the event has {event_format.players}",
            where=where,
            player=player,
            players=event_format.players,
        )
    return Penalty(round_number, player, points)


def _check_round(event_format: Format, round_number: int, where: str) -> None:
    if event_format.round(round_number) is None:
        raise EventFileError(
            Refusal.NO_SUCH_ROUND,
            f"round {round_number} does not exist, "
            f"the {event_format.players}-player format has {len(event_format.rounds)} rounds",
            where=where,
            round=round_number,
            rounds=len(event_format.rounds),
        )


def event_from_dict(raw: Any) -> EventFile:
    """Check a decoded event file and build the :class:`EventFile`, or raise :class:`EventFileError`."""
    if not isinstance(raw, dict):
        raise EventFileError(Refusal.NOT_OBJECT, "the event file must hold a JSON object")
    if raw.get("format") != FORMAT_TAG:
        found = _show(raw.get("format"))
        raise EventFileError(
            Refusal.UNKNOWN_FORMAT,
            f"'format': unknown format {found} (expected {FORMAT_TAG})",
            expected=FORMAT_TAG,
        )
    players = _parse_players(raw)
    event_format = format_for(len(players))
    target = _parse_target(raw)
    stake = _parse_stake(raw)
    extra = raw.get("extra_payment", False)
    if not isinstance(extra, bool):
        raise _bad_field("", "extra_payment", "boolean", extra)
    date = _optional_str(raw, "date")
    if date:
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise EventFileError(
                Refusal.BAD_DATE, f"'date' must be a date like 2026-11-21, got {_show(date)}"
            ) from None
    results_raw = raw.get("results")
    if not isinstance(results_raw, list):
        raise _bad_field("", "results", "list", results_raw)
    results = [_parse_result(i, item, event_format, target) for i, item in enumerate(results_raw)]
    _check_order(results, event_format)
    penalties_raw = raw.get("penalties", [])
    if not isinstance(penalties_raw, list):
        raise _bad_field("", "penalties", "list", penalties_raw)
    penalties = [_parse_penalty(i, item, event_format) for i, item in enumerate(penalties_raw)]
    return EventFile(
        name=_optional_str(raw, "name"),
        origin=_optional_str(raw, "origin"),
        date=date,
        players=players,
        target=target,
        stake=stake,
        extra_payment=extra,
        results=tuple(results),
        penalties=tuple(penalties),
    )


def _refuse_constant(name: str) -> Any:
    raise EventFileError(Refusal.NOT_JSON, f"not valid JSON: {name} is not a number")


def parse_event(text: str) -> EventFile:
    """Decode and check an event file's text."""
    try:
        raw = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise EventFileError(
            Refusal.NOT_JSON,
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except RecursionError:
        raise EventFileError(Refusal.NOT_JSON, "not valid JSON: nested too deeply") from None
    except EventFileError:
        raise
    except ValueError as exc:  # e.g. an integer with more digits than Python will convert
        raise EventFileError(Refusal.NOT_JSON, f"not valid JSON: {exc}") from None
    return event_from_dict(raw)


def event_to_dict(event: EventFile) -> dict[str, Any]:
    """The file form of an event, so that exporting then importing gives the same event."""
    stake: int | float = int(event.stake) if event.stake == event.stake.to_integral() else float(event.stake)
    results: list[dict[str, Any]] = []
    for r in event.results:
        item: dict[str, Any] = {"round": r.round, "table": r.table, "score": list(r.score)}
        if r.end is not MatchEnd.TARGET:
            item["end"] = r.end.value
        if r.offender is not None:
            item["offender"] = r.offender
        results.append(item)
    return {
        "format": FORMAT_TAG,
        "name": event.name,
        "origin": event.origin,
        "date": event.date,
        "players": list(event.players),
        "target": event.target.value,
        "stake": stake,
        "extra_payment": event.extra_payment,
        "results": results,
        "penalties": [{"round": p.round, "player": p.player, "points": p.points} for p in event.penalties],
    }
