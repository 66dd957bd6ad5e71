"""``ServerConnection`` and ``ClientConnection``: the two ends of an SC connection.

Both speak the same stream format (see ``stream``): our first ``send`` prepends the
``<protocol>`` root, every message is written as XStream pretty-prints it inside that
root (a newline, two spaces, the element indented from there), and ``close()`` returns
the closing ``</protocol>``. The bytes are exactly what the official server's XStream
writer puts on the socket.
"""

from __future__ import annotations

import re
from typing import Any, Generic, TypeVar

from lxml import etree

from games.blokus import SetMove, SkipMove
from protocols.base import (
    NEED_DATA,
    Limits,
    LocalProtocolError,
    NeedData,
    ProtocolError,
    SansIOConnection,
    StreamEnd,
)
from protocols.sc.blokus import state_text
from protocols.sc.codec import (
    decode_client,
    decode_server,
    decode_standard_move,
    encode_client,
    encode_server,
    take_standard_move,
)
from protocols.sc.messages import ClientMessage, Close, Memento, MoveRequest, ServerMessage
from protocols.sc.stream import END_OF_STREAM, MessageSplitter
from protocols.sc.xmltree import Node, escape_attribute, parse_message, render

__all__ = [
    "ClientConnection",
    "SCConnection",
    "ServerConnection",
    "client_message_body",
    "server_message_body",
]

ROOT = "protocol"

In = TypeVar("In")
Out = TypeVar("Out")


class SCConnection(SansIOConnection[In, Out], Generic[In, Out]):
    """What both ends share: the splitter, the lazy root, ``close``."""

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        self._splitter = MessageSplitter(self.limits)
        self._root_sent = False
        self._goodbye_sent = False

    @property
    def peer_root(self) -> str | None:
        """The name of the peer's stream root once seen (normally ``protocol``)."""
        return self._splitter.root

    def _parse_next(self) -> In | StreamEnd | NeedData:
        data = self._splitter.next(self._buffer)
        if data is None:
            return NEED_DATA
        if data == END_OF_STREAM:
            return StreamEnd()
        fast = self._decode_fast(data)
        if fast is not None:
            return fast
        element = parse_message(data)
        try:
            return self._decode(element)
        except ProtocolError:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            # Decoders turn every expected problem into ProtocolError; this is the net
            # under them, so a peer can never crash the caller with odd content.
            raise ProtocolError(f"invalid message content: {exc}") from None

    def _has_partial_message(self) -> bool:
        return self._splitter.in_message or bool(self._buffer.strip())

    def _encode(self, message: Out) -> bytes:
        return self._frame(message_body(self._to_node(message)), isinstance(message, Close))

    def send_body(self, body: bytes) -> bytes:
        """Like ``send``, for a message already encoded with ``server_message_body`` /
        ``client_message_body``: lets one memento be encoded once for many recipients.

        >>> from protocols.sc.messages import MoveRequest
        >>> body = server_message_body(MoveRequest("r"))
        >>> ServerConnection().send_body(body) == ServerConnection().send(MoveRequest("r"))
        True
        """
        if self._send_closed:
            raise LocalProtocolError("send() after the stream was ended")
        return self._frame(body, body.strip() == b"<close/>")

    def _frame(self, body: bytes, is_close: bool) -> bytes:
        if self.errored:
            raise LocalProtocolError("send() on a connection that failed")
        if self._goodbye_sent:
            # After <close/> only the end of the document may follow (XStreamClient.stop).
            raise LocalProtocolError("send() after <close/>; call close()")
        self._goodbye_sent = is_close
        if self._root_sent:
            return body
        self._root_sent = True
        return f"<{ROOT}>".encode() + body

    def close(self) -> bytes:
        """End our side of the stream: the bytes of ``</protocol>``.

        Returns ``b""`` when called again. Allowed in the error state too, so the I/O
        layer can always end the document before it drops the socket.
        """
        if self._send_closed:
            return b""
        self._send_closed = True
        if not self._root_sent:
            self._root_sent = True
            return f"<{ROOT}/>".encode()
        return f"\n</{ROOT}>".encode()

    end = close

    def _decode(self, element: etree._Element) -> In:
        raise NotImplementedError

    def _decode_fast(self, data: bytes) -> In | None:
        """The message of `data` without lxml when it has a common exact form, else None."""
        return None

    def _to_node(self, message: Out) -> Node:
        raise NotImplementedError


