"""The machinery every Gauntlet wire codec shares: errors, limits, and the h11-style verbs.

A codec is a small state machine that never touches a socket (the "sans-I/O" style of h11
and websockets). The I/O layer does three things with it:

- ``receive_data(data)`` hands it bytes read from the peer (``b""`` means end of file);
- ``next_event()`` is called until it returns ``NEED_DATA``; every other return value is a
  message from the peer or one of the two end events (``StreamEnd``, ``ConnectionClosed``);
- ``send(message)`` returns the bytes to write for one outgoing message.

Errors come in two kinds, as in h11: ``ProtocolError`` means the *remote peer* broke the
protocol (the caller answers in the protocol's own way and drops the connection);
``LocalProtocolError`` means *our* caller misused the codec (a bug on our side). Once
``ProtocolError`` was raised, the connection is in an error state and refuses further use:
every later call raises ``ProtocolError`` again, so a careless caller cannot keep reading
garbage.

>>> from protocols.base import Limits
>>> Limits().max_message_bytes
262144
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = [
    "NEED_DATA",
    "ConnectionClosed",
    "LimitExceeded",
    "Limits",
    "LocalProtocolError",
    "NeedData",
    "ProtocolError",
    "SansIOConnection",
    "StreamEnd",
]


class ProtocolError(Exception):
    """The remote peer broke the protocol; ``reason`` says how, in a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LimitExceeded(ProtocolError):
    """The peer sent more than a ``Limits`` field allows (size, nesting, buffered bytes)."""


class LocalProtocolError(Exception):
    """Our own caller misused the codec (for example: ``send`` after ``close``)."""


class NeedData(enum.Enum):
    """Type of the ``NEED_DATA`` sentinel (an enum so that type checkers can narrow it)."""

    NEED_DATA = "NEED_DATA"

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA = NeedData.NEED_DATA
"""Returned by ``next_event()`` when no complete event is buffered yet."""


@dataclass(frozen=True)
class StreamEnd:
    """The peer closed its side of the stream in-band (SC: ``</protocol>``)."""


@dataclass(frozen=True)
class ConnectionClosed:
    """The transport reached end of file (``receive_data(b"")``).

    ``truncated`` is true when bytes of an unfinished message were thrown away: the peer
    hung up in the middle of a message.
    """

    truncated: bool = False


@dataclass(frozen=True)
class Limits:
    """Caps on what a peer may make us hold in memory.

    ``max_message_bytes``: one message, from its first to its last byte, checked while it
    is still arriving. ``max_depth``: element (or object) nesting inside one message.
    ``max_buffered_bytes``: bytes handed to ``receive_data`` and not yet consumed by
    ``next_event``; protects against a caller that feeds without draining. An I/O layer
    that drains after every read must read at most ``max_buffered_bytes -
    max_message_bytes`` bytes at a time (768 KiB with the defaults).
    """

    max_message_bytes: int = 256 * 1024
    max_depth: int = 16
    max_buffered_bytes: int = 1024 * 1024

    def __post_init__(self) -> None:
        if min(self.max_message_bytes, self.max_depth, self.max_buffered_bytes) < 1:
            raise ValueError("every limit must be at least 1")


In = TypeVar("In")
Out = TypeVar("Out")


class SansIOConnection(ABC, Generic[In, Out]):
    """One peer's side of a connection: bytes in, events out; messages in, bytes out.

    Subclasses implement ``_parse_next`` (consume from ``self._buffer``) and ``_encode``.
    This class owns the buffer, the EOF flag, the limit on buffered bytes and the error
    state.
    """

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits if limits is not None else Limits()
        self._buffer = bytearray()
        self._eof = False
        self._closed_event_sent = False
        self._error: ProtocolError | None = None
        self._send_closed = False

    # -- state ---------------------------------------------------------------------

    @property
    def errored(self) -> bool:
        """True once the peer broke the protocol; the connection is then unusable."""
        return self._error is not None

    @property
    def send_closed(self) -> bool:
        """True once our side of the stream was ended (see subclasses' ``close``)."""
        return self._send_closed

    def _check_usable(self) -> None:
        if self._error is not None:
            raise ProtocolError(f"connection already failed: {self._error.reason}")

    def _fail(self, error: ProtocolError) -> ProtocolError:
        """Enter the error state; returns the error so callers can ``raise self._fail(e)``."""
        if self._error is None:
            self._error = error
        self._buffer.clear()
        return error

    # -- the three verbs -----------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; ``b""`` signals end of file. Never parses."""
        self._check_usable()
        if self._eof:
            if data:
                raise LocalProtocolError("receive_data() after end of file")
            return
        if not data:
            self._eof = True
            return
        if len(self._buffer) + len(data) > self.limits.max_buffered_bytes:
            raise self._fail(
                LimitExceeded(
                    f"more than {self.limits.max_buffered_bytes} bytes buffered "
                    "without a complete message"
                )
            )
        self._buffer += data

    def next_event(self) -> In | StreamEnd | ConnectionClosed | NeedData:
        """The next complete event, or ``NEED_DATA``.

        After end of file the buffered bytes are parsed first; then ``ConnectionClosed``
        is returned (once; afterwards ``NEED_DATA`` forever).
        """
        self._check_usable()
        try:
            event = self._parse_next()
        except ProtocolError as exc:
            raise self._fail(exc) from None
        if event is not NEED_DATA:
            return event
        if self._eof and not self._closed_event_sent:
            self._closed_event_sent = True
            truncated = self._has_partial_message()
            self._buffer.clear()
            return ConnectionClosed(truncated=truncated)
        return NEED_DATA

    def send(self, message: Out) -> bytes:
        """The bytes that carry ``message`` to the peer."""
        if self._send_closed:
            raise LocalProtocolError("send() after the stream was ended")
        return self._encode(message)

    # -- hooks -----------------------------------------------------------------------

    @abstractmethod
    def _parse_next(self) -> In | StreamEnd | NeedData:
        """Consume one event's bytes from ``self._buffer`` or return ``NEED_DATA``."""

    @abstractmethod
    def _encode(self, message: Out) -> bytes:
        """Serialise one outgoing message."""

    def _has_partial_message(self) -> bool:
        """Whether unconsumed bytes at EOF belong to an unfinished message."""
        return bool(self._buffer.strip())
