"""The server's layers import one way (issue #25): the rooms know no game and nothing
above them, and no generic part of the server imports a game's package; each game is
reached through its plugin (`server.games.registry.GamePlugin`).

Imports inside functions count too (a deferred import is still a dependency); those under
`if TYPE_CHECKING:` do not (they exist for the type checker only).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import server

ROOT = Path(server.__file__).parent
GAME_PACKAGES = ("server.games.blokus", "server.games.hearth")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    parts = name.split(".")
    path = ROOT.parent.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"))


def _package(path: Path) -> str:
    return _module(path) if path.name == "__init__.py" else _module(path).rsplit(".", 1)[0]


def imports(path: Path, package: str | None = None) -> set[str]:
    """The absolute module names `path` (of `package`: relative imports start there; by
    default its place under `server/`) imports, outside `if TYPE_CHECKING:` blocks."""
    found: set[str] = set()
    package = _package(path) if package is None else package
    stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while stack:
        node = stack.pop()
        if _type_checking(node):
            assert isinstance(node, ast.If)
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names]
            found.update(names)
            # `from server.api import ladder` needs the module server.api.ladder (its
            # package's __init__ runs first in any case); `from x import name` needs x.
            if not all(_is_module(n) for n in names):
                found.add(module)
        stack.extend(ast.iter_child_nodes(node))
    return found


MODULES = {_module(path): path for path in ROOT.rglob("*.py")}


def _under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _under(n, "server.rooms")))
def test_the_rooms_import_nothing_above_them(name: str) -> None:
    # The registry is the rooms' contract with the games (it imports `server.rooms.game`
    # alone): a lobby without one given loads the installed games.
    above = [m for m in imports(MODULES[name]) if _under(m, "server")
             and not _under(m, "server.rooms", "server.games.registry")]
    assert above == [], f"{name} imports {above}"


GAME_MODULES = ("games.blokus", "games.hearth", "bots.blokus", "bots.hearth",
                "protocols.sc.blokus")
"""The two games' rules, bot kits and SC dialect: reached through their plugins only."""


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not _under(n, *GAME_PACKAGES)))
def test_generic_modules_import_no_game_package(name: str) -> None:
    games = [m for m in imports(MODULES[name]) if _under(m, *GAME_PACKAGES, *GAME_MODULES)]
    assert games == [], f"{name} imports {games}"


def test_the_check_sees_deferred_imports_and_skips_type_checking_blocks(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from server.games.registry import GamePlugin\n"
                     "def f():\n    from ..games.blokus import PLUGIN\n",
                     encoding="utf-8")
    found = imports(probe, "server.rooms")
    assert {"server.games.blokus", "server.games.blokus.PLUGIN"} <= found
    assert "server.games.registry" not in found


@functools.cache
def _dependencies() -> dict[str, set[str]]:
    """Each server module's server modules (an import of a name inside a module counts as
    that module)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        found = set()
        for module in imports(path):
            while module not in MODULES and "." in module:
                module = module.rsplit(".", 1)[0]
            if module in MODULES and module != name:
                found.add(module)
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_in_the_server() -> None:
    assert _cycles(_dependencies()) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


LAYERS: tuple[tuple[str, ...], ...] = (
    ("server", "server.settings", "server.config"),
    ("server.rooms", "server.games.registry"),
    ("server.net", "server.store", "server.launcher", "server.spectate"),
    ("server.stored_events", "server.recorder", "server.matches", "server.startup",
     "server.series", "server.games", "server.positions", "server.ask"),
    ("server.host",),
    ("server.ladder", "server.sprt", "server.worker", "server.api"),
    ("server.runtime",),
    ("server.commands", "server.cli"),
)
"""The server's layers, lowest first (docs/design.md): a module imports its own layer and
those below. The match host plays matches; the ladder, the workers and the API use one;
the runtime puts them together; the command line starts it."""


def _layer(name: str) -> int:
    best = max(((len(p), i) for i, layer in enumerate(LAYERS) for p in layer
                if _under(name, p)), default=None)
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[1]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_higher_layer(name: str) -> None:
    mine = _layer(name)
    above = sorted(m for m in _dependencies()[name] if _layer(m) > mine)
    assert above == [], f"{name} (layer {mine}) imports {above}"


BOTS = ROOT.parent / "bots"


@pytest.mark.parametrize("path", sorted(BOTS.rglob("*.py")), ids=lambda p: str(
    p.relative_to(BOTS.parent)))
def test_the_bots_import_nothing_of_the_server(path: Path) -> None:
    """A bot kit is a client: it speaks the wire protocols and needs no server code (the
    series runner that launches bots is `server/series.py`)."""
    package = ".".join(path.relative_to(BOTS.parent).with_suffix("").parts[:-1])
    found = [m for m in imports(path, package) if _under(m, "server")]
    assert found == [], f"{path} imports {found}"