def message_body(node: Node) -> bytes:
    """A message as it appears inside the stream: newline, two spaces, the element."""
    return f"\n  {render(node, 1)}".encode()


def server_message_body(message: ServerMessage) -> bytes:
    """The in-stream bytes of a server message, independent of any connection.

    A memento (one per move, the biggest message) is written straight from the engine's
    bitboards (`blokus.state_text`), byte for byte what its node tree renders to.
    """
    if type(message) is Memento:
        return memento_body(message)
    if type(message) is MoveRequest:  # the other message of every move
        return (f'\n  <room roomId="{escape_attribute(message.room_id)}">'
                f'\n    <data class="moveRequest"/>\n  </room>').encode()
    return message_body(encode_server(message))


def memento_body(message: Memento) -> bytes:
    """``server_message_body`` of a memento, without building the node tree.

    >>> from games.blokus import new_game
    >>> memento = Memento("r1", new_game("PENTO_L"))
    >>> memento_body(memento) == message_body(encode_server(memento))
    True
    """
    state = message.state
    if not hasattr(state, "occupied"):  # not an engine State: the generic writer
        return message_body(encode_server(message))
    return (
        f'\n  <room roomId="{escape_attribute(message.room_id)}">\n    <data class="memento">'
        f"\n      {state_text(state, 3)}\n    </data>\n  </room>"
    ).encode()


def packet_bytes(message: ServerMessage) -> bytes:
    """A server message as a replay file holds it: one packet at column 0, as XStream
    writes one object per `toXML` call; a memento through the bitboard writer (most of a
    replay), byte for byte what its node tree renders to.

    >>> from games.blokus import new_game
    >>> memento = Memento("r", new_game("PENTO_L"))
    >>> packet_bytes(memento) == render(encode_server(memento), 0).encode()
    True
    """
    if type(message) is Memento and hasattr(message.state, "occupied"):
        return (f'<room roomId="{escape_attribute(message.room_id)}">\n  <data class="memento">'
                f"\n    {state_text(message.state, 2)}\n  </data>\n</room>").encode()
    return render(encode_server(message), 0).encode()


def client_message_body(message: ClientMessage) -> bytes:
    """The in-stream bytes of a client message, independent of any connection."""
    return message_body(encode_client(message))


class ServerConnection(SCConnection[ClientMessage, ServerMessage]):
    """The server's end: parses client messages, serialises server messages.

    >>> from protocols.sc.messages import Joined, Join
    >>> connection = ServerConnection()
    >>> connection.receive_data(b'<protocol><join gameType="swc_2027_blokus"/>')
    >>> connection.next_event()
    Join(game_type='swc_2027_blokus')
    >>> connection.next_event()
    NEED_DATA
    >>> connection.send(Joined("r1"))
    b'<protocol>\\n  <joined roomId="r1"/>'
    >>> connection.close()
    b'\\n</protocol>'
    """

    def _decode(self, element: etree._Element) -> ClientMessage:
        return decode_client(element)

    def _decode_fast(self, data: bytes) -> ClientMessage | None:
        return decode_standard_move(data)

    def _parse_next(self) -> ClientMessage | StreamEnd | NeedData:
        # A bot's move, the message of every turn, between messages at the front of the
        # buffer: taken off whole, without the splitter's scan (the strict pattern admits
        # no comment, CDATA or nesting).
        if self._splitter.between_messages:
            taken = take_standard_move(self._buffer)
            if taken is not None and taken[1] <= self.limits.max_message_bytes:
                message, end = taken
                del self._buffer[:end]
                return message
        return super()._parse_next()

    def _encode(self, message: ServerMessage) -> bytes:
        return self._frame(server_message_body(message), isinstance(message, Close))

    def _to_node(self, message: ServerMessage) -> Node:
        return encode_server(message)


