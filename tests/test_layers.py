"""The floors of tb_playground hold: every import runs down, never up (issue 18).

engine <- models <- table <- (service, lab) <- views <- apps, with ``formatting`` and ``texts`` at
the bottom where every floor may use them. The walk reads every module's source (``ast``), the
imports inside functions included, so a lazy import cannot hide an arrow running up.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tb_playground"

#: Each room of the package and its floor; a module belongs to the longest room name that
#: prefixes it. A room may import itself, any room on a lower floor (but not its sideways
#: neighbours on its own floor), and the bottom floor (0) always.
FLOORS = {
    "tb_playground": 0,  # the package's __init__: its version and the rule texts
    "tb_playground.formatting": 0,
    "tb_playground.texts": 0,
    "tb_playground.engine": 1,
    "tb_playground.models": 2,
    "tb_playground.table": 3,
    "tb_playground.service": 4,
    "tb_playground.lab": 4,
    "tb_playground.views": 5,
    # plays the live table under the lab's policies (issue 32, item 17): above both, and no
    # page imports it (a sideways neighbour of views)
    "tb_playground.table_played": 5,
    "tb_playground.serve_setup": 6,  # the server's start-up hook, beside apps/
    "tb_playground.pages": 6,  # the page files the server runs (apps/*.py run the same)
    "tb_playground.__main__": 7,  # `tb-playground serve`: the pages, the setup, Panel's server
}

#: Top-level modules that belong to a room (listed by name: move one, update its line).
ROOM_OF = {}

#: Rooms below a room that it still may not import: the lab reads plain records, never the
#: live table.
NOT_BELOW = {"tb_playground.lab": {"tb_playground.table"}}

#: Drawing and page libraries the lower floors never import (param is fine from models up).
PAGE_LIBRARIES = ("panel", "bokeh", "holoviews")
NO_PAGE_LIBRARIES = ("tb_playground.engine", "tb_playground.models", "tb_playground.table")
NO_PAGE_LIBRARIES += ("tb_playground.lab",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> set[str]:
    """Every module ``module`` imports, anywhere in its source (absolute names)."""
    return set(_imports_of(module, MODULES[module]))


@cache
def _imports_of(module: str, path: Path) -> frozenset[str]:
    """``_imports`` of the file at ``path``, read once per run."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module
            out.add(target)
            # ``from tb_playground import formatting`` imports a module, not a name.
            out.update(
                f"{target}.{alias.name}"
                for alias in node.names
                if f"{target}.{alias.name}" in MODULES
            )
    return frozenset(out)


def _room(module: str) -> str | None:
    for top, room in ROOM_OF.items():
        if module == top or module.startswith(top + "."):
            return room
    rooms = [r for r in FLOORS if module == r or module.startswith(r + ".")]
    return max(rooms, key=len) if rooms else None


def _upward_arrows() -> list[tuple[str, str]]:
    arrows = []
    for module in MODULES:
        room = _room(module)
        for target in _imports(module):
            if not target.startswith("tb_playground"):
                continue
            to = _room(target)
            if to in (room, None) or FLOORS[to] == 0:
                continue
            if FLOORS[to] < FLOORS[room] and to not in NOT_BELOW.get(room, ()):
                continue
            arrows.append((module, target))
    return sorted(arrows)


def test_every_module_has_a_floor():
    assert not [m for m in MODULES if _room(m) is None]
    named = [*FLOORS, *ROOM_OF]
    assert all(m in MODULES for m in named), "a name in FLOORS or ROOM_OF is no module: update it"


def test_no_import_runs_up_or_sideways():
    arrows = _upward_arrows()
    assert not arrows, "imports that run up, sideways or into NOT_BELOW:\n" + "\n".join(
        f"  {m} -> {t}" for m, t in arrows
    )


def test_engine_imports_only_itself_and_the_bottom_floor():
    for module in MODULES:
        if _room(module) != "tb_playground.engine":
            continue
        ours = {t for t in _imports(module) if t.startswith("tb_playground")}
        assert {_room(t) for t in ours} <= {
            "tb_playground",
            "tb_playground.engine",
            "tb_playground.formatting",
            "tb_playground.texts",
        }, module


def test_formatting_imports_nothing_of_ours():
    assert not {t for t in _imports("tb_playground.formatting") if t.startswith("tb_playground")}


def test_nothing_imports_apps():
    for module in MODULES:
        assert not {t for t in _imports(module) if t == "apps" or t.startswith("apps.")}, module


@pytest.mark.parametrize("room", NO_PAGE_LIBRARIES)
def test_lower_floors_import_no_page_library(room):
    for module in MODULES:
        if _room(module) != room:
            continue
        found = {t.split(".")[0] for t in _imports(module)} & set(PAGE_LIBRARIES)
        assert not found, f"{module} imports {found}"


def test_the_engine_imports_no_param():
    for module in MODULES:
        if _room(module) == "tb_playground.engine":
            assert "param" not in {t.split(".")[0] for t in _imports(module)}, module


def test_the_walk_sees_imports_inside_functions(tmp_path, monkeypatch):
    # A lazy import is still an arrow: the walk reads function bodies too.
    fake = tmp_path / "tb_playground" / "engine" / "lazy.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("def f():\n    from ..models import names\n    return names\n")
    monkeypatch.setitem(MODULES, "tb_playground.engine.lazy", fake)
    assert "tb_playground.models" in _imports("tb_playground.engine.lazy")
    assert ("tb_playground.engine.lazy", "tb_playground.models") in _upward_arrows()


def _module_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports.

    ``from . import x`` names the package a module sits in only to reach ``x``: that package
    (an ancestor, already being imported) is no arrow.
    """
    return {
        m: {t for t in _imports(m) if t in MODULES and t != m and not m.startswith(t + ".")}
        for m in MODULES
    }


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan, no recursion)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_modules_import_each_other_round_a_circle():
    """Issue 30: a circle (inside one package too) means an import order that must be just so."""
    circles = _circles(_module_graph())
    assert not circles, "modules that import each other round a circle:\n" + "\n".join(
        "  " + " -> ".join(c) for c in circles
    )


def test_the_circle_finder_finds_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def _private_imports() -> list[tuple[str, str]]:
    """(module, name) for each private name it takes from another module of the package."""
    found = []
    for module, path in MODULES.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if not target.startswith("tb_playground") or target == module:
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{target}.{alias.name}" not in MODULES:
                    found.append((module, f"{target}.{alias.name}"))
    return found


def test_no_private_name_is_imported_from_another_module():
    """Issue 30: what two modules share is public in the one that holds it."""
    found = _private_imports()
    assert not found, "private names imported across modules:\n" + "\n".join(
        f"  {m} takes {name}" for m, name in found
    )
