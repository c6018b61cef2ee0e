"""``solve(state)``: the value of every legal action of a fully known hand.

The Academy asks "which play was best, and what did this one cost?".  For the
two-ended games (Amigos, Cuban) the answer is exact: the state is converted to
the compact form of ``amigos.academy.two_ended`` and solved.  For the draw and
fives games it comes from the depth-limited search of
``amigos.academy.spinner_search`` (read its docstring for what it guarantees).
Values are point margins for the side of the seat to move.
"""

from __future__ import annotations

from amigos.academy.compact import tile_set_for
from amigos.academy.spinner_search import SpinnerSearch
from amigos.academy.two_ended import HandScoring, Move, Position, TwoEndedRules, TwoEndedSolver
from amigos.engine import Action, HandState, Line, Pass, Play, Scoring, Variant

_SCORING = {
    Scoring.AMIGOS_100: HandScoring.LOSERS,
    Scoring.AMIGOS_200: HandScoring.ALL,
    Scoring.HANDS_WON: HandScoring.HANDS,
    Scoring.CUBAN: HandScoring.LOSERS,
}


def is_two_ended(variant: Variant) -> bool:
    """Whether the exact compact solver covers ``variant`` (no spinner, no drawing)."""
    return not variant.spinner and not variant.draws and variant.scoring in _SCORING


def rules_for(variant: Variant, tie_winner: int | None) -> TwoEndedRules:
    """The compact solver's rules for a two-ended variant (``tie_winner`` counts only in Cuban)."""
    if not is_two_ended(variant):
        raise ValueError(f"{variant.name} is not a two-ended game")
    winner = tie_winner if variant.breaks_tied_blocks else None
    return TwoEndedRules(variant.max_pip, variant.players, _SCORING[variant.scoring], winner)


def compact_position(state: HandState) -> Position:
    """The compact form of a two-ended state (hands as masks, the two ends, the seat to move)."""
    tiles = tile_set_for(state.variant.max_pip)
    ends = state.open_ends()
    return Position(
        hands=tuple(tiles.mask_of(hand) for hand in state.hands),
        ends=None if not ends else (ends[0], ends[1]),
        to_move=state.to_move,
    )


def compact_move(line: Line, play: Play, max_pip: int) -> Move:
    """The compact move for an engine play on a two-ended ``line``."""
    tile = play.tile
    new_line = line.lay(play)
    a, b = new_line.open_ends()
    return Move(tile_set_for(max_pip).tile_index(tile.high, tile.low), (min(a, b), max(a, b)))


def solve(
    state: HandState, *, solver: TwoEndedSolver | None = None, search: SpinnerSearch | None = None
) -> dict[Action, int | float]:
    """The value of every legal action of the seat to move, as a margin for its side.

    Two-ended games: exact (``solver`` may be passed to share a table or a node
    budget).  Draw and fives games: ``search`` (default: depth 4, no budget).
    An empty dict when the hand is over.
    """
    if state.is_over:
        return {}
    variant = state.variant
    if not is_two_ended(variant):
        return dict((search or SpinnerSearch()).action_values(state))
    if solver is None:
        solver = TwoEndedSolver(rules_for(variant, state.tie_winner))
    position = compact_position(state)
    actions = state.legal_actions()
    if len(actions) == 1 and isinstance(actions[0], Pass):
        following = Position(position.hands, position.ends, (state.to_move + 1) % variant.players)
        return {actions[0]: -solver.value(following)}
    values = solver.action_values(position)
    out: dict[Action, int | float] = {}
    for action in actions:
        if isinstance(action, Play):
            out[action] = values[compact_move(state.line, action, variant.max_pip)]
    return out


def action_costs(
    state: HandState, values: dict[Action, int | float] | None = None
) -> dict[Action, int | float]:
    """What each legal action costs against the best one, in points (0 for every best action).

    This is the Academy's "what did this play cost": ``values`` may be a result of
    ``solve(state)`` already computed.
    """
    if values is None:
        values = solve(state)
    if not values:
        return {}
    best = max(values.values())
    return {action: best - value for action, value in values.items()}
