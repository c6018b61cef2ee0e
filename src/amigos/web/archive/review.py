"""What each of a player's plays in a finished hand cost against the best play (no Django here).

Beyond the spec: after a hand, a player sees where they lost points. Every hand of a record is
fully known afterwards, so the Academy's solver values every legal play of each of the player's
turns within its node budgets (`amigos.academy.budgeted`): exactly in Amigos and Cuban unless the
position is too big for that (a Cuban first lead), with the depth-limited search otherwise and in
the draw and fives games (``exact`` says which). This is hindsight (the player could not see the
other hands), which is what makes it a lesson. Forced turns (one legal action, or a pass) cost
nothing and are skipped.

The searches are heavy, so the site runs :func:`review_turn` in a worker process, one turn at a
time, and shows the progress.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from amigos.academy.budgeted import solve_within
from amigos.engine.record import RecordError, parse_record
from amigos.engine.replay import replay_record
from amigos.engine.state import HandState
from amigos.web.archive.errors import ArchiveError


@dataclass(frozen=True, slots=True)
class TurnReview:
    move: int  # the move's number in its hand, from 1
    played: str
    cost: float  # points lost against the best play (0: a best play)
    best: tuple[str, ...]
    choices: int
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "played": self.played,
            "cost": self.cost,
            "best": list(self.best),
            "choices": self.choices,
            "exact": self.exact,
        }


def _hand_states(record: Mapping[str, Any], hand: int) -> tuple[tuple[HandState, ...], tuple[str, ...]]:
    try:
        parsed = parse_record(record)
        report = replay_record(parsed, keep_states=True)
    except RecordError as exc:
        raise ArchiveError("record-invalid", str(exc)) from exc
    if not 1 <= hand <= len(report.hands):
        raise ArchiveError("hand-unknown", f"the match has no hand {hand}")
    if report.hands[hand - 1].end == "unfinished":
        raise ArchiveError("hand-unfinished", f"hand {hand} did not end")
    return report.hands[hand - 1].states, parsed.hands[hand - 1].moves


def turns_to_review(record: Mapping[str, Any], hand: int, seat: int) -> list[int]:
    """The move numbers (from 1) of ``seat``'s turns in ``hand`` where it had a real choice."""
    states, moves = _hand_states(record, hand)
    return [
        number
        for number in range(1, len(moves) + 1)
        if states[number - 1].to_move == seat and len(states[number - 1].legal_actions()) > 1
    ]


def review_turn(record: Mapping[str, Any], hand: int, move: int) -> dict[str, Any]:
    """The review of move ``move`` of ``hand`` (a turn with a choice), as JSON-ready data."""
    states, moves = _hand_states(record, hand)
    state = states[move - 1]
    answer = solve_within(state)
    top = max(answer.values.values())
    costs = {action: top - value for action, value in answer.values.items()}
    notation = {action: state.move_notation(action) for action in costs}
    played = state.move_notation(state.parse_move(moves[move - 1]))
    by_text = {text: costs[action] for action, text in notation.items()}
    return TurnReview(
        move=move,
        played=played,
        cost=by_text[played],
        best=tuple(sorted(text for text, cost in by_text.items() if cost == 0)),
        choices=len(costs),
        exact=answer.exact,
    ).to_dict()
