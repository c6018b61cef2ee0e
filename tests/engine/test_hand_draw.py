"""Draw and fives hands: drawing, blocks in the middle of a turn, points during play, awards."""

import unittest

from amigos.engine import (
    Arm,
    DrawEvent,
    HandEnd,
    HandState,
    IllegalAction,
    Pass,
    Play,
    PlayEvent,
    find_variant,
)
from amigos.engine.variants.draw_fives import first_leader, round_award

from .helpers import full_deal, position, spinner_line, t, tiles

LEFT, RIGHT, UP, DOWN = Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN


class DrawingTests(unittest.TestCase):
    def test_draws_until_a_tile_fits(self) -> None:
        state = position("draw-100", ["3-1 5-5", "2-2"], spinner_line("6-3"), 0, boneyard="4-4 0-0 6-5 1-1")
        state = state.apply(Play(t("3-1"), RIGHT), state.to_move)  # ends 6 and 1
        self.assertEqual(state.to_move, 1)
        self.assertEqual(state.hands[1], frozenset(tiles("2-2 4-4 0-0 6-5")))
        self.assertEqual(state.boneyard, (t("1-1"),))
        self.assertEqual(state.history[-3:], tuple(DrawEvent(1, tile) for tile in tiles("4-4 0-0 6-5")))
        self.assertEqual(state.legal_actions(), (Play(t("6-5"), LEFT),))

    def test_no_draw_while_holding_a_playable_tile(self) -> None:
        state = position("draw-100", ["3-1 5-5", "1-2"], spinner_line("6-3"), 0, boneyard="4-4")
        state = state.apply(Play(t("3-1"), RIGHT), state.to_move)
        self.assertEqual(len(state.hands[1]), 1)
        self.assertEqual(len(state.boneyard), 1)

    def test_pass_only_when_the_boneyard_is_empty(self) -> None:
        state = position("draw-100", ["3-1 1-0", "2-2", "0-4"], spinner_line("6-3"), 0, boneyard="")
        state = state.apply(Play(t("3-1"), RIGHT), state.to_move)
        self.assertEqual(state.legal_actions(), (Pass(),))
        state = state.apply(Pass(), state.to_move)
        self.assertEqual(state.to_move, 2)

    def test_block_in_the_middle_of_a_turn(self) -> None:
        # Seat 1 draws the last two tiles, still cannot play, and neither can seat 0: the hand
        # ends there, with no pass written. Seat 0 keeps 10 pips, seat 1 has 2-2 4-4 0-0 = 12.
        state = position("draw-100", ["3-1 5-5", "2-2"], spinner_line("6-3"), 0, boneyard="4-4 0-0")
        state = state.apply(Play(t("3-1"), RIGHT), state.to_move)
        outcome = state.outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.closer), (HandEnd.BLOCK, 0, 0))
        self.assertEqual(outcome.points, 12 - 10)  # others minus own, not rounded in Draw
        self.assertEqual(state.boneyard, ())
        self.assertIsInstance(state.history[-1], DrawEvent)

    def test_tied_block_has_no_winner(self) -> None:
        state = position("draw-100", ["3-1 5-5", "2-2"], spinner_line("6-3"), 0, boneyard="3-3 0-0")
        outcome = state.apply(Play(t("3-1"), RIGHT), state.to_move).outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.points), (HandEnd.TIED_BLOCK, None, 0))

    def test_block_award_is_rounded_in_fives(self) -> None:
        state = position("all-fives-100", ["3-1 5-5", "2-2"], spinner_line("6-3"), 0, boneyard="4-4 0-0")
        outcome = state.apply(Play(t("3-1"), RIGHT), state.to_move).outcome
        assert outcome is not None
        self.assertEqual(outcome.points, 0)  # 2 rounds to 0


class LeadTests(unittest.TestCase):
    def test_both_orientations_of_a_mixed_lead(self) -> None:
        variant = find_variant("draw-100", 2)
        hands, rest = full_deal(variant, ["6-4 5-5"])
        state = HandState.start(variant, hands, leader=0, boneyard=rest)
        actions = state.legal_actions()
        self.assertIn(Play(t("6-4"), None, 6), actions)
        self.assertIn(Play(t("6-4"), None, 4), actions)
        self.assertIn(Play(t("5-5")), actions)
        self.assertNotIn(Play(t("6-4")), actions)
        with self.assertRaises(IllegalAction):
            state.apply(Play(t("6-4")), state.to_move)
        after = state.apply(Play(t("6-4"), None, 4), state.to_move)
        self.assertEqual((after.line.end(LEFT), after.line.end(RIGHT)), (4, 6))

    def test_first_leader_highest_double_else_heaviest_tile(self) -> None:
        self.assertEqual(first_leader([tiles("6-5 1-1"), tiles("3-3 6-4"), tiles("0-0")]), 1)
        self.assertEqual(first_leader([tiles("6-5 1-0"), tiles("6-4 5-2"), tiles("3-1")]), 0)


