"""The store's split (issue #25): the query API (`server/store/store.py`) builds no SQL text,
and the SQL fast path (`server/store/fastpath.py`) imports nothing of the query API.

Read from the sources with `ast`, not by importing: importing any `server.store.*` module
runs the package's `__init__`, which imports the query API anyway.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

STORE = Path(__file__).resolve().parents[3] / "server" / "store"

SQL_WORD = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|VALUES|SAVEPOINT|ROLLBACK|RELEASE|"
                      r"BEGIN|COMMIT|PRAGMA|VACUUM|WHERE|FROM|INTO|SET)\b")
"""Upper case only: the messages and docstrings say "update" and "from" in prose."""

WHOLE_STATEMENTS = {"VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"}
"""SQLite maintenance the query API runs as it is (`Store.vacuum`, `Store.probe`): fixed
text, nothing built."""

QUERY_API = "server.store.store"


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that stand as statements (docstrings)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def _imported(tree: ast.Module, package: str) -> set[str]:
    """The modules `tree` imports (relative imports resolved against `package`)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base]) if base else ".".join(parts)
            found.add(base)
            # `from server.store import store` imports the module `server.store.store`
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _source(module: str) -> Path | None:
    """The file of a module under server/store (None for other modules and packages)."""
    if not module.startswith("server.store."):
        return None
    path = STORE / f"{module.removeprefix('server.store.').replace('.', '/')}.py"
    return path if path.is_file() else None


def test_the_query_api_builds_no_sql_text() -> None:
    tree = _tree(STORE / "store.py")
    docstrings = _docstrings(tree)
    built: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value for part in node.values
                           if isinstance(part, ast.Constant) and isinstance(part.value, str))
            if SQL_WORD.search(text):
                built.append(f"line {node.lineno}: f-string {text!r}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and SQL_WORD.search(node.value)
              and node.value not in WHOLE_STATEMENTS):
            built.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Attribute) and node.attr in {
                "do_execute", "do_executemany", "exec_driver_sql", "text"}:
            built.append(f"line {node.lineno}: .{node.attr}")
    assert not built, "SQL text in the query API (it belongs in server/store/fastpath.py):\n" \
        + "\n".join(built)


def test_the_fast_path_imports_nothing_of_the_query_api() -> None:
    """Nor does anything it imports from server/store (errors, records, models, ...)."""
    seen: set[str] = set()
    todo = ["server.store.fastpath"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _source(module)
        if path is None:
            continue
        imported = _imported(_tree(path), "server.store")
        assert QUERY_API not in imported, f"{module} imports the query API"
        assert "server.store" not in imported, \
            f"{module} imports the package server.store, whose __init__ is the query API"
        todo.extend(imported)
    assert {"server.store.errors", "server.store.records"} <= seen


@pytest.mark.parametrize("name", [
    # what server/, tests/ and bench/ import from server.store.store, and what
    # server/store/__init__.py re-exports from it
    "Conflict", "JSONText", "NewEvent", "NewSeat", "NotFound", "Page", "Pruned",
    "SeatOutcome", "Store", "StoreError", "TransactionLost", "encode_json",
    "dispatched",
])
def test_the_names_moved_out_are_still_importable_from_the_query_api(name: str) -> None:
    import server.store
    import server.store.store as query_api

    value = getattr(query_api, name)
    if name in server.store.__all__:
        assert getattr(server.store, name) is value
