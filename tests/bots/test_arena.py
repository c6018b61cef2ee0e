"""The duplicate-format arena, its command and the benchmark's plumbing."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from amigos.bots.arena import ArenaConfig, a_sides, deal_state, percentile, run_arena, summarize
from amigos.bots.registry import find_bot
from amigos.cli import main as amigos_main
from amigos.engine import find_variant

KEYS = {"a", "b", "variant", "deals", "points_per_hand", "ci95", "hands_won_pct", "decision_ms"}


def test_deals_are_reproducible_and_rotate_the_lead() -> None:
    variant = find_variant("amigos-100")
    assert deal_state(variant, 3, 5) == deal_state(variant, 3, 5)
    assert deal_state(variant, 3, 5).hands != deal_state(variant, 4, 5).hands
    assert [deal_state(variant, 0, i).leader for i in range(5)] == [0, 1, 2, 3, 0]
    cuban = find_variant("cuban-2v2")
    assert deal_state(cuban, 0, 1).tie_winner == cuban.team_of(1)


def test_each_bot_holds_each_side_once_per_deal() -> None:
    for name, players in (("amigos-100", None), ("cuban-1v1", None), ("all-fives-100", 4), ("draw-100", 2)):
        variant = find_variant(name, players)
        first, second = a_sides(variant, False), a_sides(variant, True)
        assert first and second and not first & second
        assert first | second == set(range(variant.sides))


@pytest.mark.parametrize("name", ["easy", "normal"])
def test_a_bot_against_itself_nets_out_every_deal(name: str) -> None:
    """Seat generators do not depend on who sits there, so the two games of a deal mirror each other."""
    config = ArenaConfig(name, name, deals=6, seed=2)
    results = run_arena(config)
    assert all(r.margins[0] == -r.margins[1] for r in results)
    summary = summarize(config, results)
    assert set(summary) >= KEYS
    assert summary["deals"] == 6 and summary["hands"] == 12
    assert summary["points_per_hand"] == 0 and summary["ci95"] == [0, 0]


def test_margins_are_zero_sum_between_the_two_bots() -> None:
    config = ArenaConfig("easy", "normal", deals=4, seed=5)
    forward = run_arena(config)
    backward = run_arena(ArenaConfig("normal", "easy", deals=4, seed=5))
    # Same deals and the same seat generators: B's view of the match is A's negated.
    for ab, ba in zip(forward, backward, strict=True):
        assert ab.margins == (-ba.margins[1], -ba.margins[0])


def test_three_player_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        ArenaConfig("easy", "easy", "draw-100", players=3).resolve()


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile(list(map(float, range(1, 101))), 0.95) == 95.0


def test_the_arena_command_prints_the_figures_as_json() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = amigos_main(
            ["arena", "normal", "easy", "--deals", "3", "--workers", "1", "--seed", "4", "--json"]
        )
    assert status == 0
    summary = json.loads(out.getvalue())
    assert set(summary) >= KEYS
    assert summary["a"] == "normal" and summary["b"] == "easy" and summary["deals"] == 3


def test_the_arena_command_can_use_several_processes() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = amigos_main(
            [
                "arena",
                "easy",
                "easy",
                "--variant",
                "draw-100",
                "--players",
                "2",
                "--deals",
                "4",
                "--workers",
                "2",
                "--json",
            ]
        )
    assert status == 0
    assert json.loads(out.getvalue())["hands"] == 8


def test_the_arena_command_refuses_unknown_bots_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert amigos_main(["arena", "easy", "wizard", "--deals", "1"]) == 2
    assert amigos_main(["arena", "easy", "easy", "--variant", "chess", "--deals", "1"]) == 2
    assert "amigos arena" in capsys.readouterr().err


def test_find_bot_builds_fresh_bots() -> None:
    assert find_bot("hard") is not find_bot("hard")
