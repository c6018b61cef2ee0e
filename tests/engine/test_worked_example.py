"""A whole Amigos hand worked out by hand, replayed under each Amigos target.

Deal: seat 0 holds every six, seat 1 the fives (and 4-4), seat 2 the fours and threes, seat 3 the
rest. Seat 0 leads 6-6 and finally goes out with 6-2. Left over: seat 1 5-1 5-0 (11 pips),
seat 2 4-1 4-0 (9), seat 3 2-0 1-0 0-0 (3). Team 0 (seats 0 and 2) wins the hand:
* target 100: the losers' pips, 11 + 3 = 14;
* target 200: every pip left, 11 + 9 + 3 = 23;
* juegos ganados: one hand won.
"""

import unittest

from amigos.engine import HandEnd, parse_record, replay_record
from amigos.engine.codec import replay_json

from .test_record import record

MOVES = [
    "6-6", "pass", "pass", "pass",  # nobody else holds a six
    "6-5",  # ends 6 and 6 after a double lead: the second tile goes up (ends 5 / 6)
    "5-5", "pass", "pass",
    "6-4",  # ends 5 / 4
    "5-4@5",  # fits both ends, different values: the position is required (ends 4 / 4)
    "4-3",  # equal ends: down (4 / 3)
    "3-0", "6-0", "4-4", "4-2", "2-2", "6-3", "5-3", "3-2",  # ends 3 / 5
    "pass", "pass",  # seats 3 and 0 hold no 3 and no 5
    "5-2", "3-3", "2-1", "6-1", "pass", "3-1", "1-1",
    "6-2",  # seat 0 lays its seventh tile: domino
]  # fmt: skip


class WorkedExampleTests(unittest.TestCase):
    def test_each_target(self) -> None:
        for variant, points in (("amigos-100", 14), ("amigos-200", 23), ("amigos-hands", 1)):
            with self.subTest(variant=variant):
                report = replay_record(parse_record(record(MOVES, variant=variant)), keep_states=True)
                self.assertEqual(
                    replay_json(report)["hands"],
                    [{"end": "domino", "winner": 0, "points": points, "score": [points, 0]}],
                )
                final = report.hands[0].states[-1]
                outcome = final.outcome
                assert outcome is not None
                self.assertEqual(outcome.end, HandEnd.DOMINO)
                self.assertEqual(outcome.closer, 0)
                self.assertEqual(outcome.remaining, (0, 11, 9, 3))
                self.assertFalse(outcome.capicua)
                self.assertEqual(str(final.line).count("["), 28 - 7)

    def test_open_ends_along_the_way(self) -> None:
        report = replay_record(parse_record(record(MOVES)), keep_states=True)
        ends = [state.open_ends() for state in report.hands[0].states]
        self.assertEqual(ends[5], (5, 6))
        self.assertEqual(ends[10], (4, 4))
        self.assertEqual(ends[11], (4, 3))
        self.assertEqual(ends[19], (3, 5))
        self.assertEqual(ends[28], (1, 6))

    def test_match_goes_on(self) -> None:
        report = replay_record(parse_record(record(MOVES, variant="amigos-100")))
        self.assertFalse(report.complete)
        assert report.match is not None
        self.assertEqual(report.match.next_leader, 1)
        self.assertEqual(report.match.sheet().rows[0].cells, ("14", ""))


if __name__ == "__main__":
    unittest.main()
