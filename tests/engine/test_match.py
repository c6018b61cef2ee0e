"""Matches: lead rules, targets, Cuban ties, juegos ganados and the score sheet."""

import unittest

from amigos.engine import HandEnd, HandOutcome, Match, find_variant
from amigos.engine.deal import Deal
from amigos.engine.variants.cuban import cuban_next_leader

from .helpers import finished, full_deal, tiles

NAMES4 = ("Ana", "Beto", "Caro", "Dani")


def outcome(
    end: HandEnd, winner: int | None, points: int, closer: int = 0, remaining: tuple[int, ...] = (0, 0, 0, 0)
) -> HandOutcome:
    sides = 2 if len(remaining) == 4 else len(remaining)
    return HandOutcome(end, winner, points, closer, remaining, (0,) * sides)


class AmigosMatchTests(unittest.TestCase):
    def setUp(self) -> None:
        self.variant = find_variant("amigos-100")

    def play(self, match: Match, result: HandOutcome) -> Match:
        leader = match.next_leader
        assert leader is not None
        return match.finish_hand(finished(self.variant, leader, result))

    def test_lead_rotates_every_hand_even_after_a_tied_block(self) -> None:
        match = Match.new(self.variant, NAMES4, first_leader=2)
        leaders = [match.next_leader]
        for result in (
            outcome(HandEnd.DOMINO, 0, 20),
            outcome(HandEnd.TIED_BLOCK, None, 0, closer=1),
            outcome(HandEnd.BLOCK, 1, 10),
            outcome(HandEnd.DOMINO, 1, 5),
        ):
            match = self.play(match, result)
            leaders.append(match.next_leader)
        self.assertEqual(leaders, [2, 3, 0, 1, 2])

    def test_target_reached_or_passed_ends_the_match(self) -> None:
        match = Match.new(self.variant, NAMES4, first_leader=0)
        match = self.play(match, outcome(HandEnd.DOMINO, 1, 60))
        self.assertFalse(match.is_over)
        match = self.play(match, outcome(HandEnd.BLOCK, 0, 30))
        match = self.play(match, outcome(HandEnd.DOMINO, 1, 47))
        self.assertTrue(match.is_over)
        self.assertEqual(match.winner, 1)
        self.assertEqual(match.score, (30, 107))
        self.assertEqual(match.official_score, (30, 100))  # winners written with exactly the target
        with self.assertRaises(ValueError):
            self.play(match, outcome(HandEnd.DOMINO, 0, 5))

    def test_exactly_the_target(self) -> None:
        match = self.play(Match.new(self.variant, NAMES4, 0), outcome(HandEnd.DOMINO, 0, 100))
        self.assertEqual(match.winner, 0)
        self.assertTrue(match.shutout)  # zapato: the losers never scored

    def test_sheet(self) -> None:
        match = Match.new(self.variant, NAMES4, first_leader=0)
        match = self.play(match, outcome(HandEnd.DOMINO, 1, 60))
        match = self.play(match, outcome(HandEnd.TIED_BLOCK, None, 0, closer=2))
        match = self.play(match, outcome(HandEnd.TIED_BLOCK, None, 0, closer=3))
        match = self.play(match, outcome(HandEnd.DOMINO, 1, 45))
        sheet = match.sheet()
        self.assertEqual(sheet.sides, (("Ana", "Caro"), ("Beto", "Dani")))
        self.assertEqual([row.cells for row in sheet.rows], [("", "60"), ("0", ""), ("", "0"), ("", "45")])
        self.assertEqual(sheet.totals, (0, 105))
        self.assertEqual(sheet.shown_totals, ("0", "100"))
        self.assertEqual(sheet.winner, 1)
        self.assertEqual(sheet.to_dict()["shown_totals"], ["0", "100"])


class HandsWonTests(unittest.TestCase):
    def setUp(self) -> None:
        self.variant = find_variant("amigos-hands")

    def run_hands(self, winners: str) -> Match:
        """``winners``: a string of 0, 1 and C (a block)."""
        match = Match.new(self.variant, NAMES4, first_leader=0)
        for mark in winners:
            leader = match.next_leader
            assert leader is not None
            result = outcome(HandEnd.BLOCK, None, 0) if mark == "C" else outcome(HandEnd.DOMINO, int(mark), 1)
            match = match.finish_hand(finished(self.variant, leader, result))
        return match

    def test_vigesimal_count(self) -> None:
        sheet = self.run_hands("01C0").sheet()
        self.assertEqual(sheet.shown_totals, ("40", "20"))
        self.assertEqual(sheet.no_score, ("C",))
        self.assertEqual([row.cells for row in sheet.rows], [("20", ""), ("", "20"), ("", ""), ("40", "")])
        self.assertEqual(sheet.rows[2].mark, "C")

    def test_four_with_a_lead_of_two_wins(self) -> None:
        match = self.run_hands("0100C0")
        self.assertEqual(match.score, (4, 1))
        self.assertEqual(match.winner, 0)
        self.assertEqual(match.sheet().shown_totals, ("Juego", "20"))

    def test_ventaja_and_back_to_sixty(self) -> None:
        self.assertEqual(self.run_hands("000111").sheet().shown_totals, ("60", "60"))
        match = self.run_hands("0001110")
        self.assertFalse(match.is_over)
        self.assertEqual(match.sheet().shown_totals, ("Ventaja", "60"))
        self.assertEqual(self.run_hands("00011101").sheet().shown_totals, ("60", "60"))
        self.assertEqual(self.run_hands("000111011").sheet().shown_totals, ("60", "Ventaja"))
        match = self.run_hands("0001110111")
        self.assertEqual(match.winner, 1)
        self.assertEqual(match.sheet().shown_totals, ("60", "Juego"))

    def test_four_three_is_not_enough(self) -> None:
        self.assertIsNone(self.run_hands("0001110").winner)
        self.assertEqual(self.run_hands("00011100").winner, 0)


