"""Words written at import time must be lazy.

A module-level ``gettext`` call is translated once, in whatever language is active when the module
is first imported: the accounts page's mail messages stayed in English for every Spanish player
after the first request that imported the module was answered in English.
"""

from __future__ import annotations

import ast
from pathlib import Path

import amigos.web

WEB = Path(amigos.web.__file__).parent
EAGER = {"gettext", "ngettext", "pgettext", "npgettext"}
LAZY = {f"{name}_lazy" for name in EAGER}


def eager_names(tree: ast.Module, functions: set[str] = EAGER) -> set[str]:
    """The local names bound to Django's eager translation functions (or to ``functions``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            names |= {alias.asname or alias.name for alias in node.names if alias.name in functions}
    return names


def import_time_calls(tree: ast.Module, names: set[str], lazy: set[str] = frozenset()) -> list[int]:
    """Lines where one of ``names`` is called outside any function (at import, in a class body too),
    or where a lazy text (a call to one of ``lazy``) is %-formatted there, which translates it."""
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # Default values are evaluated at import; the body is not.
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    visit(default)
            if not isinstance(node, ast.Lambda):
                for decorator in node.decorator_list:
                    visit(decorator)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            found.append(node.lineno)
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Call)
            and isinstance(node.left.func, ast.Name)
            and node.left.func.id in lazy
        ):
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_no_module_translates_eagerly_at_import() -> None:
    offenders = []
    for path in sorted(WEB.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names, lazy = eager_names(tree), eager_names(tree, LAZY)
        offenders += [f"{path.relative_to(WEB)}:{line}" for line in import_time_calls(tree, names, lazy)]
    assert offenders == []


def test_the_check_sees_an_eager_call_in_a_dict_and_not_in_a_function() -> None:
    source = (
        "from django.utils.translation import gettext as _\n"
        "WORDS = {1: _('a')}\n"
        "def f():\n    return _('b')\n"
        "class C:\n    label = _('c')\n"
    )
    tree = ast.parse(source)
    assert import_time_calls(tree, eager_names(tree)) == [2, 6]


def test_the_check_sees_a_lazy_text_formatted_at_import() -> None:
    source = (
        "from django.utils.translation import gettext_lazy as _\n"
        "SEATS = [_('Computer (%(level)s)') % {'level': 'x'}]\n"
        "LABEL = _('plain')\n"
        "def f():\n    return _('b %(x)s') % {'x': 1}\n"
    )
    tree = ast.parse(source)
    assert import_time_calls(tree, eager_names(tree), eager_names(tree, LAZY)) == [2]