class PlayScoringTests(unittest.TestCase):
    def _lead(self, variant_name: str, lead: str) -> HandState:
        variant = find_variant(variant_name, 2)
        hands, rest = full_deal(variant, [lead])
        state = HandState.start(variant, hands, leader=0, boneyard=rest)
        tile = t(lead)
        return state.apply(Play(tile, None, None if tile.is_double else tile.high), state.to_move)

    def test_all_fives(self) -> None:
        self.assertEqual(self._lead("all-fives-100", "5-5").play_points, (10, 0))
        self.assertEqual(self._lead("all-fives-100", "6-4").play_points, (10, 0))
        self.assertEqual(self._lead("all-fives-100", "4-3").play_points, (0, 0))
        self.assertEqual(self._lead("draw-100", "5-5").play_points, (0, 0))

    def test_all_threes(self) -> None:
        self.assertEqual(self._lead("all-threes-100", "6-3").play_points, (9, 0))
        self.assertEqual(self._lead("all-threes-100", "5-5").play_points, (0, 0))
        self.assertEqual(self._lead("all-threes-100", "6-6").play_points, (12, 0))

    def test_fives_and_threes(self) -> None:
        self.assertEqual(self._lead("fives-and-threes-100", "6-3").play_points, (9, 0))
        self.assertEqual(self._lead("fives-and-threes-100", "5-0").play_points, (5, 0))
        self.assertEqual(self._lead("fives-and-threes-100", "4-3").play_points, (0, 0))
        self.assertEqual(self._lead("fives-and-threes-100", "5-5").play_points, (10, 0))

    def test_points_during_play_go_to_the_player(self) -> None:
        state = position("all-fives-100", ["5-0 1-1", "2-2"], spinner_line("5-5"), 0, play_points=(10, 0))
        state = state.apply(Play(t("5-0"), LEFT), state.to_move)  # 0 + the spinner's 10
        self.assertEqual(state.play_points, (20, 0))
        self.assertEqual(state.history[-1], PlayEvent(0, Play(t("5-0"), LEFT), 10, (5, 5)))


class AwardTests(unittest.TestCase):
    def _domino(self, variant_name: str) -> int:
        state = position(variant_name, ["3-1", "6-5", "1-1"], spinner_line("6-3"), 0)
        outcome = state.apply(Play(t("3-1"), RIGHT), state.to_move).outcome
        assert outcome is not None and outcome.end is HandEnd.DOMINO
        return outcome.points

    def test_others_pips_rounded_per_game(self) -> None:
        self.assertEqual(self._domino("draw-100"), 13)
        self.assertEqual(self._domino("all-fives-100"), 15)
        self.assertEqual(self._domino("fives-and-threes-100"), 15)
        self.assertEqual(self._domino("all-threes-100"), 12)

    def test_rounding(self) -> None:
        self.assertEqual([round_award(n, 5) for n in (0, 2, 3, 7, 8, 12, 13)], [0, 0, 5, 5, 10, 10, 15])
        self.assertEqual([round_award(n, 3) for n in (1, 2, 4, 5, 14)], [0, 3, 3, 6, 15])
        self.assertEqual(round_award(13, 1), 13)


class SpinnerPlayTests(unittest.TestCase):
    def test_equal_ends_are_distinct_arms(self) -> None:
        state = position("draw-100", ["4-2 1-1", "0-0"], spinner_line("4-4"), 0)
        self.assertEqual(state.legal_actions(), (Play(t("4-2"), LEFT), Play(t("4-2"), RIGHT)))

    def test_up_and_down_open_after_both_sides(self) -> None:
        state = position("draw-100", ["4-2 4-0 1-1", "4-3 2-2"], spinner_line("4-4", ("4-1", LEFT)), 0)
        state = state.apply(Play(t("4-2"), RIGHT), state.to_move)
        self.assertIn(Play(t("4-3"), UP), state.legal_actions())
        self.assertIn(Play(t("4-3"), DOWN), state.legal_actions())


if __name__ == "__main__":
    unittest.main()
