"""`amigos simulate` and `amigos replay` as commands (parsers built here, so no other subcommand
is imported: these tests run in a bare virtual environment too)."""

import argparse
import contextlib
import io
import json
import os
import tempfile
import unittest

from amigos.cli import replay, simulate


def run(argv: list[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="amigos")
    sub = parser.add_subparsers(dest="command")
    replay.register(sub)
    simulate.register(sub)
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = args.func(args)
    return status, out.getvalue(), err.getvalue()


class SimulateTests(unittest.TestCase):
    def test_deterministic_for_a_seed(self) -> None:
        first = run(["simulate", "--variant", "amigos-200", "--seed", "42"])
        again = run(["simulate", "--variant", "amigos-200", "--seed", "42"])
        other = run(["simulate", "--variant", "amigos-200", "--seed", "43"])
        self.assertEqual(first[0], 0)
        self.assertEqual(first, again)
        self.assertNotEqual(first[1], other[1])

    def test_every_variant_simulates_and_replays(self) -> None:
        cases = [["--variant", name] for name in ("amigos-100", "amigos-hands", "cuban-2v2", "cuban-1v1")]
        cases += [["--variant", "all-threes-100", "--players", str(n)] for n in (2, 3, 4)]
        cases += [["--variant", "fives-and-threes-250"]]
        with tempfile.TemporaryDirectory() as folder:
            for index, case in enumerate(cases):
                path = os.path.join(folder, f"{index}.json")
                status, out, _ = run(["simulate", *case, "--seed", str(index), "-o", path])
                self.assertEqual((status, out), (0, ""))
                status, out, err = run(["replay", path])
                self.assertEqual(status, 0, err)
                report = json.loads(out)
                self.assertTrue(report["complete"], case)
                self.assertEqual(report["variant"], case[1])

    def test_hands_limit_leaves_the_match_unfinished(self) -> None:
        status, out, _ = run(
            ["simulate", "--variant", "draw-500", "--players", "2", "--seed", "1", "--hands", "2"]
        )
        self.assertEqual(status, 0)
        self.assertEqual(len(json.loads(out)["hands"]), 2)

    def test_unknown_variant(self) -> None:
        status, out, err = run(["simulate", "--variant", "amigos-7", "--seed", "1"])
        self.assertEqual((status, out), (2, ""))
        self.assertIn("unknown variant", err)

    def test_bots_option_always_produces_a_legal_record(self) -> None:
        status, out, err = run(
            ["simulate", "--variant", "amigos-100", "--seed", "5", "--bots", "--hands", "1"]
        )
        self.assertEqual(status, 0, err)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bots.json")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(out)
            self.assertEqual(run(["replay", path])[0], 0)


if __name__ == "__main__":
    unittest.main()
