"""Engine changes live play needs: the seat is always checked, errors carry codes, a play event
carries its ends, one place lays a play on a line, notation needs no hand state, no import cycles,
and a match can end without reaching its target."""

from __future__ import annotations

import ast
import unittest
from pathlib import Path

from amigos.engine import (
    ILLEGAL_CODES,
    IllegalAction,
    Line,
    Match,
    Pass,
    Play,
    PlayEvent,
    Termination,
    find_variant,
)
from amigos.engine.actions import Arm
from amigos.engine.notation import move_notation, parse_move

from .helpers import finished, position, spinner_line, t, two_ended

A100 = find_variant("amigos-100")
ENGINE = Path(__file__).resolve().parents[2] / "src" / "amigos" / "engine"


class SeatAlwaysCheckedTests(unittest.TestCase):
    def setUp(self) -> None:
        self.state = position(A100, ["6-4 2-2", "6-1 5-5", "3-3 0-0", "4-4 1-1"], two_ended("6-3"), to_move=0)

    def test_every_other_seat_is_refused_with_its_code_and_nothing_changes(self) -> None:
        for seat in (1, 2, 3):
            with self.assertRaises(IllegalAction) as caught:
                self.state.apply(Play(t("6-1"), Arm.UP), seat)
            self.assertEqual(caught.exception.code, "not_your_turn")
        self.assertEqual(self.state.to_move, 0)
        self.assertEqual(len(self.state.history), 0)

    def test_the_seat_is_a_required_argument(self) -> None:
        with self.assertRaises(TypeError):
            self.state.apply(Play(t("6-4"), Arm.UP))  # type: ignore[call-arg]

    def test_refusals_carry_stable_codes(self) -> None:
        cases = [
            (Play(t("2-2"), Arm.UP), "does_not_fit"),
            (Play(t("6-1"), Arm.UP), "not_in_hand"),
            (Pass(), "pass_refused"),
            (Play(t("6-4")), "arm_needed"),
            ("6-4", "not_an_action"),
        ]
        for action, code in cases:
            with self.subTest(action=action), self.assertRaises(IllegalAction) as caught:
                self.state.apply(action, 0)  # type: ignore[arg-type]
            self.assertEqual(caught.exception.code, code)
            self.assertIn(code, ILLEGAL_CODES)

    def test_a_finished_hand_refuses_with_hand_over(self) -> None:
        state = position(A100, ["6-4", "1-1", "2-2", "0-0"], two_ended("6-3"), to_move=0)
        over = state.apply(Play(t("6-4"), Arm.UP), 0)
        with self.assertRaises(IllegalAction) as caught:
            over.apply(Pass(), over.to_move)
        self.assertEqual(caught.exception.code, "hand_over")

    def test_unknown_codes_are_a_programming_error(self) -> None:
        with self.assertRaises(ValueError):
            IllegalAction("x", "no-such-code")


class PlayEventEndsTests(unittest.TestCase):
    def test_the_event_keeps_the_ends_the_tile_was_laid_on(self) -> None:
        state = position(A100, ["6-4 2-2", "6-1 5-5", "3-3 0-0", "4-4 1-1"], two_ended("6-3"), to_move=0)
        state = state.apply(Play(t("6-4"), Arm.UP), 0)
        event = state.history[-1]
        assert isinstance(event, PlayEvent)
        self.assertEqual(event.ends, (6, 3))

    def test_the_lead_was_laid_on_nothing(self) -> None:
        state = position(A100, ["6-4 2-2", "6-1 5-5", "3-3 0-0", "4-4 1-1"], Line.empty(False), to_move=0)
        state = state.apply(Play(t("6-4")), 0)
        event = state.history[-1]
        assert isinstance(event, PlayEvent)
        self.assertEqual(event.ends, ())


