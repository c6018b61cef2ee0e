"""Whole matches: totals add up, lead rules hold, the end comes exactly when the rules say."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import Family, Match, Scoring, Variant, replay_record
from amigos.engine.simulate import simulate_match
from amigos.engine.variants.amigos import hands_won_over

from .strategies import variants


@settings(max_examples=40, deadline=None)
@given(variants, st.randoms(use_true_random=False))
def test_simulated_matches_follow_the_match_rules(variant: Variant, seed: random.Random) -> None:
    record = simulate_match(variant, seed, max_hands=40)
    report = replay_record(record)
    match = report.match
    assert isinstance(match, Match)
    leaders = [hand.leader for hand in record.hands]
    # Lead rules.
    for previous, (result, leader) in enumerate(zip(match.hands[:-1], leaders[1:], strict=True)):
        if variant.family is Family.CUBAN:
            assert variant.team_of(leader) == result.outcome.winner
        else:
            assert leader == (leaders[previous] + 1) % variant.players
    # Totals add up, hand by hand.
    running = [0] * variant.sides
    for result, hand_report in zip(match.hands, report.hands, strict=True):
        for side, points in enumerate(result.points):
            running[side] += points
        assert list(hand_report.score) == running
    # The match ends exactly when the rules say, and not before.
    for count in range(len(match.hands) + 1):
        partial = Match(variant, match.players, match.first_leader, match.hands[:count])
        assert partial.is_over == (count == len(match.hands) and report.complete)
    if report.complete:
        assert match.is_over
        score = match.score
        winner = match.winner
        assert winner is not None
        if variant.scoring is Scoring.HANDS_WON:
            assert hands_won_over(score) == winner
        else:
            assert variant.target is not None
            assert score[winner] >= variant.target
            assert all(total < score[winner] for side, total in enumerate(score) if side != winner)
    else:
        assert len(record.hands) == 40
