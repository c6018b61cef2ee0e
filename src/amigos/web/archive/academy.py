"""The Academy's work on a replayed hand (no Django here): the solver's value of every legal play
at a position, and "what if": a hand changed at some move and played on by the computer players.

Values come from ``amigos.academy.budgeted``: exact in the two-ended games (Amigos, Cuban) when the
exact search fits its node budget, otherwise (a Cuban first lead) and in the draw and fives games
the depth-limited search (``exact`` and ``depth`` say which, and the page says so). This is
hindsight over a finished hand, where every tile is known.

Everything here is heavy (a search, or the computer players playing a hand on), so the site runs it
in a worker process (``services.academy_jobs``): the ``*_job`` functions are what a worker calls.

A variation is the list of moves from the hand's deal: the moves the player chose (the real
ones up to the change, then the changed play, and any later changes) followed by what the
computer players do from there. Given the same moves and the same seed it is the same every
time, so a variation can be named in a URL and shared.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from amigos.academy.budgeted import solve_within
from amigos.bots.registry import find_bot
from amigos.engine.actions import IllegalAction
from amigos.engine.deal import Deal, deal_from_key
from amigos.engine.match import Match
from amigos.engine.record import Record, RecordHand, record_hand
from amigos.engine.simulate import seeded_key
from amigos.engine.state import HandState
from amigos.engine.view import seat_view
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.replay import ReplayedMatch, SheetRow, replay_match, score_sheet

#: The computer players that play a changed hand on.
RESIMULATION_LEVEL = "normal"
#: The seed of their random generators (each seat draws from its own, seeded seed + seat).
DEFAULT_SEED = 1
#: A variation longer than any hand can be is refused before anything is computed.
MAX_MOVES = 200


@dataclass(frozen=True, slots=True)
class Variation:
    """A hand played from its deal: ``chosen`` moves given, the rest played by the computer."""

    states: tuple[HandState, ...]  # states[n]: after n moves
    moves: tuple[str, ...]
    chosen: int  # how many of the moves were given (the rest are the computer's)
    seed: int


def play_on(
    replayed: ReplayedMatch, hand: int, chosen: Sequence[str], *, seed: int = DEFAULT_SEED
) -> Variation:
    """Apply ``chosen`` from the deal of ``hand`` (each must be legal; ``move-illegal`` otherwise)
    and let the computer players finish the hand."""
    if not 1 <= hand <= replayed.hand_count:
        raise ArchiveError("position-unknown", f"the match has no hand {hand}")
    if len(chosen) > MAX_MOVES:
        raise ArchiveError("move-illegal", "too many moves")
    state = replayed.state(hand, 0)
    states = [state]
    moves: list[str] = []
    for number, text in enumerate(chosen, start=1):
        if state.is_over:
            raise ArchiveError("move-illegal", f"move {number}: the hand is already over")
        try:
            action = state.parse_move(text)
            state = state.apply(action, state.to_move)
        except (IllegalAction, ValueError) as exc:
            raise ArchiveError("move-illegal", f"move {number}: {exc}") from exc
        states.append(state)
        moves.append(states[-2].move_notation(action))
    _finish(states, moves, seed)
    return Variation(tuple(states), tuple(moves), len(chosen), seed)


def _finish(states: list[HandState], moves: list[str], seed: int) -> None:
    """Let the computer players play ``states[-1]`` to the hand's end, appending to both lists."""
    state = states[-1]
    bots = [find_bot(RESIMULATION_LEVEL) for _ in range(state.variant.players)]
    rngs = [random.Random(seed * 16 + seat) for seat in range(state.variant.players)]
    while not state.is_over:
        seat = state.to_move
        actions = state.legal_actions()
        action = actions[0] if len(actions) == 1 else bots[seat].choose(seat_view(state, seat), rngs[seat])
        if action not in actions:  # a bot's bug must not become a wrong lesson
            raise ArchiveError("bot-illegal", f"the computer chose {action}, which is not legal")
        moves.append(state.move_notation(action))
        state = state.apply(action, state.to_move)
        states.append(state)


#: A re-simulated match stops after this many hands even if nobody reached the target.
MAX_HANDS = 60


def play_match_on(
    replayed: ReplayedMatch, hand: int, chosen: Sequence[str], *, seed: int = DEFAULT_SEED
) -> dict[str, Any]:
    """The whole match re-simulated hand by hand from a changed hand: the hands before it as they
    were played, the changed hand (``chosen`` then the computer), then every later hand played by
    the computer players to the match's end. Later hands keep the match's own deals while it has
    them (so the comparison is fair) and get reproducible new ones after; who leads each follows
    the rules from the new scores. Returns the new match as a record (amigos-record/1)."""
    variation = play_on(replayed, hand, chosen, seed=seed)
    record = replayed.record
    variant = variation.states[0].variant
    match = Match.new(variant, record.players, record.hands[0].leader)
    hands: list[RecordHand] = []
    for number in range(1, hand):
        hands.append(record.hands[number - 1])
        match = match.finish_hand(replayed.report.hands[number - 1].states[-1])
    hands.append(_as_record_hand(list(variation.states), list(variation.moves)))
    match = match.finish_hand(variation.states[-1])
    rng = random.Random(seed)
    while not match.is_over and len(hands) < MAX_HANDS:
        number = len(hands) + 1
        if number <= len(record.hands):
            recorded = record.hands[number - 1]
            deal = Deal(hands=recorded.deal, boneyard=recorded.boneyard)
        else:
            deal = deal_from_key(seeded_key(rng), variant)
        states: list[HandState] = [match.start_hand(deal)]
        moves: list[str] = []
        _finish(states, moves, seed + number)
        hands.append(_as_record_hand(states, moves))
        match = match.finish_hand(states[-1])
    return Record(variant=record.variant, players=record.players, hands=tuple(hands)).to_obj()


