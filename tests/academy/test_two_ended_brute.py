"""The two-ended solver against plain minimax (no pruning, no table) on small endgames.

The brute force below is written independently of the solver: tiles are
``(a, b)`` pairs, hands are tuples, ends are an ordered pair and every arm is
tried, so a mistake in the solver's compact encoding, ordering, table or
null-window driver shows up as a disagreement.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.academy.compact import tile_set_for
from amigos.academy.two_ended import HandScoring, Move, Position, TwoEndedRules, TwoEndedSolver

Pair = tuple[int, int]


def _pips(hand: tuple[Pair, ...]) -> int:
    return sum(a + b for a, b in hand)


def _award(rules: TwoEndedRules, hands: list[tuple[Pair, ...]], seat: int, domino: bool) -> int:
    """End-of-hand margin for ``seat``'s side, straight from the rules' wording."""
    mine = sum(_pips(h) for s, h in enumerate(hands) if s % 2 == seat % 2)
    theirs = sum(_pips(h) for s, h in enumerate(hands) if s % 2 != seat % 2)
    if rules.scoring is HandScoring.HANDS:
        return 1 if domino else 0
    if domino:
        return mine + theirs if rules.scoring is HandScoring.ALL else theirs
    if mine == theirs:
        if rules.tie_winner is None:
            return 0
        won = rules.tie_winner == seat % 2
    else:
        won = mine < theirs
    losers = theirs if won else mine
    points = mine + theirs if rules.scoring is HandScoring.ALL else losers
    return points if won else -points


def _brute(rules: TwoEndedRules, hands: list[tuple[Pair, ...]], ends: Pair, seat: int) -> int:
    """Minimax value for ``seat``'s side; passes when nothing fits."""
    if not any(end in t for h in hands for t in h for end in ends):
        return _award(rules, hands, seat, domino=False)
    hand = hands[seat]
    nxt = (seat + 1) % rules.players
    options = []
    for tile in hand:
        for arm in (0, 1):
            end = ends[arm]
            if end in tile:
                other = tile[1] if tile[0] == end else tile[0]
                new_ends = (other, ends[1]) if arm == 0 else (ends[0], other)
                options.append((tile, new_ends))
    if not options:
        return -_brute(rules, hands, ends, nxt)
    best = -(10**9)
    for tile, new_ends in options:
        best = max(best, _after(rules, hands, seat, tile, new_ends))
    return best


def _after(rules: TwoEndedRules, hands: list[tuple[Pair, ...]], seat: int, tile: Pair, ends: Pair) -> int:
    new_hands = list(hands)
    new_hands[seat] = tuple(t for t in hands[seat] if t != tile)
    if not new_hands[seat]:
        return _award(rules, new_hands, seat, domino=True)
    if not any(end in t for h in new_hands for t in h for end in ends):
        return _award(rules, new_hands, seat, domino=False)
    return -_brute(rules, new_hands, ends, (seat + 1) % rules.players)


@st.composite
def endgames(draw: st.DrawFn) -> tuple[TwoEndedRules, list[tuple[Pair, ...]], Pair | None, int]:
    max_pip = draw(st.sampled_from([6, 9]))
    players = draw(st.sampled_from([2, 4]))
    scoring = draw(st.sampled_from(list(HandScoring)))
    tie_winner = draw(st.sampled_from([None, 0, 1]))
    rules = TwoEndedRules(max_pip, players, scoring, tie_winner)
    tiles = list(tile_set_for(max_pip).halves)
    order = draw(st.permutations(range(len(tiles))))
    size = draw(st.integers(1, 3 if players == 4 else 4))
    hands = [tuple(tiles[i] for i in order[seat * size : seat * size + size]) for seat in range(players)]
    lead = draw(st.booleans())
    ends: Pair | None = None
    if not lead:
        ends = (draw(st.integers(0, max_pip)), draw(st.integers(0, max_pip)))
    seat = draw(st.integers(0, players - 1))
    return rules, hands, ends, seat


def _position(rules: TwoEndedRules, hands: list[tuple[Pair, ...]], ends: Pair | None, seat: int) -> Position:
    tiles = tile_set_for(rules.max_pip)
    return Position(tuple(tiles.mask_of(h) for h in hands), ends, seat)


@settings(max_examples=300, deadline=None)
@given(endgames())
def test_every_action_value_matches_brute_force(
    case: tuple[TwoEndedRules, list[tuple[Pair, ...]], Pair | None, int],
) -> None:
    rules, hands, ends, seat = case
    solver = TwoEndedSolver(rules)
    values = solver.action_values(_position(rules, hands, ends, seat))
    tiles = tile_set_for(rules.max_pip)
    expected: dict[Move, int] = {}
    for tile in hands[seat]:
        if ends is None:
            arms: list[Pair] = [(tile[1], tile[0])]
        else:
            arms = []
            for arm in (0, 1):
                if ends[arm] in tile:
                    other = tile[1] if tile[0] == ends[arm] else tile[0]
                    arms.append((other, ends[1]) if arm == 0 else (ends[0], other))
        for new_ends in arms:
            move = Move(tiles.tile_index(*tile), (min(new_ends), max(new_ends)))
            expected[move] = _after(rules, hands, seat, tile, new_ends)
    assert values == expected


@settings(max_examples=200, deadline=None)
@given(endgames())
def test_position_value_matches_brute_force(
    case: tuple[TwoEndedRules, list[tuple[Pair, ...]], Pair | None, int],
) -> None:
    rules, hands, ends, seat = case
    if ends is None:
        return
    solver = TwoEndedSolver(rules)
    assert solver.value(_position(rules, hands, ends, seat)) == _brute(rules, hands, ends, seat)


def test_a_reused_solver_agrees_with_a_fresh_one() -> None:
    """The table must hold only true bounds: solving many positions with one solver changes nothing."""
    rules = TwoEndedRules(6, 4, HandScoring.LOSERS)
    tiles = tile_set_for(6)
    shared = TwoEndedSolver(rules)
    for shift in range(6):
        order = [(i * 5 + shift) % 28 for i in range(28)]
        hands = [tuple(tiles.halves[i] for i in order[s * 3 : s * 3 + 3]) for s in range(4)]
        position = _position(rules, hands, (shift % 7, (shift * 3) % 7), shift % 4)
        assert shared.value(position) == TwoEndedSolver(rules).value(position)
