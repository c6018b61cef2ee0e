"""Every variant answers every rule question: one table per question, one row per variant.

The rows are the rules as players know them (docs/rules.md); a new family adds a row to each table.
"""

from __future__ import annotations

import pickle
import random
import unittest
from typing import ClassVar

from amigos.engine import HandEnd, HandOutcome, HandResult, Variant, find_variant
from amigos.engine.deal import Deal, deal_from_key
from amigos.engine.variants.cuban import draw_for_lead
from amigos.engine.variants.draw_fives import first_leader

from .helpers import full_deal, tiles

#: One variant of each kind: Amigos 100/200/juegos ganados, Cuban 2v2/1v1, then the draw and
#: fives games (three players, so that "every other player" means more than one).
KINDS: dict[str, Variant] = {
    "amigos-100": find_variant("amigos-100"),
    "amigos-200": find_variant("amigos-200"),
    "amigos-hands": find_variant("amigos-hands"),
    "cuban-2v2": find_variant("cuban-2v2"),
    "cuban-1v1": find_variant("cuban-1v1"),
    "draw": find_variant("draw-100", 3),
    "all-fives": find_variant("all-fives-100", 3),
    "all-threes": find_variant("all-threes-100", 3),
    "fives-and-threes": find_variant("fives-and-threes-100", 3),
}
AMIGOS = ("amigos-100", "amigos-200", "amigos-hands")
CUBAN = ("cuban-2v2", "cuban-1v1")
DRAW_GAMES = ("draw", "all-fives", "all-threes", "fives-and-threes")


def every_variant() -> list[Variant]:
    """Every variant the registry can build, the draw games for 2, 3 and 4 players."""
    from amigos.engine import VARIANT_NAMES

    found: list[Variant] = []
    for name in VARIANT_NAMES:
        counts = (2, 3, 4) if name.rsplit("-", 1)[0] in DRAW_GAMES else (None,)
        found.extend(find_variant(name, players) for players in counts)
    return found


def result(
    variant: Variant,
    end: HandEnd,
    winner: int | None,
    points: int,
    closer: int = 0,
    leader: int = 0,
    play_points: tuple[int, ...] | None = None,
) -> HandResult:
    outcome = HandOutcome(end, winner, points, closer, (0,) * variant.players, (0,) * variant.sides)
    return HandResult(leader, outcome, play_points if play_points is not None else (0,) * variant.sides)


class FlagTests(unittest.TestCase):
    """The yes/no answers, per kind of variant."""

    #: kind: (scores_during_play, rounding, deal_decides_first_leader, breaks_tied_blocks,
    #:        allows_reshuffle, blocks_score, counts_shutouts, amigos_conduct)
    EXPECTED: ClassVar[dict[str, tuple[bool, int, bool, bool, bool, bool, bool, bool]]] = {
        "amigos-100": (False, 1, False, False, False, True, True, True),
        "amigos-200": (False, 1, False, False, False, True, True, True),
        "amigos-hands": (False, 1, False, False, False, False, False, True),
        "cuban-2v2": (False, 1, False, True, True, True, True, False),
        "cuban-1v1": (False, 1, False, True, True, True, True, False),
        "draw": (False, 1, True, False, False, True, True, False),
        "all-fives": (True, 5, True, False, False, True, True, False),
        "all-threes": (True, 3, True, False, False, True, True, False),
        "fives-and-threes": (True, 5, True, False, False, True, True, False),
    }

    def test_each_kind(self) -> None:
        self.assertEqual(set(self.EXPECTED), set(KINDS))
        for kind, variant in KINDS.items():
            answers = (
                variant.scores_during_play,
                variant.rounding,
                variant.deal_decides_first_leader,
                variant.breaks_tied_blocks,
                variant.allows_reshuffle,
                variant.blocks_score,
                variant.counts_shutouts,
                variant.amigos_conduct,
            )
            with self.subTest(kind=kind):
                self.assertEqual(answers, self.EXPECTED[kind])

    def test_player_count_changes_no_answer(self) -> None:
        for name in ("draw-250", "all-fives-500", "all-threes-250", "fives-and-threes-100"):
            two, four = find_variant(name, 2), find_variant(name, 4)
            with self.subTest(name=name):
                self.assertIs(type(two), type(four))
                self.assertEqual(two.rounding, four.rounding)


class PlayScoreTests(unittest.TestCase):
    COUNTS = (0, 3, 5, 6, 7, 9, 10, 12, 15, 20)
    EXPECTED: ClassVar[dict[str, tuple[int, ...]]] = {
        "all-fives": (0, 0, 5, 0, 0, 0, 10, 0, 15, 20),
        "all-threes": (0, 3, 0, 6, 0, 9, 0, 12, 15, 0),
        "fives-and-threes": (0, 3, 5, 6, 0, 9, 10, 12, 15, 20),
    }

    def test_each_kind(self) -> None:
        for kind, variant in KINDS.items():
            expected = self.EXPECTED.get(kind, (0,) * len(self.COUNTS))
            with self.subTest(kind=kind):
                self.assertEqual(tuple(variant.play_score(count) for count in self.COUNTS), expected)
                # A game scores during play exactly when some count can score.
                self.assertEqual(variant.scores_during_play, any(expected))


