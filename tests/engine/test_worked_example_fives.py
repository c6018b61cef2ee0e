"""A two-player spinner hand worked out by hand, replayed as Draw and as each fives game.

Seat 0 leads the 5-5, which becomes the spinner; both of its sides are covered by the third tile,
opening its up and down arms. Seat 0 draws three times (6-5; 5-3; 4-3), seat 1 once (3-0, then
6-3). Seat 1 goes out with 3-3 while seat 0 still holds 2-1 (3 pips).

Open-end count after each of the 18 plays (seat 0 plays the odd ones):
10, 14, 4, 8, 6, 1, 2, 4, 10, 12, 18, 9, 10, 7, 10, 10, 9, 12.
* All Fives: seat 0 scores 10 four times (plays 1, 9, 13, 15), seat 1 once (play 16);
  the end award 3 rounds to 5: totals 40 and 15.
* All Threes: seat 0 scores 6 + 18 + 9, seat 1 12 + 9 + 12; the award 3 stays 3: 33 and 36.
* Fives and Threes: seat 0 10 + 6 + 10 + 18 + 10 + 10 + 9 = 73, seat 1 12 + 9 + 10 + 12 = 43,
  award 5: 73 and 48.
* Draw: nothing during play; the award is 3, not rounded.
"""

import unittest

from amigos.engine import Arm, DrawEvent, RecordError, parse_record, replay_record, tile_set
from amigos.engine.codec import replay_json

DEAL = [
    ["5-5", "5-0", "6-4", "3-2", "1-1", "2-1", "6-6"],
    ["5-4", "4-4", "0-0", "6-1", "3-3", "2-0", "4-1"],
]
BONEYARD = ["6-5", "3-0", "6-3", "5-3", "4-3", "6-2", "2-2", "5-2", "1-0", "6-0", "4-0", "4-2", "5-1", "3-1"]
MOVES = [
    "5-5", "5-4@left", "5-0", "4-4", "6-4", "6-1", "1-1", "4-1", "6-5@up",
    "2-0", "6-6", "6-3", "3-2@right", "3-0@up", "5-3@down", "0-0", "4-3@left", "3-3@right",
]  # fmt: skip
COUNTS = [10, 14, 4, 8, 6, 1, 2, 4, 10, 12, 18, 9, 10, 7, 10, 10, 9, 12]


def record(variant: str) -> dict[str, object]:
    return {
        "format": "amigos-record/1",
        "variant": variant,
        "players": ["Ana", "Beto"],
        "hands": [{"deal": DEAL, "boneyard": BONEYARD, "leader": 0, "moves": MOVES}],
    }


class WorkedSpinnerHandTests(unittest.TestCase):
    def test_the_deal_is_a_whole_set(self) -> None:
        every = [tile for hand in DEAL for tile in hand] + BONEYARD
        self.assertEqual(sorted(every), sorted(str(tile) for tile in tile_set(6)))

    def test_each_game(self) -> None:
        expected = {
            "draw-100": (3, [0, 3]),
            "all-fives-100": (5, [40, 15]),
            "all-threes-100": (3, [33, 36]),
            "fives-and-threes-100": (5, [73, 48]),
        }
        for variant, (points, score) in expected.items():
            with self.subTest(variant=variant):
                report = replay_json(replay_record(parse_record(record(variant))))
                self.assertEqual(
                    report["hands"], [{"end": "domino", "winner": 1, "points": points, "score": score}]
                )
                self.assertFalse(report["complete"])

    def test_counts_spinner_and_draws(self) -> None:
        report = replay_record(parse_record(record("all-fives-100")), keep_states=True)
        states = report.hands[0].states
        self.assertEqual([state.line.count() for state in states[1:]], COUNTS)
        self.assertEqual(states[2].line.open_arms(), (Arm.LEFT, Arm.RIGHT))
        self.assertEqual(states[3].line.open_arms(), (Arm.LEFT, Arm.RIGHT, Arm.UP, Arm.DOWN))
        final = states[-1]
        draws = [(event.seat, str(event.tile)) for event in final.history if isinstance(event, DrawEvent)]
        self.assertEqual(draws, [(0, "6-5"), (1, "3-0"), (1, "6-3"), (0, "5-3"), (0, "4-3")])
        self.assertEqual(len(final.boneyard), 9)
        outcome = final.outcome
        assert outcome is not None
        self.assertEqual(outcome.remaining, (3, 0))
        self.assertTrue(outcome.capicua)  # 3-3 fitted three open arms

    def test_positions_are_required_where_several_arms_fit(self) -> None:
        broken = record("all-fives-100")
        broken["hands"][0]["moves"] = [*MOVES[:1], "5-4"]  # type: ignore[index]
        with self.assertRaises(RecordError) as caught:
            replay_record(parse_record(broken))
        self.assertIn("several arms", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
