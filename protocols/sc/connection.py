"""``ServerConnection`` and ``ClientConnection``: the two ends of an SC connection.

Both speak the same stream format (see ``stream``): our first ``send`` prepends the
``<protocol>`` root, every message is written as XStream pretty-prints it inside that
root (a newline, two spaces, the element indented from there), and ``close()`` returns
the closing ``</protocol>``. The bytes are exactly what the official server's XStream
writer puts on the socket.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from lxml import etree

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
from protocols.sc.codec import decode_client, decode_server, encode_client, encode_server
from protocols.sc.messages import ClientMessage, Close, Memento, ServerMessage
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

    def _decode(self, element: etree._Element) -> ServerMessage:
        return decode_server(element)

    def _to_node(self, message: ClientMessage) -> Node:
        return encode_client(message)
