"""The server's layers import one way (issue #25): the rooms know no game and nothing
above them, and no generic part of the server imports a game's package; each game is
reached through its plugin (`server.games.registry.GamePlugin`).

Imports inside functions count too (a deferred import is still a dependency); those under
`if TYPE_CHECKING:` do not (they exist for the type checker only).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import server

ROOT = Path(server.__file__).parent
GAME_PACKAGES = ("server.games.blokus", "server.games.hearth")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
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


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _under(
    n, "server.spectate", "server.api", "server.store", "server.rooms", "server.games.registry",
    "server.ladder", "server.worker", "server.launcher", "server.matches", "server.net",
    "server.runtime")))
def test_generic_modules_import_no_game_package(name: str) -> None:
    games = [m for m in imports(MODULES[name]) if _under(m, *GAME_PACKAGES)
             or _under(m, "games.blokus", "games.hearth")]
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


BOTS = ROOT.parent / "bots"


@pytest.mark.parametrize("path", sorted(BOTS.rglob("*.py")), ids=lambda p: str(
    p.relative_to(BOTS.parent)))
def test_the_bots_import_nothing_of_the_server(path: Path) -> None:
    """A bot kit is a client: it speaks the wire protocols and needs no server code (the
    series runner that launches bots is `server/series.py`)."""
    package = ".".join(path.relative_to(BOTS.parent).with_suffix("").parts[:-1])
    found = [m for m in imports(path, package) if _under(m, "server")]
    assert found == [], f"{path} imports {found}"
