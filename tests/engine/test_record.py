"""Match records: reading, writing, replaying, and `amigos replay`'s refusals (exit status 2)."""

import copy
import io
import json
import unittest
from typing import Any

from amigos.cli.replay import replay_main
from amigos.engine import find_variant
from amigos.engine.codec import replay_json
from amigos.engine.record import RecordError, parse_record, write_record
from amigos.engine.replay import replay_record
from amigos.engine.simulate import simulate_match

SUITS = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
    ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
    ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"],
]
HEAD = '{"format": "amigos-record/1", "variant": "amigos-100", "players": ["a","b","c","d"], '
OPENING = ["6-6", "pass", "pass", "pass", "6-5", "5-5", "pass", "pass", "6-4"]


def record(
    moves: list[str], deal: list[list[str]] | None = None, variant: str = "amigos-100"
) -> dict[str, Any]:
    return {
        "format": "amigos-record/1",
        "variant": variant,
        "players": ["Ana", "Beto", "Caro", "Dani"],
        "hands": [{"deal": deal or SUITS, "boneyard": [], "leader": 0, "moves": moves}],
    }


def run_cli(text: str) -> tuple[int, str, str]:
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = replay_main("-", stdin, out, err)
    return status, out.getvalue(), err.getvalue()


class ReplayTests(unittest.TestCase):
    def test_unfinished_hand(self) -> None:
        report = replay_json(replay_record(parse_record(record([*OPENING, "5-4@5", "4-3"]))))
        self.assertEqual(
            report,
            {
                "variant": "amigos-100",
                "hands": [{"end": "unfinished", "winner": None, "points": 0, "score": [0, 0]}],
                "complete": False,
                "winner": None,
                "score": [0, 0],
            },
        )

    def test_where_tiles_went(self) -> None:
        report = replay_record(parse_record(record([*OPENING, "5-4@5", "4-3"])), keep_states=True)
        states = report.hands[0].states
        self.assertEqual(states[5].open_ends(), (5, 6))  # 6-5 went up, after the double lead
        self.assertEqual(states[10].open_ends(), (4, 4))  # 5-4 on the 5
        self.assertEqual(states[11].open_ends(), (4, 3))  # equal ends: 4-3 goes down

    def test_same_value_choice_needs_no_position(self) -> None:
        moves = [*OPENING, "5-4@5", "4-3@4"]
        report = replay_record(parse_record(record(moves)), keep_states=True)
        self.assertEqual(report.hands[0].states[-1].open_ends(), (4, 3))

    def assert_refused(self, obj: Any, hand: int, move: int, words: str) -> None:
        with self.assertRaises(RecordError) as caught:
            replay_record(parse_record(obj))
        error = caught.exception
        self.assertEqual((error.hand, error.move), (hand, move), str(error))
        self.assertIn(words, error.reason)
        status, out, err = run_cli(json.dumps(obj))
        self.assertEqual((status, out), (2, ""))
        self.assertEqual(err.count("\n"), 1)
        self.assertIn(f"hand {hand}, move {move}", err)

    def test_refusals(self) -> None:
        self.assert_refused(record([*OPENING, "5-4"]), 1, 10, "missing @")
        self.assert_refused(record(["6-6", "6-5"]), 1, 2, "not in your hand")
        self.assert_refused(record(["6-6", "5-5"]), 1, 2, "does not fit")
        self.assert_refused(record(["6-6", "pass", "pass", "pass", "pass"]), 1, 5, "pass refused")
        self.assert_refused(record([*OPENING, "5-4@3"]), 1, 10, "cannot join")
        self.assert_refused(record(["6-6@6"]), 1, 1, "lead")
        self.assert_refused(record(["6-6", "bogus"]), 1, 2, "not a move")
        self.assert_refused(record(["7-7"]), 1, 1, "double-6")
        self.assert_refused(record([], variant="amigos-300"), 0, 0, "unknown variant")
        short = copy.deepcopy(SUITS)
        short[0] = short[0][:6]
        self.assert_refused(record([], deal=short), 1, 0, "6 tiles")
        twice = copy.deepcopy(SUITS)
        twice[1][0] = "6-6"
        self.assert_refused(record([], deal=twice), 1, 0, "twice")
        bad_leader = record([])
        bad_leader["hands"][0]["leader"] = 4
        self.assert_refused(bad_leader, 1, 0, "leader")

    def test_moves_after_the_end(self) -> None:
        full = parse_record(write_record(simulate_match(find_variant("amigos-100"), 11))).to_obj()
        hand = full["hands"][0]
        count = len(hand["moves"])
        extra = copy.deepcopy(full)
        extra["hands"][0]["moves"].append("pass")
        self.assert_refused(extra, 1, count + 1, "already over")
        after = copy.deepcopy(full)
        after["hands"].append(copy.deepcopy(full["hands"][-1]))
        self.assert_refused(after, len(full["hands"]) + 1, 1, "match was already over")
        cut = copy.deepcopy(full)
        cut["hands"][0]["moves"] = hand["moves"][:3]
        self.assert_refused(cut, 1, 4, "another hand follows")

    def test_junk(self) -> None:
        for junk in (
            "",
            "not json",
            "[]",
            "null",
            '{"format": "amigos-record/1"}',
            '{"format": "amigos-record/1", "variant": 7, "players": [], "hands": []}',
            '{"format": "amigos-record/1", "variant": "amigos-100", "players": "abcd", "hands": []}',
            '{"format": "amigos-record/1", "variant": "amigos-100", "players": [1,2,3,4], "hands": []}',
            HEAD + '"hands": [7]}',
            json.dumps(record([1, 2])),  # type: ignore[list-item]
            json.dumps(record([], deal=[[1]])),  # type: ignore[list-item]
            "[" * 100000,
            HEAD + '"hands": [{"deal": [], "boneyard": [], "leader": ' + "9" * 5000 + ', "moves": []}]}',
            json.dumps({**record([]), "hands": [{**record([])["hands"][0], "leader": 10**30}]}),
            json.dumps({**record([]), "hands": [{**record([])["hands"][0], "leader": True}]}),
            json.dumps({**record([]), "hands": [{**record([])["hands"][0], "leader": 1.0}]}),
            HEAD + '"hands": NaN}',
        ):
            with self.subTest(junk=junk[:60]):
                status, out, err = run_cli(junk)
                self.assertEqual((status, out), (2, ""))
                self.assertEqual(err.count("\n"), 1)
                self.assertIn("hand", err)
                self.assertIn("move", err)

    def test_not_utf8_and_missing_file(self) -> None:
        stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe{"), encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        self.assertEqual(replay_main("-", stdin, out, err), 2)
        self.assertEqual(replay_main("/nonexistent/record.json", io.StringIO(), out, err), 2)
        self.assertEqual(out.getvalue(), "")

    def test_empty_match(self) -> None:
        status, out, _ = run_cli(json.dumps({**record([]), "hands": []}))
        self.assertEqual(status, 0)
        self.assertEqual(json.loads(out)["score"], [0, 0])


class ReportRulesTests(unittest.TestCase):
    def test_hands_won_blocks_win_nothing(self) -> None:
        seen = set()
        for seed in range(30):
            report = replay_record(simulate_match(find_variant("amigos-hands"), seed, max_hands=12))
            for hand in report.hands:
                if hand.end in ("block", "tied-block"):
                    self.assertEqual((hand.winner, hand.points), (None, 0))
                    seen.add(hand.end)
                elif hand.end == "domino":
                    self.assertEqual(hand.points, 1)
        self.assertIn("block", seen)

    def test_cuban_never_reports_a_tied_block(self) -> None:
        for seed in range(30):
            report = replay_record(simulate_match(find_variant("cuban-1v1"), seed))
            self.assertTrue(
                all(hand.end != "tied-block" and hand.winner is not None for hand in report.hands)
            )

    def test_fives_score_includes_points_during_play(self) -> None:
        report = replay_record(simulate_match(find_variant("all-fives-100", 2), 4))
        awards = [0, 0]
        for hand in report.hands:
            if hand.winner is not None:
                awards[hand.winner] += hand.points
        self.assertTrue(report.complete)
        self.assertGreater(sum(report.score), sum(awards))  # the rest was scored during play
        self.assertTrue(all(points % 5 == 0 for points in report.score))


class WriteReadTests(unittest.TestCase):
    def test_round_trip_and_extra_fields(self) -> None:
        original = simulate_match(find_variant("all-fives-100", 3), 5, max_hands=2)
        text = write_record(original)
        again = parse_record(text)
        self.assertEqual(again, original)
        obj = json.loads(text)
        obj["event"] = {"table": "mesa 3"}
        obj["hands"][0]["key"] = "00000000-0000-4000-8000-000000000000"
        kept = parse_record(obj)
        self.assertEqual(kept.to_obj()["event"], {"table": "mesa 3"})
        self.assertEqual(kept.hands[0].to_obj()["key"], "00000000-0000-4000-8000-000000000000")

    def test_tiles_in_either_order(self) -> None:
        flipped = copy.deepcopy(SUITS)
        flipped[0] = [text[::-1] for text in flipped[0]]
        report = replay_record(parse_record(record(["6-6", "pass", "pass", "pass", "5-6"], deal=flipped)))
        self.assertEqual(report.hands[0].end, "unfinished")

    def test_simulated_records_replay_to_the_simulated_match(self) -> None:
        for name, players in (
            ("amigos-200", None),
            ("amigos-hands", None),
            ("cuban-1v1", None),
            ("draw-250", 2),
        ):
            variant = find_variant(name, players)
            rec = simulate_match(variant, 3)
            report = replay_record(parse_record(write_record(rec)))
            self.assertTrue(report.complete)
            self.assertIsNotNone(report.winner)
            self.assertEqual(len(report.hands), len(rec.hands))


if __name__ == "__main__":
    unittest.main()
