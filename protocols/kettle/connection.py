"""``ServerConnection`` and ``ClientConnection``: the two ends of a Kettle connection.

Both are ``protocols.base.SansIOConnection``\\ s with the same three verbs. ``next_event``
returns a message from the peer, ``NEED_DATA``, ``ConnectionClosed`` (end of file at a
frame boundary, once) or ``Refused``: the peer sent something the codec refuses, with the
``nack`` to answer and whether the connection must be closed. A frame carrying a batch
(a JSON array) gives one event per object, in order; each object is accepted or refused
on its own.

After a ``Refused`` with ``close=True`` the connection is failed (``errored``): ``send``
still works, so the nack can go out, but ``receive_data`` and ``next_event`` raise
``ProtocolError``. The I/O layer sends the nack and closes the transport.

Kettle has no in-band goodbye; ``close()`` exists for symmetry with the SC codec and
returns ``b""``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, Final, Generic, TypeVar

from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    Limits,
    LocalProtocolError,
    NeedData,
    SansIOConnection,
)
from protocols.kettle.frames import HEADER_BYTES, encode_frame, parse_body, read_frame
from protocols.kettle.messages import (
    ClientMessage,
    Message,
    Nack,
    ServerMessage,
    decode_client,
    decode_server,
)
from protocols.kettle.reasons import BAD_ENVELOPE, BUFFER_FULL, TRUNCATED, KettleError

__all__ = [
    "CLIENT_LIMITS",
    "SERVER_LIMITS",
    "ClientConnection",
    "KettleConnection",
    "Refused",
    "ServerConnection",
    "encode",
    "encode_batch",
]

SERVER_LIMITS: Final = Limits(max_message_bytes=64 << 10, max_depth=32,
                              max_buffered_bytes=256 << 10)
"""What a server accepts from a bot: frames up to 64 KiB, nesting up to 32, 256 KiB
buffered (an I/O layer that drains after every read reads at most 64 KiB at a time).

A bot's largest message (``queue_player`` with a 30-card deck) is well under 2 KiB; the
64 KiB cap keeps the worst frame's parse to milliseconds (a 1 MiB body of 32-deep
arrays cost seconds of ``json.loads`` under load)."""

CLIENT_LIMITS: Final = Limits(
    max_message_bytes=16 << 20, max_depth=256, max_buffered_bytes=32 << 20
)
"""What a bot accepts from the server: large ``history_block``\\ s (a whole game for
``get_game_state``) with deeply nested ``power_block``\\ s."""


@dataclass(frozen=True, slots=True)
class Refused:
    """The peer sent something the codec refuses: send ``nack``, then close if ``close``.

    >>> Refused(Nack("", "bad_json", "body is not JSON"), close=True).reason
    'bad_json'
    """

    nack: Nack
    close: bool

    @property
    def reason(self) -> str:
        """The nack's reason code."""
        return self.nack.reason

    @classmethod
    def from_error(cls, error: KettleError) -> Refused:
        return cls(Nack.from_error(error), error.closes)


def encode(message: Message) -> bytes:
    """The frame for one message, independent of any connection (encode once, send to
    many: spectators share the full history).

    >>> from protocols.kettle.messages import Concede
    >>> encode(Concede())
    b'\\x00\\x00\\x00,{"type":"kettle:types/concede","concede":{}}'
    """
    return encode_frame(message.to_dict())


def encode_batch(messages: Iterable[Message]) -> bytes:
    """One frame carrying several messages as a JSON array (one ``json`` call).

    >>> from protocols.kettle.messages import Ack, Concede
    >>> encode_batch([Ack(), Ack()])[4:]
    b'[{"type":"kettle:types/ack","ack":{"acknowledged_object":""}},\
{"type":"kettle:types/ack","ack":{"acknowledged_object":""}}]'
    """
    batch = [message.to_dict() for message in messages]
    if not batch:
        raise LocalProtocolError("a batch needs at least one message")
    return encode_frame(batch)


In = TypeVar("In")
Out = TypeVar("Out", bound=Message)


