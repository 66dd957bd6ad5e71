"""The store's exceptions.

Apart from `store.py` so that the raw-SQL fast path (`server.store.fastpath`) can raise
them without importing the query API; `server.store.store` re-exports every one.
"""

from __future__ import annotations


class StoreError(Exception):
    """Something the store refused or could not do."""


class NotFound(StoreError):
    """The row a call needs does not exist."""


class Conflict(StoreError):
    """The call contradicts what is stored (a taken bot name, a match already over)."""


class TransactionLost(StoreError):
    """A group's transaction is gone: the database rolled it back itself (SQLite does on a
    full disk) and nothing of the group is stored. `__cause__` is the error that did it."""
