"""docs/architecture.md is checked against the code: every module, file and name it points to in
backticks exists. A refactoring that moves a room (a rule, an actor's part) without telling the
map fails here instead of leaving the newcomer a wrong door."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

#: A dotted name in the project (`amigos.table.advance`, `amigos.web.tables.actor_decide`).
DOTTED = re.compile(r"`(amigos(?:\.[A-Za-z_]\w*)+)`")
#: A file of the project (`web/tables/actor_model.py`, `tables/storing.py`, `bench/load.py`).
FILE = re.compile(r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|md|json|toml|js|css|html))`")


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module, or an attribute of the longest module prefix of it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def _exists(path: str) -> bool:
    """Whether ``path`` is a file of the project, from its root, from ``src/amigos``, from
    ``src/amigos/web`` or from one of its apps (the doc names an app's static files from it)."""
    web = ROOT / "src" / "amigos" / "web"
    bases = [ROOT, ROOT / "src" / "amigos", web, *(app for app in web.iterdir() if app.is_dir())]
    return any((base / path).exists() for base in bases)


def test_every_module_and_name_the_architecture_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = sorted(set(DOTTED.findall(text)))
    assert names, "the doc names no module: the pattern is wrong"
    missing = [name for name in names if not _resolves(name)]
    assert missing == []


def test_every_file_the_architecture_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    paths = sorted(set(FILE.findall(text)))
    assert paths, "the doc names no file: the pattern is wrong"
    missing = [path for path in paths if not _exists(path)]
    assert missing == []
