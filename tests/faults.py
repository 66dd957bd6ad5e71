"""Failing on purpose: the database refuses writes while a test says so; a disk fills.

Every statement reaches the driver through the dialect's `do_execute` (or
`do_executemany`): SQLAlchemy's own executions and the store's writer thread, which runs its
statements on the DBAPI cursor (`server.store.fastpath.execute`). So the refusal is put there,
on the engine's dialect, where both pass.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

Check = Callable[[str], None]
"""Called with each statement's SQL before the driver runs it; raises to refuse it."""


@contextmanager
def checked_statements(engine: Engine, check: Check) -> Iterator[None]:
    """Run `check` on every statement `engine` sends to its driver inside the block."""
    dialect = engine.dialect
    names = ("do_execute", "do_executemany", "do_execute_no_params")
    originals = {name: getattr(dialect, name) for name in names}

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def checked(cursor: Any, statement: str, *args: Any, **kwargs: Any) -> Any:
            check(statement)
            return original(cursor, statement, *args, **kwargs)
        return checked

    for name, original in originals.items():
        setattr(dialect, name, wrap(original))
    try:
        yield
    finally:
        for name in names:
            delattr(dialect, name)  # the class's methods again


def fill_disk(folder: Path, byte: bytes = b"\0") -> Path:
    """Take every free block of `folder`'s filesystem with one file, and return it."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        chunk = byte * 65536
        while True:
            try:
                f.write(chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                if len(chunk) == 1:
                    break
                chunk = chunk[: len(chunk) // 2]  # down to the last byte that fits
    return filler
