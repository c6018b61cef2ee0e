import unittest

from amigos.engine import Tile, pips, tile_set


class TileTests(unittest.TestCase):
    def test_normalised_high_first(self) -> None:
        self.assertEqual(Tile(4, 6), Tile(6, 4))
        self.assertEqual((Tile(4, 6).high, Tile(4, 6).low), (6, 4))
        self.assertEqual(Tile.of(2, 5), Tile(5, 2))
        self.assertEqual(hash(Tile(1, 3)), hash(Tile(3, 1)))

    def test_notation(self) -> None:
        self.assertEqual(Tile.parse("6-4"), Tile(6, 4))
        self.assertEqual(Tile.parse("4-6"), Tile(6, 4))
        self.assertEqual(str(Tile(4, 6)), "6-4")
        for bad in ("64", "6-", "-4", "6-4-1", "a-b", "10-1", " 6-4", ""):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                Tile.parse(bad)

    def test_properties(self) -> None:
        tile = Tile(6, 4)
        self.assertFalse(tile.is_double)
        self.assertTrue(Tile(3, 3).is_double)
        self.assertEqual(tile.pips, 10)
        self.assertTrue(tile.has(4) and tile.has(6) and not tile.has(5))
        self.assertEqual(tile.other(6), 4)
        self.assertEqual(tile.other(4), 6)
        self.assertEqual(Tile(2, 2).other(2), 2)
        with self.assertRaises(ValueError):
            tile.other(3)

    def test_invalid_halves(self) -> None:
        for a, b in ((10, 0), (-1, 2)):
            with self.assertRaises(ValueError):
                Tile(a, b)
        with self.assertRaises(TypeError):
            Tile(True, 2)

    def test_sets(self) -> None:
        six, nine = tile_set(6), tile_set(9)
        self.assertEqual(len(six), 28)
        self.assertEqual(len(nine), 55)
        self.assertEqual(len(set(six)), 28)
        self.assertEqual(list(six), sorted(six))
        self.assertEqual(pips(six), 168)
        self.assertEqual(sum(1 for tile in nine if tile.is_double), 10)

    def test_ordering(self) -> None:
        self.assertLess(Tile(6, 5), Tile(6, 6))
        self.assertLess(Tile(5, 5), Tile(6, 0))


if __name__ == "__main__":
    unittest.main()
