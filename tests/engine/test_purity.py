"""The engine imports nothing but the standard library (and itself)."""

import ast
import pathlib
import sys
import unittest

import amigos.engine


def imported_modules(path: pathlib.Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


class PurityTests(unittest.TestCase):
    def test_standard_library_only(self) -> None:
        root = pathlib.Path(amigos.engine.__file__).parent
        files = sorted(root.rglob("*.py"))
        self.assertGreater(len(files), 10)
        for path in files:
            for line, module in imported_modules(path):
                top = module.split(".")[0]
                allowed = top in sys.stdlib_module_names or module.startswith("amigos.engine")
                with self.subTest(file=path.name, line=line, module=module):
                    self.assertTrue(allowed, f"{path.name}:{line} imports {module}")


if __name__ == "__main__":
    unittest.main()
