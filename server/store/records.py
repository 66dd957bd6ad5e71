"""The plain values the store takes and hands back besides its rows: seats and events to
write, seat outcomes, pages of listings, what a prune did.

Apart from `store.py` so that the raw-SQL fast path (`server.store.fastpath`), which writes
`NewEvent`s, needs nothing of the query API; `server.store.store` re-exports every one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from server.store.models import FailureCategory, Outcome, utcnow

T = TypeVar("T")


@dataclass(frozen=True)
class NewSeat:
    """A seat of a match being created; seats are numbered in the order given."""

    display_name: str = ""
    bot_id: int | None = None
    reservation: str | None = None


class JSONText(str):
    """An event payload encoded as JSON already (`encode_json`): SQLite stores the text as
    it is. The writer thread renders events as text and can reuse the text of a payload
    that recurs (a decision request's), instead of encoding it again for every row."""


encode_json: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON, the way event payloads are stored."""


@dataclass(slots=True)
class NewEvent:
    """One event of a match log as the store takes it: plain values only (the payload
    may be `JSONText`). Not frozen: two are made for every move, and a frozen dataclass
    costs four times as much to make; nothing changes one once it is queued."""

    match_id: str
    seq: int
    kind: str
    payload: Any = field(default_factory=dict)
    time: datetime = field(default_factory=utcnow)


@dataclass(frozen=True)
class SeatOutcome:
    """How a match went for one seat; written with the result."""

    index: int
    outcome: Outcome | str
    score_parts: list[Any] | None = None
    failure: FailureCategory | str | None = None
    detail: str = ""


@dataclass
class Pruned:
    """What `Store.prune` did: matches whose events it dropped, matches it deleted."""

    dropped: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a listing and the number of rows all pages hold together."""

    items: list[T]
    total: int
    limit: int
    offset: int
