"""An Amigos hand: turns, legal actions, refusals, passes, blocks and the count of each target."""

import unittest

from amigos.engine import (
    Arm,
    HandEnd,
    HandState,
    IllegalAction,
    Pass,
    PassEvent,
    Play,
    PlayEvent,
    find_variant,
)
from amigos.engine.state import DealError

from .helpers import full_deal, position, t, tiles, two_ended

UP, DOWN = Arm.UP, Arm.DOWN
A100, A200, HANDS = find_variant("amigos-100"), find_variant("amigos-200"), find_variant("amigos-hands")


class StartTests(unittest.TestCase):
    def test_lead_may_be_any_tile(self) -> None:
        hands, _ = full_deal(A100, ["6-6 6-5 5-5 4-1 3-0 2-2 1-0"])
        state = HandState.start(A100, hands, leader=0)
        self.assertEqual(state.to_move, 0)
        self.assertEqual(len(state.legal_actions()), 7)
        self.assertTrue(all(isinstance(a, Play) and a.arm is None for a in state.legal_actions()))
        after = state.apply(Play(t("4-1")), state.to_move)
        self.assertEqual(after.open_ends(), (4, 1))
        self.assertEqual(after.to_move, 1)  # the next seat plays after the leader

    def test_deal_is_checked(self) -> None:
        hands, _ = full_deal(A100, [])
        with self.assertRaises(DealError):
            HandState.start(A100, hands[:3], leader=0)
        short = [list(hand) for hand in hands]
        short[0] = short[0][:6]
        with self.assertRaises(DealError):
            HandState.start(A100, short, leader=0)
        twice = [list(hand) for hand in hands]
        twice[1][0] = twice[0][0]
        with self.assertRaises(DealError):
            HandState.start(A100, twice, leader=0)
        with self.assertRaises(DealError):
            HandState.start(A100, hands, leader=4)
        with self.assertRaises(DealError):
            HandState.start(A100, hands, leader=0, boneyard=tiles("6-6"))

    def test_state_is_immutable(self) -> None:
        hands, _ = full_deal(A100, [])
        state = HandState.start(A100, hands, leader=2)
        before = (state.hands, state.line, state.to_move, state.history)
        state.apply(state.legal_actions()[0], state.to_move)
        self.assertEqual((state.hands, state.line, state.to_move, state.history), before)


class TurnTests(unittest.TestCase):
    def setUp(self) -> None:
        self.state = position(A100, ["6-4 2-2", "6-1 5-5", "3-3 0-0", "4-4 1-1"], two_ended("6-3"), to_move=0)

    def test_not_your_turn(self) -> None:
        with self.assertRaises(IllegalAction) as caught:
            self.state.apply(Play(t("6-1"), UP), seat=1)
        self.assertEqual(caught.exception.reason, "not your turn")

    def test_tile_that_does_not_fit(self) -> None:
        with self.assertRaises(IllegalAction) as caught:
            self.state.apply(Play(t("2-2"), UP), 0)
        self.assertEqual(caught.exception.reason, "2-2 does not fit the open ends 6 and 3")

    def test_tile_not_in_hand(self) -> None:
        with self.assertRaises(IllegalAction) as caught:
            self.state.apply(Play(t("6-1"), UP), 0)
        self.assertIn("not in your hand", caught.exception.reason)

    def test_pass_refused_while_holding_a_playable_tile(self) -> None:
        with self.assertRaises(IllegalAction) as caught:
            self.state.apply(Pass(), 0)
        self.assertEqual(caught.exception.reason, "you hold a playable tile: pass refused")

    def test_arm_is_required_after_the_lead(self) -> None:
        with self.assertRaises(IllegalAction):
            self.state.apply(Play(t("6-4")), 0)

    def test_forced_pass(self) -> None:
        state = self.state.apply(Play(t("6-4"), UP), 0)  # ends 4 and 3; seat 1 holds 6-1 5-5
        self.assertEqual(state.to_move, 1)
        self.assertEqual(state.legal_actions(), (Pass(),))
        state = state.apply(Pass(), state.to_move)
        self.assertEqual(state.history[-1], PassEvent(1, (4, 3)))
        self.assertEqual(state.to_move, 2)
        self.assertEqual(state.legal_actions(), (Play(t("3-3"), DOWN),))

    def test_text(self) -> None:
        text = str(self.state)
        self.assertIn("amigos-100: [6|3]", text)
        self.assertIn("> seat 0: 6-4 2-2", text)

    def test_timeout_lays_a_tile_when_one_fits(self) -> None:
        self.assertEqual(self.state.default_action(), Play(t("6-4"), UP))
        after = self.state.apply(Play(t("6-4"), UP), 0)
        self.assertEqual(after.default_action(), Pass())

    def test_history_records_plays(self) -> None:
        state = self.state.apply(Play(t("6-4"), UP), 0)
        self.assertEqual(state.history, (PlayEvent(0, Play(t("6-4"), UP), 0, (6, 3)),))