class AwardTests(unittest.TestCase):
    def test_partnership_games(self) -> None:
        # The winners hold 10 pips, the losers 25.
        expected = {"amigos-100": 25, "amigos-200": 35, "amigos-hands": 1, "cuban-2v2": 25, "cuban-1v1": 25}
        for kind, points in expected.items():
            with self.subTest(kind=kind):
                self.assertEqual(KINDS[kind].award((10, 25), 0), points)
                self.assertEqual(KINDS[kind].award((25, 10), 1), points)

    def test_draw_games(self) -> None:
        # The winner holds 4, the others 10 and 13: 23 - 4 = 19, rounded to 5 or 3.
        expected = {"draw": 19, "all-fives": 20, "all-threes": 18, "fives-and-threes": 20}
        for kind, points in expected.items():
            with self.subTest(kind=kind):
                self.assertEqual(KINDS[kind].award((4, 10, 13), 0), points)
                self.assertEqual(KINDS[kind].award((10, 4, 13), 1), points)


class MatchWinnerTests(unittest.TestCase):
    CASES: ClassVar[dict[str, tuple[tuple[tuple[int, ...], int | None], ...]]] = {
        "amigos-100": (((99, 40), None), ((100, 40), 0), ((40, 131), 1)),
        "amigos-200": (((199, 150), None), ((230, 180), 0)),
        "amigos-hands": (((4, 3), None), ((4, 2), 0), ((5, 3), 0), ((3, 0), None), ((2, 4), 1)),
        "cuban-2v2": (((149, 0), None), ((150, 0), 0)),
        "cuban-1v1": (((10, 151), 1),),
        "draw": (((99, 20, 3), None), ((105, 100, 3), 0), ((105, 105, 3), None)),
        "all-fives": (((0, 0, 110), 2),),
        "all-threes": (((101, 101, 0), None),),
        "fives-and-threes": (((100, 99, 99), 0),),
    }

    def test_each_kind(self) -> None:
        self.assertEqual(set(self.CASES), set(KINDS))
        for kind, cases in self.CASES.items():
            for score, winner in cases:
                with self.subTest(kind=kind, score=score):
                    self.assertEqual(KINDS[kind].match_winner(score), winner)

    def test_official_score(self) -> None:
        # Only Amigos to a points target writes its winners at exactly the target.
        expected = {
            "amigos-100": (100, 40),
            "amigos-200": (200, 40),
            "amigos-hands": (131, 40),
            "cuban-2v2": (131, 40),
            "cuban-1v1": (131, 40),
        }
        for kind, written in expected.items():
            with self.subTest(kind=kind):
                self.assertEqual(KINDS[kind].official_score((131, 40), 0), written)
                self.assertEqual(KINDS[kind].official_score((131, 40), None), (131, 40))
        for kind in DRAW_GAMES:
            with self.subTest(kind=kind):
                self.assertEqual(KINDS[kind].official_score((131, 40, 7), 0), (131, 40, 7))


class LeadTests(unittest.TestCase):
    def test_next_leader(self) -> None:
        # Seat 3 (or the last seat) led; seat 1 went out.
        for kind, variant in KINDS.items():
            last_leader = variant.players - 1
            won = result(variant, HandEnd.DOMINO, variant.team_of(1), 20, closer=1, leader=last_leader)
            expected = 1 if kind in CUBAN else 0
            with self.subTest(kind=kind):
                self.assertEqual(variant.next_leader(won), expected)

    def test_tie_winner(self) -> None:
        for kind, variant in KINDS.items():
            last = result(variant, HandEnd.DOMINO, 0, 20, closer=0)
            with self.subTest(kind=kind):
                if kind in CUBAN:
                    self.assertEqual(variant.tie_winner_for(1, None), 1)  # the first leader's side
                    self.assertEqual(variant.tie_winner_for(1, last), 0)  # the last hand's winner
                else:
                    self.assertIsNone(variant.tie_winner_for(1, None))
                    self.assertIsNone(variant.tie_winner_for(1, last))

    def test_first_leader_of_the_deal(self) -> None:
        hands = [tiles("6-5 1-0"), tiles("4-4 2-0"), tiles("3-3 1-1")]
        for kind, variant in KINDS.items():
            with self.subTest(kind=kind):
                if kind in DRAW_GAMES:
                    self.assertEqual(variant.first_leader_of(hands), first_leader(hands))
                    self.assertEqual(variant.first_leader_of(hands), 1)
                else:
                    with self.assertRaises(ValueError):
                        variant.first_leader_of(hands)

    def test_pick_first_leader(self) -> None:
        for kind, variant in KINDS.items():
            deal = deal_from_key("5f0c7a3e-9b1d-4c2a-8e6f-0a1b2c3d4e5f", variant)
            rng, twin = random.Random(7), random.Random(7)
            picked = variant.pick_first_leader(deal, rng)
            with self.subTest(kind=kind):
                if kind in AMIGOS:
                    self.assertEqual(picked, twin.randrange(4))
                elif kind in CUBAN:
                    self.assertEqual(picked, draw_for_lead(deal.boneyard, variant.players, twin))
                else:
                    self.assertIsNone(picked)
                    self.assertEqual(rng.random(), twin.random())  # nothing drawn


