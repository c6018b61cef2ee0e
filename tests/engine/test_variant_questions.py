"""Rule questions go to the variant: no module outside ``amigos.engine.variants`` tests a family.

A comparison with ``Family.…`` or ``Scoring.…``, with a ``.family`` attribute, or an
``isinstance`` check against one of the variant classes, outside the variants package, is a rule
written in the wrong room: a new rule family would have to hunt for it. Ask the variant instead
(add a class attribute or a method to ``amigos/engine/variants/base.py`` and override it where the
family differs).
"""

from __future__ import annotations

import ast
import pathlib
import unittest

import amigos
import amigos.engine.variants as variants_package
from amigos.engine.variants import Variant

ROOT = pathlib.Path(amigos.__file__).parent
VARIANTS_DIR = pathlib.Path(variants_package.__file__).parent

#: Names whose members are family or scoring labels.
LABEL_ENUMS = frozenset({"Family", "Scoring"})
#: The variant classes of each family (``Variant`` itself is the type every variant has).
VARIANT_CLASSES = frozenset(
    name
    for name in variants_package.__all__
    if isinstance(getattr(variants_package, name), type)
    and issubclass(getattr(variants_package, name), Variant)
    and name != "Variant"
)

#: Branches still standing in modules another change is rewriting (the live table's actor and
#: the pure table model), with how many each may hold; each should ask the variant instead
#: (``deal_decides_first_leader``, ``amigos_conduct``). The count may only go down.
PENDING: dict[str, int] = {
    "web/tables/game.py": 1,
    "web/tables/timing.py": 1,
    "table/model.py": 1,
    "table/flow.py": 1,
}


def _names_label(node: ast.AST) -> bool:
    """Whether ``node`` is ``Family.X``/``Scoring.X``, ``<anything>.family``, or a tuple, list or
    set holding one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_label(element) for element in node.elts)
    if isinstance(node, ast.Attribute):
        if node.attr == "family":
            return True
        return isinstance(node.value, ast.Name) and node.value.id in LABEL_ENUMS
    return False


def _names_variant_class(node: ast.AST) -> bool:
    if isinstance(node, ast.Tuple):
        return any(_names_variant_class(element) for element in node.elts)
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name in VARIANT_CLASSES


def _is_branch(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        return any(_names_label(operand) for operand in (node.left, *node.comparators))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        checks_class = node.func.id in ("isinstance", "issubclass") and len(node.args) == 2
        return checks_class and _names_variant_class(node.args[1])
    if isinstance(node, ast.MatchValue):
        return _names_label(node.value)
    if isinstance(node, ast.MatchClass):
        return _names_variant_class(node.cls)
    return False


def family_branches(source: str, filename: str = "<source>") -> list[int]:
    """Line numbers in ``source`` that branch on a variant's family or scoring label."""
    tree = ast.parse(source, filename=filename)
    nodes = (node for node in ast.walk(tree) if isinstance(node, (ast.expr, ast.pattern)))
    return sorted({node.lineno for node in nodes if _is_branch(node)})


def branches_outside_variants() -> dict[str, list[int]]:
    """Every module of the package outside ``engine/variants``, with the lines that branch."""
    result: dict[str, list[int]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        if VARIANTS_DIR in path.parents:
            continue
        lines = family_branches(path.read_text(encoding="utf-8"), str(path))
        if lines:
            result[path.relative_to(ROOT).as_posix()] = lines
    return result


class DetectorTests(unittest.TestCase):
    """The detector itself: it must see every way of spelling a family branch."""

    def test_finds_family_and_scoring_comparisons(self) -> None:
        source = "\n".join(
            (
                "if variant.family is Family.CUBAN: pass",
                "if variant.family is not Family.DRAW: pass",
                "if variant.scoring in (Scoring.AMIGOS_100, Scoring.AMIGOS_200): pass",
                "ok = report.variant.family == 'cuban'",
                "ok = Scoring.HANDS_WON is not variant.scoring",
                "ok = isinstance(variant, CubanVariant)",
                "ok = isinstance(variant, (engine.DrawVariant, int))",
                "match variant.family:\n    case Family.AMIGOS: pass",
                "match variant:\n    case HandsWonVariant(): pass",
            )
        )
        self.assertEqual(family_branches(source), [1, 2, 3, 4, 5, 6, 7, 9, 11])

    def test_leaves_questions_to_the_variant_alone(self) -> None:
        source = "\n".join(
            (
                "if variant.breaks_tied_blocks and tie is not None: pass",
                "family = report.variant.family.value",
                "mapping = {Scoring.CUBAN: 1}",
                "ok = variant.scoring in SOLVER_SCORINGS",
                "ok = isinstance(variant, Variant)",
                "ok = table.variant == 'amigos-hands'",
            )
        )
        self.assertEqual(family_branches(source), [])

    def test_knows_every_variant_class(self) -> None:
        self.assertIn("CubanVariant", VARIANT_CLASSES)
        self.assertIn("HandsWonVariant", VARIANT_CLASSES)
        self.assertIn("FivesAndThreesVariant", VARIANT_CLASSES)
        self.assertNotIn("Variant", VARIANT_CLASSES)


class NoFamilyBranchTests(unittest.TestCase):
    def test_no_family_branch_outside_the_variants(self) -> None:
        found = branches_outside_variants()
        for module, lines in found.items():
            allowed = PENDING.get(module, 0)
            with self.subTest(module=module):
                self.assertLessEqual(
                    len(lines),
                    allowed,
                    f"{module} branches on a variant's family at line(s) {lines}: ask the variant "
                    "(amigos/engine/variants) instead",
                )

    def test_the_scan_sees_the_package(self) -> None:
        self.assertTrue((ROOT / "engine" / "match.py").is_file())
        self.assertTrue((VARIANTS_DIR / "base.py").is_file())
        self.assertGreater(len(list(ROOT.rglob("*.py"))), 100)


if __name__ == "__main__":
    unittest.main()
