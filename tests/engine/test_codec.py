"""The engine's values carry no JSON of their own: their formats live in ``amigos.engine.codec``."""

from __future__ import annotations

import ast
import json
import unittest
from pathlib import Path

import amigos.engine
from amigos.engine.codec import line_json, outcome_json, replay_json, sheet_json, view_json
from amigos.engine.replay import replay_record
from amigos.engine.simulate import simulate_match
from amigos.engine.variants import find_variant
from amigos.engine.view import seat_view

ENGINE = Path(amigos.engine.__file__).parent
FORMAT_METHODS = {"to_dict", "from_dict", "to_json"}


class CodecTests(unittest.TestCase):
    def test_no_engine_class_writes_its_own_json(self) -> None:
        found = []
        for path in sorted(ENGINE.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    found += [
                        f"{path.name}:{item.lineno} {node.name}.{item.name}"
                        for item in node.body
                        if isinstance(item, ast.FunctionDef) and item.name in FORMAT_METHODS
                    ]
        self.assertEqual(found, [])

    def test_a_played_match_is_written_as_plain_json(self) -> None:
        record = simulate_match(find_variant("amigos-100", 4), seed=7, max_hands=2)
        report = replay_record(record, keep_states=True)
        assert report.match is not None
        last = report.hands[0].states[-1]
        view = seat_view(last, 0)
        text = json.dumps({"view": view_json(view), "sheet": sheet_json(report.match.sheet())})
        written = json.loads(text)
        self.assertEqual(written["view"]["line"], line_json(last.line))
        assert last.outcome is not None
        self.assertEqual(written["view"]["outcome"], outcome_json(last.outcome))
        self.assertEqual(sorted(written["view"]["hand"]), sorted(str(t) for t in last.hands[0]))
        self.assertEqual(len(written["sheet"]["rows"]), 2)
        self.assertEqual(replay_json(report)["hands"][0]["points"], report.hands[0].points)


if __name__ == "__main__":
    unittest.main()