class LayTests(unittest.TestCase):
    def test_lay_is_place_lead_or_place(self) -> None:
        line = Line.empty(True)
        self.assertEqual(line.lay(Play(t("5-3"), None, 3)), line.place_lead(t("5-3"), 3))
        line = spinner_line("6-6")
        self.assertEqual(line.lay(Play(t("6-1"), Arm.LEFT)), line.place(t("6-1"), Arm.LEFT))

    def test_lay_refuses_with_a_code(self) -> None:
        with self.assertRaises(IllegalAction) as caught:
            two_ended("6-3").lay(Play(t("2-2"), Arm.UP))
        self.assertEqual(caught.exception.code, "does_not_fit")


class NotationOnTheLineTests(unittest.TestCase):
    def test_parse_and_write_with_only_the_variant_and_the_line(self) -> None:
        line = two_ended("6-3")
        action = parse_move(A100, line, "6-3@6")
        self.assertEqual(action, Play(t("6-3"), Arm.UP))
        self.assertEqual(move_notation(line, action), "6-3@6")
        self.assertEqual(parse_move(A100, line, "pass"), Pass())

    def test_bad_notation_has_a_code(self) -> None:
        for text, code in (("hello", "bad_notation"), ("7-7", "not_a_tile"), ("6-3", "arm_needed")):
            with self.subTest(text=text), self.assertRaises(IllegalAction) as caught:
                parse_move(A100, two_ended("6-3"), text)
            self.assertEqual(caught.exception.code, code)


def _imports(path: Path) -> set[str]:
    """Every engine module ``path`` imports, anywhere in the file (functions and TYPE_CHECKING too)."""
    package = "amigos.engine" + ("" if path.parent == ENGINE else "." + path.parent.name)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
    return found


def _module_name(path: Path) -> str:
    relative = path.relative_to(ENGINE.parent.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class ImportCycleTests(unittest.TestCase):
    def test_the_engine_modules_import_each_other_without_a_cycle(self) -> None:
        graph = {
            _module_name(path): _imports(path) for path in ENGINE.rglob("*.py") if path.name != "__init__.py"
        }

        def visit(module: str, trail: tuple[str, ...]) -> None:
            for target in graph.get(module, ()):
                if target in trail:
                    self.fail(" -> ".join((*trail, target)))
                visit(target, (*trail, target))

        for module in graph:
            visit(module, (module,))
        self.assertNotIn("amigos.engine.state", graph["amigos.engine.notation"])
        self.assertNotIn("amigos.engine.match", graph["amigos.engine.scoresheet"])


class TerminationTests(unittest.TestCase):
    def test_a_match_reaching_its_target_ends_by_target(self) -> None:
        from amigos.engine import HandEnd, HandOutcome

        match = Match.new(A100, ["a", "b", "c", "d"], 0)
        self.assertIsNone(match.termination)
        outcome = HandOutcome(HandEnd.DOMINO, 0, 100, 0, (0, 50, 0, 50), (0, 100))
        match = match.finish_hand(finished(A100, 0, outcome))
        self.assertEqual(match.termination, Termination.TARGET)
        self.assertEqual(match.winner, 0)

    def test_a_match_can_stop_unfinished_and_then_takes_no_more_hands(self) -> None:
        from amigos.engine import HandEnd, HandOutcome

        match = Match.new(A100, ["a", "b", "c", "d"], 0)
        outcome = HandOutcome(HandEnd.DOMINO, 1, 20, 1, (10, 0, 10, 0), (20, 0))
        match = match.finish_hand(finished(A100, 0, outcome)).stop(Termination.ABANDONMENT, 2)
        self.assertTrue(match.is_over)
        self.assertEqual(
            (match.termination, match.offender, match.winner), (Termination.ABANDONMENT, 2, None)
        )
        self.assertEqual(match.score, (0, 20))
        with self.assertRaises(ValueError):
            match.finish_hand(finished(A100, 1, outcome))
        with self.assertRaises(ValueError):
            match.stop(Termination.SUSPENSION, 1)

    def test_target_is_not_a_way_to_stop(self) -> None:
        with self.assertRaises(ValueError):
            Match.new(A100, ["a", "b", "c", "d"], 0).stop(Termination.TARGET)


if __name__ == "__main__":
    unittest.main()