class KettleConnection(SansIOConnection[In | Refused, Out], Generic[In, Out]):
    """What both ends share: framing, batches, refusals. Subclasses name the decoder."""

    DEFAULT_LIMITS: ClassVar[Limits] = SERVER_LIMITS
    _decode: Callable[[object], In]

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits if limits is not None else self.DEFAULT_LIMITS)
        if self.limits.max_buffered_bytes < self.limits.max_message_bytes + HEADER_BYTES:
            raise ValueError("max_buffered_bytes must hold at least one largest frame")
        self._events: deque[In | Refused] = deque()
        self._overflowed = False

    # -- receiving ---------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; ``b""`` signals end of file. Never parses.

        Bytes beyond ``limits.max_buffered_bytes`` are not buffered: the next
        ``next_event`` returns ``Refused`` (``buffer_full``, closing).
        """
        self._check_usable()
        if self._eof:
            if data:
                raise LocalProtocolError("receive_data() after end of file")
            return
        if not data:
            self._eof = True
            return
        if self._overflowed:
            return
        if len(self._buffer) + len(data) > self.limits.max_buffered_bytes:
            self._overflowed = True
            self._buffer.clear()
            return
        self._buffer += data

    def next_event(self) -> In | Refused | ConnectionClosed | NeedData:
        """The next message, ``Refused``, ``ConnectionClosed`` (once) or ``NEED_DATA``."""
        self._check_usable()
        if self._events:
            return self._events.popleft()
        try:
            if self._overflowed:
                raise KettleError(
                    BUFFER_FULL,
                    f"more than {self.limits.max_buffered_bytes} bytes buffered unread",
                )
            event = self._parse_next()
            if event is not NEED_DATA or not self._eof:
                return event
            if self._buffer:
                raise KettleError(
                    TRUNCATED, f"end of file inside a frame ({len(self._buffer)} bytes unread)"
                )
        except KettleError as error:
            refused = Refused.from_error(error)
            if refused.close:
                self._fail(error)
                self._events.clear()
            return refused
        if not self._closed_event_sent:
            self._closed_event_sent = True
            return ConnectionClosed()
        return NEED_DATA

    def _parse_next(self) -> In | Refused | NeedData:
        """Read one frame and queue its events; ``KettleError`` for frame-level refusals
        (``too_deep`` is the only one that keeps the connection open)."""
        body = read_frame(self._buffer, self.limits.max_message_bytes)
        if body is None:
            return NEED_DATA
        for obj in parse_body(body, self.limits.max_depth):
            try:
                self._events.append(self._decode(obj))
            except KettleError as error:
                self._events.append(Refused.from_error(error))
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
                # The decoders refuse every expected problem themselves; this net makes
                # sure odd content can never crash the caller.
                self._events.append(
                    Refused(Nack("", BAD_ENVELOPE, f"invalid message: {exc}"), False)
                )
        return self._events.popleft()

    def next_frame_bytes(self) -> int:
        """The body length of the complete frame the next ``next_event`` will parse; 0
        when events are queued or no complete frame is buffered (the I/O layer parses
        large frames off its event loop: ``next_event`` is safe to call from one other
        thread at a time, while nothing else calls ``receive_data``/``next_event``).

        >>> conn = ServerConnection()
        >>> conn.receive_data(b"\\x00\\x00\\x00\\x02{}")
        >>> conn.next_frame_bytes()
        2
        """
        if self._events or self._overflowed or len(self._buffer) < HEADER_BYTES:
            return 0
        length = int.from_bytes(self._buffer[:HEADER_BYTES], "big")
        complete = len(self._buffer) >= HEADER_BYTES + length
        return length if complete and length <= self.limits.max_message_bytes else 0

    def _has_partial_message(self) -> bool:
        return bool(self._buffer)

    # -- sending -----------------------------------------------------------------------

    def _encode(self, message: Out) -> bytes:
        return encode_frame(message.to_dict())

    def send_batch(self, messages: Iterable[Out]) -> bytes:
        """Several messages in one frame (a JSON array), encoded with one ``json`` call."""
        if self._send_closed:
            raise LocalProtocolError("send() after the stream was ended")
        return encode_batch(messages)

    def send_frame(self, frame: bytes) -> bytes:
        """A frame made by ``encode``/``encode_batch`` (shared by many connections):
        checks this connection's state and returns it unchanged."""
        if self._send_closed:
            raise LocalProtocolError("send() after the stream was ended")
        return frame

    def close(self) -> bytes:
        """End our side: Kettle has no goodbye bytes, so this returns ``b""``; further
        ``send`` calls raise ``LocalProtocolError``."""
        self._send_closed = True
        return b""

    # -- helpers for drivers -----------------------------------------------------------

    def events(self) -> list[In | Refused | ConnectionClosed]:
        """Every event available now (calls ``next_event`` until ``NEED_DATA``); stops
        after a closing ``Refused``."""
        found: list[In | Refused | ConnectionClosed] = []
        while True:
            event = self.next_event()
            if event is NEED_DATA:
                return found
            found.append(event)
            if isinstance(event, Refused) and event.close:
                return found


class ServerConnection(KettleConnection[ClientMessage, ServerMessage]):
    """The server's end: parses client messages, serialises server messages.

    >>> from protocols.kettle.messages import Ack, JoinGame, GameJoined
    >>> server = ServerConnection()
    >>> frame = ClientConnection().send(JoinGame("g1", "pw"))
    >>> server.receive_data(frame[:7])
    >>> server.next_event()
    NEED_DATA
    >>> server.receive_data(frame[7:])
    >>> server.next_event()
    JoinGame(game_id='g1', password='pw')
    >>> server.send(GameJoined("g1", 1))[4:52]
    b'{"type":"kettle:types/game_joined","game_joined"'
    >>> server.receive_data(b"\\x00\\x00\\x00\\x02[]")
    >>> server.next_event()  # doctest: +NORMALIZE_WHITESPACE
    Refused(nack=Nack(not_acknowledged_object='', reason='bad_body',
        message='a frame must hold an object or a non-empty array of objects, not an empty array'),
        close=True)
    >>> server.errored
    True
    """

    DEFAULT_LIMITS = SERVER_LIMITS

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        self._decode = decode_client


class ClientConnection(KettleConnection[ServerMessage, ClientMessage]):
    """A bot's (or a test's) end: parses server messages, serialises client messages.

    Its ``Refused`` events are for logging: a client cannot send a ``nack``.

    >>> from protocols.kettle.messages import Ack, Concede, GetGameState
    >>> client = ClientConnection()
    >>> len(client.send_batch([GetGameState(), Concede()]))
    109
    >>> client.receive_data(ServerConnection().send_batch([Ack(), Ack("x")]))
    >>> client.events()
    [Ack(acknowledged_object=''), Ack(acknowledged_object='x')]
    >>> client.receive_data(b"")
    >>> client.events()
    [ConnectionClosed(truncated=False)]
    """

    DEFAULT_LIMITS = CLIENT_LIMITS

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        self._decode = decode_server
