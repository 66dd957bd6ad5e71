"""The engine's modules import each other one way only (no cycles), and the card layer
(script types, DSL, card declarations, card data) never pulls in the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import games.hearth

PACKAGE = Path(games.hearth.__file__).parent


def _imports(path: Path, name: str) -> set[str]:
    """Modules of games.hearth that ``path`` imports (deferred imports inside functions too)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1])
            if node.module:
                found.add(f"{base}.{node.module}")
            else:
                found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return {name: _imports(path, name) & set(modules) for name, path in modules.items()}


def test_no_import_cycles() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(name):], name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_card_layer_does_not_load_the_engine() -> None:
    code = (
        "import sys\n"
        "from games.hearth.carddb import load_cards\n"
        "assert len(load_cards()) > 50\n"
        "engine = [m for m in ('games.hearth.game', 'games.hearth.core', 'games.hearth.history')"
        " if m in sys.modules]\n"
        "print(engine)\n"
    )
    # games.hearth/__init__ imports the engine, so load the submodules without it.
    prelude = (
        "import importlib.util, sys, types\n"
        f"pkg = types.ModuleType('games.hearth'); pkg.__path__ = [{str(PACKAGE)!r}]\n"
        "sys.modules['games.hearth'] = pkg\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent.parent,
    )
    assert out.stdout.strip() == "[]"
