"""Standings: accumulation, the comparator with its head-to-head step, bets and the extra payment."""

from __future__ import annotations

from amigos.recreo.standings import accumulate, head_to_head, rank
from tests.recreo.helpers import build, row, standings

E11_RESULTS = [(1, 1, 112, 37), (2, 1, 0, 105), (3, 1, 100, 75)]


def test_e11_full_four_player_ronda() -> None:
    table = standings(4, E11_RESULTS, stake=10, extra_payment=True)
    assert table.rounds_complete == 3
    got = [
        (r.player, r.points, r.games_won, r.points_for, r.points_against, r.effectiveness, r.bet_value,
         r.rank, r.extra_payment, r.money)
        for r in table.rows
    ]  # fmt: skip
    assert got == [
        (2, 5, 2, 275, 137, 138, 40, 1, 20, 60),
        (4, 4, 2, 237, 175, 62, 20, 2, 0, 20),
        (1, 3, 2, 200, 212, -12, 0, 3, -10, -10),
        (3, 0, 0, 112, 300, -188, -60, 4, -10, -70),
    ]
    assert sum(r.money for r in table.rows) == 0
    assert sum(r.points_for for r in table.rows) == sum(r.points_against for r in table.rows) == 824


def test_e10_castigo_lowers_only_the_offenders_eficiencia() -> None:
    results = [(1, 1, 100, 0), (2, 1, 100, 80)]  # player 1: +100 then +20
    clean = standings(4, results)
    punished = standings(4, results, penalties=[{"round": 2, "player": 1, "points": 15}])
    assert row(clean, 1)["effectiveness"] == 120
    assert row(punished, 1)["effectiveness"] == 105
    assert row(punished, 1)["penalties"] == 15
    for player in (2, 3, 4):
        assert row(punished, player) | {"rank": 0} == row(clean, player) | {"rank": 0}
    for key in ("points", "games_won", "points_for", "points_against", "bet_value"):
        assert row(punished, 1)[key] == row(clean, 1)[key]


def _e12_event() -> list[tuple[int, int, int, int]]:
    """TcT-16 where players 5 and 9 end level on every key after round 5 (see the worked example)."""
    filler = 100, 50
    results = [
        (1, 2, 100, 60), (2, 2, 20, 100), (3, 2, 20, 100),  # player 5's first three games
        (1, 3, 100, 30), (2, 3, 35, 100), (3, 3, 35, 100),  # player 9's
        (4, 1, 100, 40),  # 1&5 beat 9&13 by 100-40
        (5, 1, 100, 70),  # 1&9 beat 5&13 by 100-70
    ]  # fmt: skip
    done = {(r, t) for r, t, _, _ in results}
    results += [(r, t, *filler) for r in range(1, 6) for t in range(1, 5) if (r, t) not in done]
    return results


def test_e12_head_to_head_differential_in_todos_con_todos_16() -> None:
    event = build(16, _e12_event())
    totals = accumulate(event)
    five, nine = totals[5], totals[9]
    keys = ("points", "games_won", "effectiveness_total", "points_for", "points_against")
    assert [getattr(five, k) for k in keys] == [getattr(nine, k) for k in keys]
    assert head_to_head(five, [5, 9]) == 30
    assert head_to_head(nine, [5, 9]) == -30
    order = [t.player for t in rank(event, totals)]
    assert order.index(5) == order.index(9) - 1
    tied_with_them = [
        p for p in totals if [getattr(totals[p], k) for k in keys] == [getattr(five, k) for k in keys]
    ]
    assert sorted(tied_with_them) == [5, 9]


def test_head_to_head_applies_to_partial_standings_too() -> None:
    # After round 1 of a 4-player ronda: 1&2 beat 3&4. Player 2 vs 1 tie -> partners, never met: number.
    table = standings(4, [(1, 1, 100, 50)])
    assert [r.player for r in table.rows] == [1, 2, 3, 4]
    assert table.rounds_complete == 1


def test_tie_broken_by_head_to_head_against_the_player_number() -> None:
    # 5 players, rounds 1-2. Round 1: 1&2 v 3&4 [100, 50]; round 2: 1&3 v 4&5 [50, 100].
    # Players 2 and 4 and 5: compare 2 (won r1) with 4/5 (won r2): 4: r1 lost (50), r2 won vs 1&3 (50).
    table = standings(5, [(1, 1, 100, 50), (2, 1, 50, 100)])
    rows = {r.player: r for r in table.rows}
    # 2: 2 pts, AF 100, EC 50. 4: lost 50-100 then won 100-50: 2 pts, AF 150, EC 150, eff 0.
    assert rows[2].points == rows[4].points == 2
    # 5 rested in round 1 then won: 2 pts, AF 100, EC 50 -> level with 2 on every key; never opponents.
    assert [rows[5].effectiveness, rows[5].points_for] == [rows[2].effectiveness, rows[2].points_for]
    assert rows[2].rank < rows[5].rank  # decided by the lower number


