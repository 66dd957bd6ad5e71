"""Lobby-level failures: the client gets its protocol's error reply and stays connected."""

from __future__ import annotations

import enum


class LobbyErrorKind(enum.Enum):
    ROOM_NOT_FOUND = "ROOM_NOT_FOUND"
    ROOM_FULL = "ROOM_FULL"
    RESERVATION_NOT_FOUND = "RESERVATION_NOT_FOUND"
    NON_MOVE = "NON_MOVE"
    NOT_A_MEMBER = "NOT_A_MEMBER"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    AUTH_FAILED = "AUTH_FAILED"
    AUTH_LOCKED = "AUTH_LOCKED"  # too many wrong passwords from the address: not checked
    LIMIT = "LIMIT"
    QUOTA = "QUOTA"  # rooms opened by unauthenticated joins: per address or in all
    BAD_REQUEST = "BAD_REQUEST"
    # No new matches for now: the store cannot write, so no result could be kept.
    STORE_FAILED = "STORE_FAILED"


class LobbyError(Exception):
    """A refused lobby or room request; `subject` is the room id, token or offending data."""

    def __init__(self, kind: LobbyErrorKind, subject: object = None, detail: str = "") -> None:
        super().__init__(f"{kind.value}: {subject!r} {detail}".strip())
        self.kind = kind
        self.subject = subject
        self.detail = detail
