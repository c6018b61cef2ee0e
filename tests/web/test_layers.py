"""The web layer's parts form layers, with no import cycle among them (issue 37, item 4).

A play's store once reached moderation (the ladder), which reached accounts, inside the play's
transaction, and the lobby, moderation, the tables and the socket layer imported each other round
in circles. Now each app imports only those below it, and hears of those above through what they
register when the site starts. import-linter's layers contract (pyproject.toml) enforces the order;
these tests check that the contract covers every part of `amigos.web`, that it would fail on a
cycle, and that no cycle hides between parts it does not order (the composition root).
"""

from __future__ import annotations

import copy
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.contracts.layers import LayersContract

import amigos.web

ROOT = Path(__file__).resolve().parents[2]
WEB = Path(amigos.web.__file__).resolve().parent
# Loaded by name (DJANGO_SETTINGS_MODULE), imported by nothing: outside the layers.
UNLAYERED = {"settings"}


def _contract_options() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [
        contract
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers" and contract.get("containers") == ["amigos.web"]
    ]
    assert len(found) == 1, "one layers contract orders amigos.web"
    return found[0]


def _contract() -> LayersContract:
    options = _contract_options()
    return LayersContract(
        name=options["name"],
        session_options={"root_packages": ["amigos"], "include_external_packages": False},
        contract_options={key: value for key, value in options.items() if key not in ("name", "type")},
    )


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("amigos", include_external_packages=False, cache_dir=None)


def _parts() -> set[str]:
    """Every package and module directly under amigos.web (what the layers must place)."""
    packages = {path.parent.name for path in WEB.glob("*/__init__.py")}
    modules = {path.stem for path in WEB.glob("*.py") if path.stem != "__init__"}
    return packages | modules


def test_the_layers_place_every_part_of_the_web_layer() -> None:
    layered: set[str] = set()
    for layer in _contract_options()["layers"]:
        for separator in ("|", ":"):
            layer = layer.replace(separator, " ")
        layered.update(layer.split())
    assert layered == _parts() - UNLAYERED


def test_the_contract_holds(graph: grimp.ImportGraph) -> None:
    assert _contract().check(copy.deepcopy(graph), verbose=False).kept


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("amigos.web.tables.store", "amigos.web.moderation.services"),  # the store reaching the ladder
        ("amigos.web.realtime.consumer", "amigos.web.lobby.presence"),  # the socket reaching presence
        ("amigos.web.lobby.chat", "amigos.web.moderation.flood"),  # the chat reaching moderation
        ("amigos.web.accounts.admin", "amigos.web.moderation.services"),  # accounts reaching up
        ("amigos.web.operations.metrics", "amigos.web.realtime.commands"),  # the figures reaching up
        ("amigos.web.archive.views", "amigos.web.events.models"),  # two siblings
    ],
)
def test_the_contract_fails_on_an_import_that_closes_a_cycle(
    graph: grimp.ImportGraph, importer: str, imported: str
) -> None:
    tampered = copy.deepcopy(graph)
    tampered.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    assert not _contract().check(tampered, verbose=False).kept


def _cycles(graph: grimp.ImportGraph) -> list[str]:
    """The parts of amigos.web that reach themselves through the others' imports."""
    edges: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        names = module.split(".")
        if names[:2] != ["amigos", "web"] or len(names) < 3:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            other = imported.split(".")
            if other[:2] == ["amigos", "web"] and len(other) >= 3 and other[2] != names[2]:
                edges[names[2]].add(other[2])
    looping = []
    for start in sorted(edges):
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            part = stack.pop()
            if part not in seen:
                seen.add(part)
                stack.extend(edges.get(part, ()))
        if start in seen:
            looping.append(start)
    return looping


def test_no_part_of_the_web_layer_imports_itself_round_a_cycle(graph: grimp.ImportGraph) -> None:
    assert _cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle(graph: grimp.ImportGraph) -> None:
    tampered = copy.deepcopy(graph)
    tampered.add_import(
        importer="amigos.web.accounts.models",
        imported="amigos.web.tables.models",
        line_number=1,
        line_contents="import",
    )
    assert "accounts" in _cycles(tampered)
