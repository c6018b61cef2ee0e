"""Property tests draw their randomness with st.randoms() or st.data(), never as an integer seed.

An integer drawn by hypothesis and fed to ``random.Random(seed)`` turns every later choice into an
opaque function of one number: a failing example cannot shrink (a smaller seed is not a simpler
deal), and the report says "seed=2871533" instead of showing the deal. This test reads every test
file under tests/ and refuses, inside any ``@given`` test, a value drawn by hypothesis (a test
parameter, or ``data.draw(...)`` of anything but ``st.randoms()``) that reaches ``random.Random``:
directly, or through a function that seeds ``random.Random`` from one of its parameters, whether
that function is in the same file, in another test module or in ``amigos`` itself (followed through
``from ... import`` and through helpers that hand the value on, e.g. ``record_obj(seed=...)`` →
``simulate_match`` → ``random.Random(seed)``). A drawn ``random.Random`` (st.randoms()) handed to
such a function is fine: ``simulate_match`` accepts one in place of a seed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).parent
ROOTS = {"tests": TESTS, "amigos": TESTS.parent / "src" / "amigos"}


def _is_given(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Name) and target.id == "given"


def _is_random_random(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "Random"
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "Random"
        and isinstance(func.value, ast.Name)
        and func.value.id == "random"
    )


def _is_randoms(node: ast.expr) -> bool:
    """``st.randoms(...)`` or ``randoms(...)``: a strategy whose values are generators, not seeds."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "randoms"


def _names(node: ast.AST, tainted: set[str]) -> set[str]:
    """The tainted names an expression reads, leaving out ``x.draw(st.randoms())`` (a generator)."""
    found: set[str] = set()

    def visit(inner: ast.AST) -> None:
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "draw"
            and inner.args
            and _is_randoms(inner.args[0])
        ):
            return
        if isinstance(inner, ast.Name) and inner.id in tainted:
            found.add(inner.id)
        for child in ast.iter_child_nodes(inner):
            visit(child)

    visit(node)
    return found


def _spread(function: ast.FunctionDef | ast.AsyncFunctionDef, tainted: set[str]) -> set[str]:
    """``tainted`` plus every local name assigned (at any depth) from a tainted expression."""
    tainted = set(tainted)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value is not None:
                if not _names(node.value, tainted):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in tainted:
                            tainted.add(name.id)
                            changed = True
    return tainted


@dataclass
class Module:
    """One parsed module: its functions and where its imported names come from."""

    name: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # local -> (module, name)

    @classmethod
    def parse(cls, name: str, source: str, is_package: bool = False) -> Module:
        module = cls(name, ast.parse(source))
        package = name if is_package else name.rpartition(".")[0]
        for node in module.tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                module.functions[node.name] = node
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in node.names:
                    module.imports[alias.asname or alias.name] = (base, alias.name)
        return module