class ReshuffleTests(unittest.TestCase):
    def test_only_cuban_offers_a_new_deal(self) -> None:
        for kind, variant in KINDS.items():
            doubles = "0-0 1-1 2-2 3-3 4-4"
            hands, rest = full_deal(variant, ["", doubles] if variant.hand_size >= 5 else [""])
            deal = Deal(tuple(map(tuple, hands)), tuple(rest))
            with self.subTest(kind=kind):
                self.assertEqual(variant.reshuffle_seats(deal.hands), (1,) if kind in CUBAN else ())

    def test_four_doubles_are_not_enough(self) -> None:
        for kind in CUBAN:
            variant = KINDS[kind]
            hands, _ = full_deal(variant, ["0-0 1-1 2-2 3-3"])
            with self.subTest(kind=kind):
                self.assertEqual(variant.reshuffle_seats(hands), ())


class SheetTests(unittest.TestCase):
    def test_points_games_write_the_winners_award(self) -> None:
        for kind in ("amigos-100", "amigos-200", "cuban-2v2", "cuban-1v1"):
            variant = KINDS[kind]
            won = result(variant, HandEnd.BLOCK, 1, 27, closer=0)
            tied = result(variant, HandEnd.TIED_BLOCK, None, 0, closer=1)
            with self.subTest(kind=kind):
                self.assertEqual(variant.sheet_cells(won, (0, 1)), ("", "27"))
                self.assertEqual(variant.sheet_cells(tied, (0, 1)), ("", "0"))  # the closer's side
                self.assertEqual(variant.sheet_mark(won), "")
                self.assertEqual(variant.sheet_mark(tied), "")
                self.assertEqual(variant.shown_totals((100, 12), (3, 1)), ("100", "12"))

    def test_hands_won_writes_labels_and_marks_blocks(self) -> None:
        variant = KINDS["amigos-hands"]
        won = result(variant, HandEnd.DOMINO, 0, 1, closer=2)
        block = result(variant, HandEnd.BLOCK, None, 0, closer=1)
        self.assertEqual(variant.sheet_cells(won, (2, 1)), ("40", ""))
        self.assertEqual(variant.sheet_cells(won, (4, 3)), ("Ventaja", ""))
        self.assertEqual(variant.sheet_cells(block, (2, 1)), ("", ""))
        self.assertEqual(variant.sheet_mark(block), "C")
        self.assertEqual(variant.sheet_mark(won), "")
        self.assertEqual(variant.shown_totals((4, 2), (4, 2)), ("Juego", "40"))

    def test_draw_games_write_every_players_points(self) -> None:
        for kind in DRAW_GAMES:
            variant = KINDS[kind]
            won = result(variant, HandEnd.DOMINO, 2, 15, closer=2, play_points=(10, 0, 5))
            with self.subTest(kind=kind):
                self.assertEqual(variant.sheet_cells(won, (0, 0, 1)), ("10", "0", "20"))
                self.assertEqual(variant.sheet_mark(won), "")
                self.assertEqual(variant.shown_totals((10, 0, 20), (0, 0, 1)), ("10", "0", "20"))


class ValueTests(unittest.TestCase):
    """A variant stays a plain value whatever its class: equal, hashable, picklable, slotted."""

    def test_every_variant(self) -> None:
        variants = every_variant()
        self.assertEqual(len(variants), 5 + 12 * 3)
        for variant in variants:
            with self.subTest(variant=variant.name, players=variant.players):
                self.assertEqual(find_variant(variant.name, variant.players), variant)
                copy = pickle.loads(pickle.dumps(variant))  # noqa: S301 (our own value, just pickled)
                self.assertEqual(copy, variant)
                self.assertIs(type(copy), type(variant))
                self.assertEqual(hash(copy), hash(variant))
                self.assertFalse(hasattr(variant, "__dict__"))
                with self.assertRaises(AttributeError):
                    variant.target = 1  # type: ignore[misc]

    def test_same_fields_other_rules_are_not_equal(self) -> None:
        amigos = find_variant("amigos-100")
        self.assertNotEqual(amigos, find_variant("amigos-200"))
        self.assertIsInstance(amigos, Variant)


if __name__ == "__main__":
    unittest.main()
