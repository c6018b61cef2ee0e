"""Deals from a UUID4 key, and the commitment published before the hand."""

import unittest
import uuid

from amigos.engine import commitment, deal_from_key, find_variant, new_deal_key, tile_set, verify_commitment
from amigos.engine.deal import random_seat, shuffled_set


class DealTests(unittest.TestCase):
    def test_key_is_uuid4_text(self) -> None:
        key = new_deal_key()
        self.assertEqual(len(key), 36)
        self.assertEqual(uuid.UUID(key).version, 4)
        self.assertNotEqual(key, new_deal_key())

    def test_same_key_same_deal(self) -> None:
        variant = find_variant("amigos-200")
        key = "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b"
        self.assertEqual(deal_from_key(key, variant), deal_from_key(key, variant))
        self.assertEqual(deal_from_key(key.upper(), variant).hands, deal_from_key(key, variant).hands)
        other = "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0c"
        self.assertNotEqual(deal_from_key(other, variant).hands, deal_from_key(key, variant).hands)

    def test_known_vector(self) -> None:
        # Pins the documented algorithm: changing it would change every recorded deal.
        order = shuffled_set("00000000-0000-4000-8000-000000000000", 6)
        self.assertEqual(sorted(order), list(tile_set(6)))
        self.assertEqual([str(tile) for tile in order[:7]], ["0-0", "6-6", "3-3", "2-2", "5-3", "4-4", "2-0"])

    def test_deal_partitions_the_set(self) -> None:
        for name, players in (
            ("amigos-100", None),
            ("cuban-2v2", None),
            ("cuban-1v1", None),
            ("draw-100", 3),
        ):
            variant = find_variant(name, players)
            deal = deal_from_key(new_deal_key(), variant)
            self.assertEqual(len(deal.hands), variant.players)
            self.assertTrue(all(len(hand) == variant.hand_size for hand in deal.hands))
            every = [tile for hand in deal.hands for tile in hand] + list(deal.boneyard)
            self.assertEqual(sorted(every), list(tile_set(variant.max_pip)))

    def test_bad_keys(self) -> None:
        variant = find_variant("amigos-100")
        for bad in (
            "",
            "not-a-key",
            "3f2b8c1e9a4d4e6f8b2a1c3d5e7f9a0b",
            "zzzzzzzz-9a4d-4e6f-8b2a-1c3d5e7f9a0b",
        ):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                deal_from_key(bad, variant)

    def test_random_first_leader(self) -> None:
        seats = {random_seat(4) for _ in range(400)}
        self.assertEqual(seats, {0, 1, 2, 3})

    def test_commitment(self) -> None:
        key = new_deal_key()
        published = commitment(key, "match-7/hand-3")
        self.assertEqual(len(published), 64)
        self.assertTrue(verify_commitment(key, "match-7/hand-3", published))
        self.assertFalse(verify_commitment(key, "match-7/hand-4", published))
        self.assertFalse(verify_commitment(new_deal_key(), "match-7/hand-3", published))
        self.assertFalse(verify_commitment("junk", "match-7/hand-3", published))


if __name__ == "__main__":
    unittest.main()