class ClientConnection(SCConnection[ServerMessage, ClientMessage]):
    """A bot's (or a test's) end: parses server messages, serialises client messages.

    The default limits allow large mementos (a full board is about 25 KiB).

    >>> from protocols.sc.messages import Join, Joined
    >>> connection = ClientConnection()
    >>> connection.send(Join())
    b'<protocol>\\n  <join/>'
    >>> connection.receive_data(b'<protocol>\\n  <joined roomId="r1"/>')
    >>> connection.next_event()
    Joined(room_id='r1')
    """

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        # The latest Blokus state per room, for `_decode_fast` (a few rooms at most).
        self._states: dict[str, Any] = {}

    def _decode(self, element: etree._Element) -> ServerMessage:
        message = decode_server(element)
        if type(message) is Memento and hasattr(message.state, "push"):
            self._remember(message.room_id, message.state)
        return message

    def _remember(self, room_id: str, state: Any) -> None:
        states = self._states
        states.pop(room_id, None)
        if len(states) >= 8:
            del states[next(iter(states))]
        states[room_id] = state

    def _parse_next(self) -> ServerMessage | StreamEnd | NeedData:
        ahead = self._memento_ahead()
        return super()._parse_next() if ahead is None else ahead

    def _memento_ahead(self) -> Memento | NeedData | None:
        """`_decode_fast` before the splitter: when the buffer starts with exactly the
        predicted memento (bytes we would write ourselves, so well-formed and within the
        limits), take it off the buffer without scanning it; NEED_DATA while what arrived
        is a beginning of it; None: let the splitter and the parser do their work."""
        buffer = self._buffer
        if not buffer.startswith(b'\n  <room roomId="') or not self._splitter.between_messages:
            return None
        message = self._predict(buffer, 3)
        if message is None:
            return None
        body = memento_body(message)
        if buffer.startswith(body):
            del buffer[:len(body)]
            self._remember(message.room_id, message.state)
            return message
        if len(buffer) < len(body) and body.startswith(buffer):
            return NEED_DATA
        return None

    def _predict(self, data: bytes | bytearray, start: int) -> Memento | None:
        """The memento that `data[start:]` should be: the room's last state plus the
        ``lastMove`` named there (None when there is nothing to predict from)."""
        head = _MEMENTO_HEAD.match(data, start)
        if head is None:
            return None
        room_id = head.group(1).decode("ascii")
        previous = self._states.get(room_id)
        if previous is None:
            return None
        move = _last_move(data, start)
        if move is None:
            return None
        try:
            state = previous.clone()
            state.push(move)  # unchecked: the caller compares the bytes
        except Exception:  # an unexpected move for our engine: the full path decides
            return None
        return Memento(room_id, state)

    def _decode_fast(self, data: bytes) -> ServerMessage | None:
        """A memento as the previous one plus its ``lastMove``, checked byte for byte.

        The state is predicted from the room's last state and the move the memento names,
        written with the server's writer and compared with the bytes received: equal bytes
        are the same memento, so the lxml parse and the state rebuild (most of a bot's cost
        per move) are skipped. Anything else (the first memento, another room, a state
        changed otherwise) is parsed as usual.
        """
        message = self._predict(data, 0)
        if message is None or memento_body(message)[3:] != data:
            return None
        self._remember(message.room_id, message.state)
        return message

    def _to_node(self, message: ClientMessage) -> Node:
        return encode_client(message)


_MEMENTO_HEAD = re.compile(rb'<room roomId="([A-Za-z0-9_.:-]*)">\n    <data class="memento">')
_LAST_MOVE = re.compile(
    rb'<lastMove class="sc\.plugin2027\.(?:SetMove">\s*<piece color="([A-Z]+)" kind="([A-Z_]+)" '
    rb'rotation="([A-Z_]+)" isFlipped="(true|false)">\s*<position x="([0-9]{1,2})" '
    rb'y="([0-9]{1,2})"/>|SkipMove">\s*<color>([A-Z]+)</color>)'
)


def _last_move(data: bytes | bytearray, start: int) -> SetMove | SkipMove | None:
    found = _LAST_MOVE.search(data, start, start + 700)
    if found is None:
        return None
    color, kind, rotation, flipped, x, y, skip = found.groups()
    try:
        if skip is not None:
            return SkipMove(skip.decode())
        return SetMove(color.decode(), kind.decode(), rotation=rotation.decode(),
                       flipped=flipped == b"true", x=int(x), y=int(y))
    except (TypeError, ValueError):
        return None
