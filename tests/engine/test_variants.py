import unittest

from amigos.engine import VARIANT_NAMES, Family, Scoring, UnknownVariant, find_variant


class VariantTests(unittest.TestCase):
    def test_every_record_name(self) -> None:
        expected = {"amigos-100", "amigos-200", "amigos-hands", "cuban-2v2", "cuban-1v1"}
        for game in ("draw", "all-fives", "all-threes", "fives-and-threes"):
            expected |= {f"{game}-{target}" for target in (100, 250, 500)}
        self.assertEqual(set(VARIANT_NAMES), expected)

    def test_amigos(self) -> None:
        for name in ("amigos-100", "amigos-200", "amigos-hands"):
            variant = find_variant(name)
            self.assertEqual((variant.max_pip, variant.players, variant.hand_size), (6, 4, 7))
            self.assertTrue(variant.partnership)
            self.assertFalse(variant.spinner or variant.draws)
            self.assertEqual(variant.boneyard_size, 0)
            self.assertEqual(variant.family, Family.AMIGOS)
        self.assertEqual(find_variant("amigos-100").target, 100)
        self.assertEqual(find_variant("amigos-200").target, 200)
        self.assertIsNone(find_variant("amigos-hands").target)
        self.assertEqual(find_variant("amigos-hands").scoring, Scoring.HANDS_WON)

    def test_partners_sit_opposite(self) -> None:
        variant = find_variant("amigos-200")
        self.assertEqual([variant.team_of(seat) for seat in range(4)], [0, 1, 0, 1])
        self.assertEqual(variant.sides, 2)

    def test_cuban(self) -> None:
        two = find_variant("cuban-2v2")
        one = find_variant("cuban-1v1")
        self.assertEqual((two.max_pip, two.players, two.hand_size, two.target), (9, 4, 10, 150))
        self.assertEqual(two.boneyard_size, 15)
        self.assertEqual(one.boneyard_size, 35)
        self.assertFalse(one.partnership)
        self.assertEqual(one.sides, 2)
        self.assertFalse(two.spinner or two.draws)

    def test_draw_games_hand_sizes(self) -> None:
        self.assertEqual(find_variant("draw-100", 2).hand_size, 7)
        self.assertEqual(find_variant("all-fives-250", 3).hand_size, 5)
        self.assertEqual(find_variant("fives-and-threes-500", 4).hand_size, 5)
        variant = find_variant("all-threes-250", 3)
        self.assertEqual(variant.boneyard_size, 13)
        self.assertTrue(variant.spinner and variant.draws)
        self.assertEqual(variant.sides, 3)
        self.assertEqual(variant.team_of(2), 2)
        self.assertEqual(variant.rounding, 3)
        self.assertEqual(find_variant("all-fives-100", 2).rounding, 5)
        self.assertEqual(find_variant("fives-and-threes-100", 2).rounding, 5)
        self.assertEqual(find_variant("draw-100", 2).rounding, 1)

    def test_unknown(self) -> None:
        for name, players in (("amigos-300", None), ("draw-100", None), ("draw-100", 5), ("cuban-2v2", 2)):
            with self.subTest(name=name, players=players), self.assertRaises(UnknownVariant):
                find_variant(name, players)
        self.assertTrue(issubclass(UnknownVariant, ValueError))


if __name__ == "__main__":
    unittest.main()
