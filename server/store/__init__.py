"""The store: sqlmodel tables, queries (`Store`), the batching writer and the migrations.

It takes and returns plain values (strings, ints, JSON-able dicts and lists) and never
imports the rooms: the rooms turn their events and results into these values.
"""

from server.store.engine import DEFAULT_URL, make_engine
from server.store.models import (
    Bot,
    FailureCategory,
    Match,
    MatchEvent,
    MatchStatus,
    Outcome,
    Result,
    Seat,
)
from server.store.store import (
    Conflict,
    JSONText,
    NewEvent,
    NewSeat,
    NotFound,
    Page,
    SeatOutcome,
    Store,
    StoreError,
    encode_json,
)
from server.store.writer import StoreWriteError, StoreWriter

__all__ = [
    "DEFAULT_URL",
    "Bot",
    "Conflict",
    "FailureCategory",
    "JSONText",
    "Match",
    "MatchEvent",
    "MatchStatus",
    "NewEvent",
    "NewSeat",
    "NotFound",
    "Outcome",
    "Page",
    "Result",
    "Seat",
    "SeatOutcome",
    "Store",
    "StoreError",
    "StoreWriteError",
    "StoreWriter",
    "encode_json",
    "make_engine",
]