class Seeders:
    """Which parameters of which functions end in ``random.Random(...)``, across modules."""

    def __init__(self) -> None:
        self._modules: dict[str, Module | None] = {}
        self._seeding: dict[tuple[str, str], set[int]] = {}

    def add(self, module: Module) -> None:
        self._modules[module.name] = module

    def module(self, name: str) -> Module | None:
        if name not in self._modules:
            self._modules[name] = None
            top, _, rest = name.partition(".")
            root = ROOTS.get(top)
            if root is not None:
                path = root.joinpath(*rest.split(".")) if rest else root
                for candidate, package in ((path.with_suffix(".py"), False), (path / "__init__.py", True)):
                    if candidate.is_file():
                        self._modules[name] = Module.parse(name, candidate.read_text(), package)
                        break
        return self._modules[name]

    def resolve(
        self, module: Module, call: ast.Call
    ) -> tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef] | None:
        if not isinstance(call.func, ast.Name):
            return None
        name = call.func.id
        if name in module.functions:
            return module, module.functions[name]
        if name in module.imports:
            source, original = module.imports[name]
            other = self.module(source)
            if other is not None:
                if original in other.functions:
                    return other, other.functions[original]
                if original in other.imports:  # re-exported by a package's __init__
                    again = self.module(other.imports[original][0])
                    inner = other.imports[original][1]
                    if again is not None and inner in again.functions:
                        return again, again.functions[inner]
        return None

    def seeding(self, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
        """Positions of ``function``'s parameters whose value reaches ``random.Random``."""
        key = (module.name, function.name)
        if key in self._seeding:
            return self._seeding[key]
        self._seeding[key] = set()  # a recursive call seeds nothing more than what is found here
        parameters = [
            arg.arg for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
        ]
        positions: set[int] = set()
        for index, parameter in enumerate(parameters):
            if self.reaches(module, function, {parameter}):
                positions.add(index)
        self._seeding[key] = positions
        return positions

    def reaches(
        self, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, start: set[str]
    ) -> list[str]:
        """Where a value held in ``start`` (or computed from it) reaches ``random.Random``."""
        tainted = _spread(function, start)
        parents = {child: node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
        found = []
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            if _is_random_random(node):
                if node.args and _names(node.args[0], tainted - _loop_names(node, parents)):
                    found.append(f"line {node.lineno}: random.Random({ast.unparse(node.args[0])})")
                continue
            target = self.resolve(module, node)
            if target is None:
                continue
            callee_module, callee = target
            positions = self.seeding(callee_module, callee)
            if not positions:
                continue
            names = [
                arg.arg for arg in [*callee.args.posonlyargs, *callee.args.args, *callee.args.kwonlyargs]
            ]
            passed = [(i, a) for i, a in enumerate(node.args) if not isinstance(a, ast.Starred)]
            passed += [(names.index(k.arg), k.value) for k in node.keywords if k.arg in names]
            if any(i in positions and _names(value, tainted) for i, value in passed):
                found.append(f"line {node.lineno}: {ast.unparse(node)} seeds random.Random")
        return found


def _loop_names(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> set[str]:
    """Names bound by the comprehensions around ``node``: ``random.Random(seed * 16 + seat) for seat
    in ...`` reads the loop's own ``seat``, not a same-named variable of the function."""
    names: set[str] = set()
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            for generator in node.generators:
                names |= {n.id for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
    return names


def _drawn_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters hypothesis fills, less those drawn from ``st.randoms()``."""
    parameters = [arg.arg for arg in function.args.args]
    drawn = set(parameters)
    for decorator in function.decorator_list:
        if not (_is_given(decorator) and isinstance(decorator, ast.Call)):
            continue
        # Positional strategies fill the rightmost parameters; keywords name theirs.
        for parameter, strategy in zip(
            parameters[len(parameters) - len(decorator.args) :], decorator.args, strict=True
        ):
            if _is_randoms(strategy):
                drawn.discard(parameter)
        for keyword in decorator.keywords:
            if keyword.arg and _is_randoms(keyword.value):
                drawn.discard(keyword.arg)
    return drawn


def seeded_from_parameters(
    source: str, name: str = "tests.checked", seeders: Seeders | None = None
) -> list[str]:
    """Inside @given tests: ``random.Random(...)`` built from a drawn value, directly or by handing
    it to a function (of this module or an imported one) that does it."""
    seeders = seeders or Seeders()
    module = Module.parse(name, source)
    seeders.add(module)
    found = []
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(_is_given(d) for d in node.decorator_list):
            continue
        found += [f"{node.name} {hit}" for hit in seeders.reaches(module, node, _drawn_parameters(node))]
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
        "    simulate_match(variant, rng)\n"
        "def deal(name, seed):\n"
        "    return random.Random(seed)\n"
        "@given(st.integers())\n"
        "def test_z(n):\n"
        "    deal('amigos', n)\n"
        "@given(st.data())\n"
        "def test_w(data):\n"
        "    record = record_obj('amigos-100', seed=data.draw(st.integers(0, 10)), hands=2)\n"
        "    seed = data.draw(st.integers())\n"
        "    simulate_match(variant, seed)\n"
        "    simulate_match(variant, data.draw(st.randoms()))\n"
        "    record_obj('amigos-100', seed=3)\n"
    )
    imports = (
        "from amigos.engine.simulate import simulate_match\n"
        "from tests.web.archive.records import record_obj\n"
    )
    assert seeded_from_parameters(imports + source) == [
        "test_x line 5: random.Random(seed + 1)",
        "test_z line 14: deal('amigos', n) seeds random.Random",
        "test_w line 17: record_obj('amigos-100', seed=data.draw(st.integers(0, 10)), hands=2)"
        " seeds random.Random",
        "test_w line 19: simulate_match(variant, seed) seeds random.Random",
    ]


def test_no_property_test_seeds_random_from_a_drawn_integer() -> None:
    """Every test file, engine, table and rating included."""
    seeders = Seeders()
    files = sorted(TESTS.rglob("*.py"))
    assert len(files) > 100
    found = []
    for path in files:
        parts = path.relative_to(TESTS).with_suffix("").parts
        name = ".".join(("tests", *(parts[:-1] if parts[-1] == "__init__" else parts)))
        source = path.read_text()
        found += [
            f"{path.relative_to(TESTS)}: {hit}" for hit in seeded_from_parameters(source, name, seeders)
        ]
    assert found == []
