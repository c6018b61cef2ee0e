"""Cuban hands: double-nine, team sums, ties always resolved, the reshuffle offer, the lead draw."""

import unittest

from amigos.engine import Arm, HandEnd, HandState, Play, find_variant
from amigos.engine.variants.cuban import lead_draw_winner, reshuffle_seats

from .helpers import full_deal, position, t, tiles, two_ended

UP, DOWN = Arm.UP, Arm.DOWN
C2, C1 = find_variant("cuban-2v2"), find_variant("cuban-1v1")


class CubanHandTests(unittest.TestCase):
    def test_double_nine_tiles_play(self) -> None:
        hands, rest = full_deal(C2, ["9-9 9-8"])
        state = HandState.start(C2, hands, leader=0, boneyard=rest, tie_winner=0)
        state = state.apply(Play(t("9-9")), state.to_move)
        self.assertEqual(state.open_ends(), (9, 9))
        self.assertEqual(len(state.boneyard), 15)

    def test_set_aside_tiles_are_never_drawn(self) -> None:
        # Seat 1 cannot play; the set-aside tiles hold a 4, but Cuban never draws: it must pass.
        state = position(C1, ["4-0 1-0", "2-2"], two_ended("9-4"), 0, boneyard="9-9 4-4")
        state = state.apply(Play(t("4-0"), DOWN), state.to_move)
        self.assertFalse(state.is_over)
        self.assertEqual(state.to_move, 1)
        self.assertEqual(len(state.boneyard), 2)
        self.assertEqual(len(state.hands[1]), 1)

    def test_block_team_sums_winner_scores_losers(self) -> None:
        state = position(C2, ["5-1 2-0", "8-8", "3-3", "4-4"], two_ended("9-5"), 0)
        outcome = state.apply(Play(t("5-1"), DOWN), state.to_move).outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.points), (HandEnd.BLOCK, 0, 24))

    def test_domino_scores_losing_side_only(self) -> None:
        state = position(C2, ["1-1", "4-4", "9-2", "3-0 2-1"], two_ended("9-3"), 2)
        outcome = state.apply(Play(t("9-2"), UP), state.to_move).outcome
        assert outcome is not None
        self.assertEqual((outcome.winner, outcome.points), (0, 8 + 6))

    def test_tied_block_goes_to_the_tie_winner(self) -> None:
        for tie_winner in (0, 1):
            # After 5-1 the ends show 9 and 1; seat 0 keeps 4-0, seat 1 keeps 2-2: 4 pips each.
            state = position(C1, ["5-1 4-0", "2-2"], two_ended("9-5"), 0, tie_winner=tie_winner)
            outcome = state.apply(Play(t("5-1"), DOWN), state.to_move).outcome
            assert outcome is not None
            self.assertEqual(outcome.end, HandEnd.BLOCK)  # a Cuban tie is never a tied block
            self.assertEqual(outcome.winner, tie_winner)
            self.assertEqual(outcome.points, 4)

    def test_viajera_flag(self) -> None:
        state = position(C2, ["1-1", "9-9 9-8 9-7 8-8 8-7 7-7", "9-6", "7-6"], two_ended("6-1"), 0)
        outcome = state.apply(Play(t("1-1"), DOWN), state.to_move).outcome
        assert outcome is not None
        self.assertEqual(outcome.points, 18 + 17 + 16 + 16 + 15 + 14 + 13)
        self.assertTrue(outcome.viajera)


class CubanSetupTests(unittest.TestCase):
    def test_reshuffle_offer_needs_five_doubles(self) -> None:
        hands = [tiles("0-0 1-1 2-2 3-3 4-4 9-8"), tiles("5-5 6-6 7-7 8-8 9-0"), tiles("9-9")]
        self.assertEqual(reshuffle_seats(hands), (0,))

    def test_highest_drawn_tile_leads_ties_draw_again(self) -> None:
        self.assertEqual(lead_draw_winner(tiles("9-8 9-9 1-0 5-5")), 1)
        self.assertIsNone(lead_draw_winner(tiles("9-7 8-8 1-0")))  # 16 and 16


if __name__ == "__main__":
    unittest.main()
