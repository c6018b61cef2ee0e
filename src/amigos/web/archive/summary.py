"""The statistics of one match, computed once from the replay of its record (no Django here).

Hand level (§4.1.2): for every seat the pips of the tiles dealt, the doubles, the longest suit and
the suits missing (fallas), and how the hand ended. Match level (§4.1.1), seen from each side:
hands won and lost, points for and against as written on the sheet, zapato (pollona), capicúas and
viajeras. Everything is plain JSON-ready data so it can be stored beside the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from amigos.engine.record import Record, RecordError, parse_record
from amigos.engine.replay import ReplayReport, replay_record
from amigos.engine.tiles import Tile
from amigos.engine.variants import Variant
from amigos.web.archive.errors import ArchiveError


def tiles_summary(tiles: Iterable[Tile], max_pip: int) -> dict[str, Any]:
    """What §4.1.2 asks of one player's tiles. The longest suit is the suit held most often (a
    double counts once); on a tie the higher suit is named. Fallas are the suits not held at all."""
    held = list(tiles)
    counts = [0] * (max_pip + 1)
    for tile in held:
        for suit in set(tile.suits):
            counts[suit] += 1
    longest = max(counts)
    longest_suit = max(suit for suit, count in enumerate(counts) if count == longest)
    return {
        "pips": sum(tile.pips for tile in held),
        "doubles": sum(1 for tile in held if tile.is_double),
        "longest_suit": longest_suit,
        "longest_count": longest,
        "fallas": [suit for suit, count in enumerate(counts) if count == 0],
    }


def hand_summaries(record: Record, report: ReplayReport) -> list[dict[str, Any]]:
    """One summary per hand of the record, in order (an unfinished last hand included)."""
    assert report.variant is not None and report.match is not None
    variant = report.variant
    finished = report.match.hands
    summaries: list[dict[str, Any]] = []
    for index, (hand, hand_report) in enumerate(zip(record.hands, report.hands, strict=True)):
        outcome = finished[index].outcome if index < len(finished) else None
        summaries.append(
            {
                "number": index + 1,
                "leader": hand.leader,
                "end": hand_report.end,
                "winner": hand_report.winner,
                "points": hand_report.points,
                "score": list(hand_report.score),
                "closer": outcome.closer if outcome else None,
                "capicua": bool(outcome and outcome.capicua),
                "viajera": bool(outcome and outcome.viajera),
                "remaining": list(outcome.remaining) if outcome else [],
                "seats": [tiles_summary(tiles, variant.max_pip) for tiles in hand.deal],
            }
        )
    return summaries


@dataclass(frozen=True, slots=True)
class SideSummary:
    """A match seen from one seat."""

    side: int
    result: str  # "won", "lost" or "unfinished"
    hands_won: int
    hands_lost: int
    points_for: int
    points_against: int
    shutout_for: bool
    shutout_against: bool
    capicuas: int
    viajeras: int


def side_summary(report: ReplayReport, hands: list[dict[str, Any]], seat: int) -> SideSummary:
    """The match-level line of §4.1.1 for ``seat``. Points are those written on the sheet (the
    winners of 100 and 200 at exactly the target; hands won in juegos ganados); against several
    opponents (draw games) "against" is the best of them."""
    assert report.variant is not None and report.match is not None
    variant: Variant = report.variant
    side = variant.team_of(seat)
    score = report.match.official_score if report.complete else report.score
    others = [total for other, total in enumerate(score) if other != side]
    winners = [hand["winner"] for hand in hands if hand["end"] != "unfinished"]
    shutout = report.complete and report.match.shutout and variant.counts_shutouts
    # A player away when the match ended did not finish it (a computer player held the seat): it
    # is neither a win nor a loss of theirs, whoever finished it for them.
    finished = report.complete and seat not in report.absent
    result = ("won" if report.winner == side else "lost") if finished else "unfinished"
    return SideSummary(
        side=side,
        result=result,
        hands_won=sum(1 for winner in winners if winner == side),
        hands_lost=sum(1 for winner in winners if winner is not None and winner != side),
        points_for=score[side],
        points_against=max(others) if others else 0,
        shutout_for=shutout and report.winner == side,
        shutout_against=shutout and report.winner != side,
        capicuas=sum(1 for hand in hands if hand["capicua"] and hand["closer"] == seat),
        viajeras=sum(1 for hand in hands if hand["viajera"] and hand["winner"] == side),
    )


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the archive stores about a record, computed without the database, so that an
    import can compute it in worker processes."""

    variant: str
    family: str
    players: tuple[str, ...]
    complete: bool
    winner: int | None
    score: list[int]
    official_score: list[int]
    hands: list[dict[str, Any]]
    sides: list[SideSummary]
    absent: frozenset[int] = frozenset()  # seats away when the match ended (the record's ``absent``)


def analyse(record: Mapping[str, Any]) -> Analysis:
    """Replay ``record`` under the rules and summarise it; a record that breaks them raises
    ArchiveError("record-invalid")."""
    try:
        parsed = parse_record(record)
        report = replay_record(parsed)
    except RecordError as exc:
        raise ArchiveError("record-invalid", str(exc)) from exc
    assert report.variant is not None and report.match is not None
    hands = hand_summaries(parsed, report)
    return Analysis(
        variant=parsed.variant,
        family=report.variant.family.value,
        players=parsed.players,
        complete=report.complete,
        winner=report.winner,
        score=list(report.score),
        official_score=list(report.match.official_score if report.complete else report.score),
        hands=hands,
        sides=[side_summary(report, hands, seat) for seat in range(len(parsed.players))],
        absent=frozenset(report.absent),
    )


def analyse_or_error(record: Any) -> Analysis | ArchiveError:
    """:func:`analyse` for a worker process: the refusal is returned, not raised."""
    if not isinstance(record, Mapping):
        return ArchiveError("record-invalid", "a record is a JSON object")
    try:
        return analyse(record)
    except ArchiveError as exc:
        return exc
