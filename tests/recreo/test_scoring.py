"""Scoring of one match: the worked examples E1–E9 and every rule of what a result may be."""

from __future__ import annotations

import pytest

from amigos.recreo.scoring import (
    MatchEnd,
    ResultError,
    SideOutcome,
    Target,
    hands_match_over,
    score_match,
    win_units,
)

T100, T200, HANDS = Target.POINTS_100, Target.POINTS_200, Target.HANDS_WON


def side(points: int, games: int, pf: int, pa: int, eff: int, bet: int) -> SideOutcome:
    return SideOutcome(points, games, pf, pa, eff, bet, eff)


# (example, target, score, end, winners' values, losers' values), values as in the worked examples:
# points, juegos ganados, tantos a favor, tantos en contra, efectividad, bet units.
EXAMPLES = [
    ("E1", T100, (112, 37), MatchEnd.TARGET, side(2, 1, 100, 37, 63, 2), side(0, 0, 37, 100, -63, -2)),
    ("E2", T100, (104, 0), MatchEnd.TARGET, side(3, 1, 100, 0, 100, 3), side(0, 0, 0, 100, -100, -3)),
    ("E3", T100, (101, 50), MatchEnd.TARGET, side(2, 1, 100, 50, 50, 2), side(0, 0, 50, 100, -50, -2)),
    ("E4", T100, (118, 51), MatchEnd.TARGET, side(1, 1, 100, 51, 49, 1), side(0, 0, 51, 100, -49, -1)),
    ("E5", T100, (100, 99), MatchEnd.TARGET, side(1, 1, 100, 99, 1, 1), side(0, 0, 99, 100, -1, -1)),
    ("E6", T200, (236, 100), MatchEnd.TARGET, side(2, 1, 200, 100, 100, 2), side(0, 0, 100, 200, -100, -2)),
    ("E7", T200, (205, 101), MatchEnd.TARGET, side(1, 1, 200, 101, 99, 1), side(0, 0, 101, 200, -99, -1)),
    ("E8", T200, (200, 0), MatchEnd.TARGET, side(3, 1, 200, 0, 200, 3), side(0, 0, 0, 200, -200, -3)),
    ("E9", T100, (87, 64), MatchEnd.SUSPENDED, side(1, 1, 87, 64, 23, 1), side(0, 0, 64, 87, -23, -1)),
]


@pytest.mark.parametrize(
    ("name", "target", "score", "end", "won", "lost"), EXAMPLES, ids=[e[0] for e in EXAMPLES]
)
def test_worked_examples(
    name: str, target: Target, score: tuple[int, int], end: MatchEnd, won: SideOutcome, lost: SideOutcome
) -> None:
    outcome = score_match(target, score, end)
    assert (outcome.winner, outcome.a, outcome.b) == ("a", won, lost)
    # The same match written the other way round gives the same values to the other side.
    mirrored = score_match(target, (score[1], score[0]), end)
    assert (mirrored.winner, mirrored.a, mirrored.b) == ("b", lost, won)


def test_win_units_thresholds_depend_only_on_the_losers_and_the_target() -> None:
    assert [win_units(x, 100) for x in (0, 1, 50, 51, 99)] == [3, 2, 2, 1, 1]
    assert [win_units(x, 200) for x in (0, 1, 100, 101, 199)] == [3, 2, 2, 1, 1]


def test_suspended_zapato_is_still_one_point() -> None:
    outcome = score_match(T100, (40, 0), MatchEnd.SUSPENDED)
    assert outcome.a == side(1, 1, 40, 0, 40, 1)


def test_default_gives_the_target_to_the_innocent_pair() -> None:
    # The offenders were ahead 60-30; the other pair wins as if it had reached 100.
    outcome = score_match(T100, (30, 60), MatchEnd.DEFAULT, offender="b")
    assert outcome.winner == "a"
    assert outcome.a == side(1, 1, 100, 60, 40, 1)
    assert outcome.b == side(0, 0, 60, 100, -40, -1)
    # Offenders at 0: a zapato; a tied score is fine because the winner comes from the forfeit.
    assert score_match(T200, (0, 0), MatchEnd.DEFAULT, offender="a").b == side(3, 1, 200, 0, 200, 3)


def test_hands_target_counts_only_games_and_bets_one_unit() -> None:
    outcome = score_match(HANDS, (2, 4), MatchEnd.TARGET)
    assert outcome.winner == "b"
    assert outcome.b == SideOutcome(0, 1, 0, 0, 0, 1, 2)
    assert outcome.a == SideOutcome(0, 0, 0, 0, 0, -1, -2)
    assert score_match(HANDS, (5, 7), MatchEnd.TARGET).b.differential == 2
    assert score_match(HANDS, (3, 2), MatchEnd.SUSPENDED).winner == "a"
    assert score_match(HANDS, (3, 1), MatchEnd.DEFAULT, offender="a").winner == "b"


def test_hands_match_over_needs_four_and_a_lead_of_two() -> None:
    assert hands_match_over(4, 2) and hands_match_over(6, 4) and not hands_match_over(4, 3)
    assert not hands_match_over(3, 0) and not hands_match_over(5, 4)


@pytest.mark.parametrize(
    ("target", "score", "end", "offender", "message"),
    [
        (T100, (100, 100), MatchEnd.TARGET, None, "tied score"),
        (T100, (99, 20), MatchEnd.TARGET, None, "did not reach the target 100"),
        (T200, (150, 20), MatchEnd.TARGET, None, "did not reach the target 200"),
        (T100, (120, 100), MatchEnd.TARGET, None, "both pairs reached"),
        (T100, (50, 50), MatchEnd.SUSPENDED, None, "tied score"),
        (T100, (100, 50), MatchEnd.SUSPENDED, None, "not suspended"),
        (T100, (100, 50), MatchEnd.DEFAULT, "a", "nothing left to forfeit"),
        (T100, (10, 5), MatchEnd.DEFAULT, None, "offender"),
        (T100, (110, 5), MatchEnd.TARGET, "a", "offender"),
        (T100, (10, 5), MatchEnd.DEFAULT, "c", "offender must be"),
        (T100, (-1, 100), MatchEnd.TARGET, None, "negative"),
        (HANDS, (3, 3), MatchEnd.TARGET, None, "tied score"),
        (HANDS, (4, 3), MatchEnd.TARGET, None, "did not reach"),
        (HANDS, (3, 0), MatchEnd.TARGET, None, "did not reach"),
        (HANDS, (5, 1), MatchEnd.TARGET, None, "already over at 4-1"),
        (HANDS, (7, 3), MatchEnd.TARGET, None, "already over"),
        (HANDS, (4, 0), MatchEnd.SUSPENDED, None, "ended normally"),
        (HANDS, (2, 2), MatchEnd.SUSPENDED, None, "tied score"),
        (HANDS, (1, 4), MatchEnd.DEFAULT, "a", "ended normally"),
    ],
)
def test_impossible_results_are_refused(
    target: Target, score: tuple[int, int], end: MatchEnd, offender: str | None, message: str
) -> None:
    with pytest.raises(ResultError, match=message):
        score_match(target, score, end, offender)


def test_target_limit() -> None:
    assert T100.limit == 100 and T200.limit == 200
    with pytest.raises(ValueError, match="no tantos limit"):
        _ = HANDS.limit