class CubanMatchTests(unittest.TestCase):
    def test_winner_leads_and_wins_ties(self) -> None:
        variant = find_variant("cuban-2v2")
        match = Match.new(variant, NAMES4, first_leader=3)
        self.assertEqual(match.tie_winner_for(3), 1)  # first hand: the side that drew highest
        result = outcome(HandEnd.DOMINO, 0, 30, closer=2)
        match = match.finish_hand(finished(variant, 3, result))
        self.assertEqual(match.next_leader, 2)
        self.assertEqual(match.tie_winner_for(2), 0)  # later: the previous hand's winner

    def test_block_winner_leader(self) -> None:
        variant = find_variant("cuban-2v2")
        result = outcome(HandEnd.BLOCK, 1, 30, closer=0, remaining=(10, 9, 10, 4))
        self.assertEqual(cuban_next_leader(variant, result), 3)
        tied = outcome(HandEnd.BLOCK, 1, 30, closer=0, remaining=(10, 4, 10, 4))
        self.assertEqual(cuban_next_leader(variant, tied), 1)  # the first to play after the block

    def test_target_150(self) -> None:
        variant = find_variant("cuban-1v1")
        match = Match.new(variant, ("A", "B"), first_leader=0)
        match = match.finish_hand(finished(variant, 0, outcome(HandEnd.DOMINO, 0, 149, 0, (0, 149))))
        self.assertFalse(match.is_over)
        match = match.finish_hand(finished(variant, 0, outcome(HandEnd.DOMINO, 0, 1, 0, (0, 1))))
        self.assertEqual((match.winner, match.official_score), (0, (150, 0)))

    def test_reshuffle_offer(self) -> None:
        variant = find_variant("cuban-2v2")
        hands, rest = full_deal(variant, ["0-0 1-1 2-2 3-3 4-4"])
        match = Match.new(variant, NAMES4, first_leader=0)
        self.assertEqual(match.reshuffle_offer(Deal(tuple(map(tuple, hands)), tuple(rest))), (0,))


class DrawMatchTests(unittest.TestCase):
    def test_first_leader_from_the_deal_then_rotation(self) -> None:
        variant = find_variant("draw-100", 3)
        match = Match.new(variant, ("A", "B", "C"))
        deal = Deal((tuple(tiles("6-5 1-0")), tuple(tiles("4-4")), tuple(tiles("3-3"))), ())
        self.assertEqual(match.leader_for(deal), 1)
        match = match.finish_hand(finished(variant, 1, outcome(HandEnd.DOMINO, 0, 10, 0, (0, 0, 0))))
        self.assertEqual(match.next_leader, 2)

    def test_tie_for_first_plays_another_hand(self) -> None:
        variant = find_variant("all-fives-100", 2)
        match = Match.new(variant, ("A", "B"), 0)
        match = match.finish_hand(finished(variant, 0, outcome(HandEnd.DOMINO, 0, 60, 0, (0, 0)), (40, 100)))
        self.assertEqual(match.score, (100, 100))
        self.assertFalse(match.is_over)
        match = match.finish_hand(
            finished(variant, 1, outcome(HandEnd.TIED_BLOCK, None, 0, 0, (0, 0)), (0, 5))
        )
        self.assertEqual(match.winner, 1)
        self.assertEqual([row.cells for row in match.sheet().rows], [("100", "100"), ("0", "5")])

    def test_highest_total_wins(self) -> None:
        variant = find_variant("draw-100", 3)
        match = Match.new(variant, ("A", "B", "C"), 0)
        match = match.finish_hand(
            finished(variant, 0, outcome(HandEnd.DOMINO, 2, 120, 0, (0, 0, 0)), (0, 0, 0))
        )
        self.assertEqual(match.winner, 2)


if __name__ == "__main__":
    unittest.main()