def test_level_partners_and_strangers_fall_back_to_the_player_number() -> None:
    # TcT-8 round 1 only: winners 1, 2 (table 1) and 7, 8 (table 2) are level on every key and never
    # faced each other, so the lower number goes first; likewise for the losers.
    table = standings(8, [(1, 1, 100, 50), (1, 2, 50, 100)])
    assert [r.player for r in table.rows] == [1, 2, 7, 8, 3, 4, 5, 6]


def test_head_to_head_beats_the_player_number() -> None:
    # TcT-8. Round 1: 1 wins 100-40 at table 1; 5 loses 40-100 at table 2. Round 2: 5&7 beat 1&3
    # 100-40. Players 1 and 5 end level (2 points, 1 game, 140 for, 140 against, efectividad 0),
    # but 5 won their meeting: D(5) = +60, D(1) = -60, so 5 ranks above the lower number 1.
    table = standings(8, [(1, 1, 100, 40), (1, 2, 40, 100), (2, 1, 40, 100), (2, 2, 100, 50)])
    rows = {r.player: r.as_dict() for r in table.rows}
    level = ("points", "games_won", "effectiveness", "points_for", "points_against")
    assert [rows[1][k] for k in level] == [rows[5][k] for k in level] == [2, 1, 0, 140, 140]
    assert rows[5]["rank"] + 1 == rows[1]["rank"]


def test_hands_target_ranks_by_games_then_hands_differential_then_number() -> None:
    # 4 players under juegos ganados, round 1: 1&2 beat 3&4 4-0; round 2: 4&2 beat 1&3 4-2.
    table = standings(4, [(1, 1, 4, 0), (2, 1, 2, 4)], target="hands", stake=5)
    rows = {r.player: r for r in table.rows}
    assert rows[2].games_won == 2 and rows[1].games_won == rows[4].games_won == 1
    # 1 vs 4 were opponents both rounds: D(1) = +4 - 2 = +2, D(4) = -4 + 2 = -2.
    assert [r.player for r in table.rows] == [2, 1, 4, 3]
    assert all(r.points == r.points_for == r.points_against == r.effectiveness == 0 for r in table.rows)
    assert rows[2].bet_value == 10 and rows[3].bet_value == -10


def test_non_counting_game_only_settles_the_bet_for_the_repeaters() -> None:
    full = [(r, 1, 100, 50) for r in range(1, 9)]
    before = build(6, full[:7], stake=10)
    after = build(6, full, stake=10)
    t_before, t_after = accumulate(before), accumulate(after)
    # Round 8: 1&4 (pair a) beat 3&2 100-50; only 2 and 3 count.
    for player in (1, 4):
        assert t_after[player].points == t_before[player].points
        assert t_after[player].points_for == t_before[player].points_for
        assert t_after[player].effectiveness == t_before[player].effectiveness
        assert t_after[player].bet_units == t_before[player].bet_units + 2
    for player in (2, 3):
        assert t_after[player].points_against == t_before[player].points_against + 100
        assert t_after[player].points_for == t_before[player].points_for + 50
        assert t_after[player].bet_units == t_before[player].bet_units - 2
    assert sum(t.bet_units for t in t_after.values()) == 0


def test_extra_payment_waits_for_the_last_round_and_only_in_rondas() -> None:
    partial = standings(4, E11_RESULTS[:2], stake=10, extra_payment=True)
    assert all(r.extra_payment == 0 for r in partial.rows)
    off = standings(4, E11_RESULTS, stake=10, extra_payment=False)
    assert all(r.extra_payment == 0 for r in off.rows)
    tct = standings(8, [(1, 1, 100, 0), (1, 2, 100, 0)], stake=10, extra_payment=True)
    assert all(r.bet_value == r.extra_payment == r.money == 0 for r in tct.rows)


def test_fractional_stakes_stay_exact() -> None:
    table = standings(4, E11_RESULTS, stake=2.5, extra_payment=True)
    assert [r.as_dict()["money"] for r in table.rows] == [15, 5, -2.5, -17.5]
