"""The event file (``amigos-event/1``): reading it into checked values.

Reading and checking happen together so that every refusal can say exactly where the problem is
(``results[3] (round 2, table 1): ...``). A value of :class:`Event` is therefore always possible
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

from amigos.recreo.formats import PLAYER_COUNTS, Format, format_for
from amigos.recreo.scoring import MatchEnd, MatchOutcome, ResultError, Target, score_match

FORMAT_TAG = "amigos-event/1"


class EventFileError(ValueError):
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
class Event:
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


def _int(obj: dict[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EventFileError(f"{where}: '{key}' must be an integer, got {_show(value)}")
    if value < minimum:
        raise EventFileError(f"{where}: '{key}' must be at least {minimum}, got {value}")
    return int(value)


def _optional_str(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise EventFileError(f"'{key}' must be a string, got {_show(value)}")
    return value


def _parse_target(raw: dict[str, Any]) -> Target:
    value = raw.get("target")
    if _is_int(value) and value in (100, 200):
        return Target(value)
    if value == "hands":
        return Target.HANDS_WON
    raise EventFileError(f"'target' must be 100, 200 or \"hands\", got {_show(value)}")


def _parse_players(raw: dict[str, Any]) -> tuple[str, ...]:
    players = raw.get("players")
    if not isinstance(players, list):
        raise EventFileError(f"'players' must be a list of names, got {_show(players)}")
    if len(players) not in PLAYER_COUNTS:
        counts = ", ".join(str(n) for n in PLAYER_COUNTS)
        raise EventFileError(f"'players': unknown player count {len(players)} (formats exist for {counts})")
    for index, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise EventFileError(f"players[{index}]: a player's name must be a non-empty string")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise EventFileError(f"players[{index}]: the name is not valid Unicode text") from None
    return tuple(players)


def _parse_stake(raw: dict[str, Any]) -> Decimal:
    value = raw.get("stake", 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EventFileError(f"'stake' must be a number, got {_show(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise EventFileError("'stake' must be a finite number")
    if value < 0:
        raise EventFileError(f"'stake' must not be negative, got {value}")
    return Decimal(str(value))


def _parse_result(index: int, item: Any, event_format: Format, target: Target) -> TableResult:
    where = f"results[{index}]"
    if not isinstance(item, dict):
        raise EventFileError(f"{where}: a result must be an object")
    round_number = _int(item, "round", where, 1)
    table = _int(item, "table", where, 1)
    where = f"{where} (round {round_number}, table {table})"
    if event_format.round(round_number) is None:
        raise EventFileError(
            f"{where}: round {round_number} does not exist, "
            f"the {event_format.players}-player format has {len(event_format.rounds)} rounds"
        )
    if event_format.assignment(round_number, table) is None:
        raise EventFileError(
            f"{where}: table {table} does not exist, round {round_number} has "
            f"{event_format.tables_per_round} table(s)"
        )
    score = item.get("score")
    if not (isinstance(score, list) and len(score) == 2 and all(_is_int(s) and s >= 0 for s in score)):
        raise EventFileError(f"{where}: 'score' must be two non-negative integers, got {_show(score)}")
    end_raw = item.get("end", "target")
    try:
        end = MatchEnd(end_raw)
    except ValueError:
        raise EventFileError(
            f'{where}: \'end\' must be "target", "suspended" or "default", got {_show(end_raw)}'
        ) from None
    offender = item.get("offender")
    if end is MatchEnd.DEFAULT and offender not in ("a", "b"):
        raise EventFileError(f'{where}: default needs \'offender\' "a" or "b", not {_show(offender)}')
    if end is not MatchEnd.DEFAULT and offender is not None:
        raise EventFileError(f"{where}: 'offender' is only meaningful when 'end' is \"default\"")
    result = TableResult(round_number, table, (score[0], score[1]), end, offender)
    try:
        score_match(target, result.score, end, offender)
    except ResultError as exc:
        raise EventFileError(f"{where}: {exc}") from None
    return result


def _check_order(results: list[TableResult], event_format: Format) -> None:
    """Every table appears once, and round k+1 has no result until round k is complete."""
    seen: dict[tuple[int, int], int] = {}
    for index, result in enumerate(results):
        key = (result.round, result.table)
        if key in seen:
            raise EventFileError(
                f"results[{index}] (round {result.round}, table {result.table}): "
                f"a second result for this table (the first is results[{seen[key]}])"
            )
        seen[key] = index
    for index, result in enumerate(results):
        for earlier in range(1, result.round):
            tables_of_round = event_format.rounds[earlier - 1].tables
            missing = [t.table for t in tables_of_round if (earlier, t.table) not in seen]
            if missing:
                tables = ", ".join(str(t) for t in missing)
                raise EventFileError(
                    f"results[{index}] (round {result.round}, table {result.table}): "
                    f"round {earlier} is incomplete (no result for table {tables})"
                )


def _parse_penalty(index: int, item: Any, event_format: Format) -> Penalty:
    where = f"penalties[{index}]"
    if not isinstance(item, dict):
        raise EventFileError(f"{where}: a penalty must be an object")
    round_number = _int(item, "round", where, 1)
    player = _int(item, "player", where, 1)
    points = _int(item, "points", where, 0)
    if event_format.round(round_number) is None:
        raise EventFileError(
            f"{where}: round {round_number} does not exist, "
            f"the {event_format.players}-player format has {len(event_format.rounds)} rounds"
        )
    if player > event_format.players:
        raise EventFileError(f"{where}: player {player} does not exist, the event has {event_format.players}")
    return Penalty(round_number, player, points)


def event_from_dict(raw: Any) -> Event:
    """Check a decoded event file and build the :class:`Event`, or raise :class:`EventFileError`."""
    if not isinstance(raw, dict):
        raise EventFileError("the event file must hold a JSON object")
    if raw.get("format") != FORMAT_TAG:
        found = _show(raw.get("format"))
        raise EventFileError(f"'format': unknown format {found} (expected {FORMAT_TAG})")
    players = _parse_players(raw)
    event_format = format_for(len(players))
    target = _parse_target(raw)
    stake = _parse_stake(raw)
    extra = raw.get("extra_payment", False)
    if not isinstance(extra, bool):
        raise EventFileError(f"'extra_payment' must be true or false, got {_show(extra)}")
    date = _optional_str(raw, "date")
    if date:
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise EventFileError(f"'date' must be a date like 2026-11-21, got {_show(date)}") from None
    results_raw = raw.get("results")
    if not isinstance(results_raw, list):
        raise EventFileError(f"'results' must be a list, got {_show(results_raw)}")
    results = [_parse_result(i, item, event_format, target) for i, item in enumerate(results_raw)]
    _check_order(results, event_format)
    penalties_raw = raw.get("penalties", [])
    if not isinstance(penalties_raw, list):
        raise EventFileError(f"'penalties' must be a list, got {_show(penalties_raw)}")
    penalties = [_parse_penalty(i, item, event_format) for i, item in enumerate(penalties_raw)]
    return Event(
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
    raise EventFileError(f"not valid JSON: {name} is not a number")


def parse_event(text: str) -> Event:
    """Decode and check an event file's text."""
    try:
        raw = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise EventFileError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise EventFileError("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will convert
        raise EventFileError(f"not valid JSON: {exc}") from None
    return event_from_dict(raw)


def event_to_dict(event: Event) -> dict[str, Any]:
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