def _as_record_hand(states: list[HandState], moves: list[str]) -> RecordHand:
    actions = [state.parse_move(move) for state, move in zip(states, moves, strict=False)]
    return record_hand(states[0], actions)


@dataclass(frozen=True, slots=True)
class PlayValue:
    move: str
    value: float  # the margin for the mover's side with best play after it
    cost: float  # points lost against the best play (0: a best play)


@dataclass(frozen=True, slots=True)
class PositionValues:
    plays: tuple[PlayValue, ...]  # best first
    exact: bool
    played: str | None  # the move made at this position, if any
    played_cost: float | None
    depth: int | None = None  # how many actions ahead an estimate looked (None: exact)
    limited: bool = False  # too big for an exact answer within the budget (the page says so)

    def to_dict(self) -> dict[str, Any]:
        return {
            "plays": [{"move": p.move, "value": p.value, "cost": p.cost} for p in self.plays],
            "exact": self.exact,
            "depth": self.depth,
            "limited": self.limited,
            "played": self.played,
            "played_cost": self.played_cost,
        }


def position_values(state: HandState, played: str | None) -> PositionValues:
    """The solver's value and cost of every legal action at ``state`` within the search budgets
    (heavy: run it in a worker), and the cost of ``played`` (the move made there) when given."""
    answer = solve_within(state)
    values = answer.values
    best = max(values.values()) if values else 0
    plays = sorted(
        (
            PlayValue(state.move_notation(action), float(values[action]), float(best - values[action]))
            for action in values
        ),
        key=lambda play: (play.cost, play.move),
    )
    played_cost = None
    if played is not None:
        normalised = state.move_notation(state.parse_move(played))
        played_cost = next((p.cost for p in plays if p.move == normalised), None)
        played = normalised
    return PositionValues(tuple(plays), answer.exact, played, played_cost, answer.depth, answer.limited)


def follow(replayed: ReplayedMatch, hand: int, moves: Sequence[str]) -> HandState:
    """The state after ``moves`` from the deal of ``hand``, each checked (``move-illegal``,
    ``position-unknown``); cheap: nobody plays on, so the web process may call it."""
    if not 1 <= hand <= replayed.hand_count:
        raise ArchiveError("position-unknown", f"the match has no hand {hand}")
    if len(moves) > MAX_MOVES:
        raise ArchiveError("move-illegal", "too many moves")
    state = replayed.state(hand, 0)
    for number, text in enumerate(moves, start=1):
        if state.is_over:
            raise ArchiveError("move-illegal", f"move {number}: the hand is already over")
        try:
            state = state.apply(state.parse_move(text), state.to_move)
        except (IllegalAction, ValueError) as exc:
            raise ArchiveError("move-illegal", f"move {number}: {exc}") from exc
    return state


def values_job(record: dict[str, Any], hand: int, moves: Sequence[str], played: str | None) -> dict[str, Any]:
    """What a worker process computes: the values after ``moves`` of ``hand`` (JSON-ready).
    ``played`` None: the play made there is the computer players' (the variation played on)."""
    replayed = replay_match(record)
    if played is None:
        variation = play_on(replayed, hand, moves)
        state = variation.states[len(moves)]
        played = variation.moves[len(moves)] if len(moves) < len(variation.moves) else None
    else:
        state = follow(replayed, hand, moves)
    return position_values(state, played).to_dict()


def try_job(record: dict[str, Any], hand: int, chosen: Sequence[str], seed: int) -> Variation:
    """What a worker computes for the "try another play" page: the variation (see ``play_on``)."""
    return play_on(replay_match(record), hand, chosen, seed=seed)


@dataclass(frozen=True, slots=True)
class RestOfMatch:
    """The match played on from a changed hand: its record, its score sheet and its winner."""

    record: dict[str, Any]
    sheet: tuple[SheetRow, ...]
    winner: int | None


def rest_job(record: dict[str, Any], hand: int, chosen: Sequence[str], seed: int) -> RestOfMatch:
    """What a worker computes for the "play the rest of the match" page (see ``play_match_on``),
    the new match's replay included (the web process only shows it)."""
    new_record = play_match_on(replay_match(record), hand, chosen, seed=seed)
    replayed = replay_match(new_record)
    return RestOfMatch(new_record, score_sheet(replayed), replayed.report.winner)