class EndOfHandTests(unittest.TestCase):
    def test_block_is_declared_at_once(self) -> None:
        # Ends 6 and 5; seat 0 lays 5-1 -> ends 6 and 1; nobody holds a 6 or a 1: block, no passes.
        state = position(A100, ["5-1 2-0", "2-2", "3-3", "4-0"], two_ended("6-5"), 0)
        state = state.apply(Play(t("5-1"), DOWN), state.to_move)
        self.assertTrue(state.is_over)
        outcome = state.outcome
        assert outcome is not None
        self.assertEqual(outcome.end, HandEnd.TIED_BLOCK)  # team 0: 2 + 6 = 8, team 1: 4 + 4 = 8
        self.assertIsNone(outcome.winner)
        self.assertEqual(outcome.points, 0)
        self.assertEqual(outcome.closer, 0)
        self.assertFalse(any(isinstance(event, PassEvent) for event in state.history))
        self.assertEqual(state.legal_actions(), ())
        with self.assertRaises(IllegalAction):
            state.apply(Pass(), state.to_move)

    def _block(self, variant_name: str) -> HandState:
        # After 5-1: team 0 keeps 2-0 and 3-3 (8), team 1 keeps 2-2 and 4-4 (12): team 0 wins.
        state = position(variant_name, ["5-1 2-0", "2-2", "3-3", "4-4"], two_ended("6-5"), 0)
        return state.apply(Play(t("5-1"), DOWN), state.to_move)

    def test_block_100_losers_pips(self) -> None:
        outcome = self._block("amigos-100").outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.points), (HandEnd.BLOCK, 0, 12))
        self.assertEqual(outcome.side_remaining, (8, 12))

    def test_block_200_all_pips(self) -> None:
        outcome = self._block("amigos-200").outcome
        assert outcome is not None
        self.assertEqual((outcome.winner, outcome.points), (0, 20))

    def test_block_in_hands_won_wins_nothing(self) -> None:
        outcome = self._block("amigos-hands").outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.points), (HandEnd.BLOCK, None, 0))

    def _domino(self, variant_name: str) -> HandState:
        # Seat 2 lays its last tile; seat 0 (its partner) keeps 1-1, seats 1 and 3 keep 8 and 6.
        state = position(variant_name, ["1-1", "4-4", "6-2", "3-0 2-1"], two_ended("6-3"), 2)
        return state.apply(Play(t("6-2"), UP), state.to_move)

    def test_domino_100_counts_losers(self) -> None:
        outcome = self._domino("amigos-100").outcome
        assert outcome is not None
        self.assertEqual((outcome.end, outcome.winner, outcome.closer), (HandEnd.DOMINO, 0, 2))
        self.assertEqual(outcome.points, 8 + 3 + 3)  # seats 1 and 3

    def test_domino_200_counts_every_tile_left(self) -> None:
        outcome = self._domino("amigos-200").outcome
        assert outcome is not None
        self.assertEqual(outcome.points, 2 + 8 + 6)  # the partner's 1-1 too

    def test_domino_hands_won_is_one(self) -> None:
        outcome = self._domino("amigos-hands").outcome
        assert outcome is not None
        self.assertEqual((outcome.winner, outcome.points), (0, 1))

    def test_closing_situation(self) -> None:
        # Ends 6 and 5; laying 5-1 blocks (nobody holds a 6 or a 1), laying 5-2 does not.
        state = position(A100, ["5-1 5-2 2-0", "2-2", "3-3", "4-0"], two_ended("6-5"), 0)
        self.assertEqual(state.closing_actions(), (Play(t("5-1"), DOWN),))
        quiet = position(A100, ["5-2 2-0", "2-2", "3-3", "4-0"], two_ended("6-5"), 0)
        self.assertEqual(quiet.closing_actions(), ())

    def test_capicua(self) -> None:
        state = position(A100, ["", "", "6-3", ""], two_ended("6-3", ("3-3", DOWN)), 2)
        self.assertEqual(set(state.legal_actions()), {Play(t("6-3"), UP), Play(t("6-3"), DOWN)})
        outcome = state.apply(Play(t("6-3"), UP), state.to_move).outcome
        assert outcome is not None
        self.assertTrue(outcome.capicua)
        plain = (
            position(A100, ["", "", "6-1", "2-2"], two_ended("6-3"), 2).apply(Play(t("6-1"), UP), 2).outcome
        )
        assert plain is not None
        self.assertFalse(plain.capicua)


if __name__ == "__main__":
    unittest.main()
