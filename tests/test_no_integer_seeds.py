"""Property tests draw their randomness with st.randoms() or st.data(), never as an integer seed.

An integer drawn by hypothesis and fed to ``random.Random(seed)`` turns every later choice into an
opaque function of one number: a failing example cannot shrink (a smaller seed is not a simpler
deal), and the report says "seed=2871533" instead of showing the deal. This test reads the test
files and refuses, inside any ``@given`` test, a ``random.Random(x)``
whose argument is built from one of the test's own parameters.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
CHECKED = ("academy", "bots", "corpus", "engine_fast", "properties", "recreo", "referee", "web")


def _is_given(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Name) and target.id == "given"


def _is_random_random(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "Random"
        and isinstance(func.value, ast.Name)
        and func.value.id == "random"
    )


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _seeding_helpers(tree: ast.Module) -> dict[str, set[int]]:
    """Module functions that seed ``random.Random`` from a parameter: name -> those positions."""
    helpers: dict[str, set[int]] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        parameters = [arg.arg for arg in node.args.args]
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and _is_random_random(inner) and inner.args:
                used = _names(inner.args[0])
                helpers.setdefault(node.name, set()).update(
                    i for i, name in enumerate(parameters) if name in used
                )
    return {name: positions for name, positions in helpers.items() if positions}


def seeded_from_parameters(source: str) -> list[str]:
    """Inside @given tests: ``random.Random(...)`` built from a test parameter, directly or by
    handing the parameter to a helper of the same module that does it."""
    tree = ast.parse(source)
    helpers = _seeding_helpers(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(_is_given(d) for d in node.decorator_list):
            continue
        parameters = {arg.arg for arg in node.args.args}
        for inner in ast.walk(node):
            if not isinstance(inner, ast.Call):
                continue
            if _is_random_random(inner) and inner.args and _names(inner.args[0]) & parameters:
                found.append(f"{node.name} line {inner.lineno}: random.Random({ast.unparse(inner.args[0])})")
            elif isinstance(inner.func, ast.Name) and inner.func.id in helpers:
                for position in helpers[inner.func.id]:
                    if position < len(inner.args) and _names(inner.args[position]) & parameters:
                        found.append(
                            f"{node.name} line {inner.lineno}: {ast.unparse(inner)} seeds random.Random"
                        )
    return found


def test_the_check_finds_a_seeded_property_test() -> None:
    """Guard: the pattern this file forbids is recognised (so an empty result means something)."""
    source = (
        "@given(st.integers())\n"
        "def test_x(seed):\n"
        "    rng = random.Random(seed + 1)\n"
        "@given(st.randoms())\n"
        "def test_y(rng):\n"
        "    other = random.Random(0)\n"
        "def deal(name, seed):\n"
        "    return random.Random(seed)\n"
        "@given(st.integers())\n"
        "def test_z(n):\n"
        "    deal('amigos', n)\n"
    )
    assert seeded_from_parameters(source) == [
        "test_x line 3: random.Random(seed + 1)",
        "test_z line 11: deal('amigos', n) seeds random.Random",
    ]


@pytest.mark.parametrize("area", CHECKED)
def test_no_property_test_seeds_random_from_a_drawn_integer(area: str) -> None:
    files = sorted((TESTS / area).rglob("*.py"))
    assert files
    found = []
    for path in files:
        found += [f"{path.relative_to(TESTS)}: {hit}" for hit in seeded_from_parameters(path.read_text())]
    assert found == []
