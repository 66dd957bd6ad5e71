"""The streaming side of the SC codec: splitting, end events, limits and garbage."""

from __future__ import annotations

import pytest

from games.blokus import SetMove, SkipMove
from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    LimitExceeded,
    Limits,
    LocalProtocolError,
    ProtocolError,
    StreamEnd,
)
from protocols.sc import (
    Authenticate,
    Cancel,
    ClientConnection,
    Close,
    Join,
    Joined,
    JoinPrepared,
    JoinRoom,
    Observe,
    Pause,
    Prepare,
    RoomPacket,
    ServerConnection,
    Slot,
    Step,
)

# A client stream as a real bot writes it: root, several messages, close, end of root.
CLIENT_STREAM = (
    b"<protocol>"
    b'<join gameType="swc_2027_blokus"/>\n'
    b'<joinRoom roomId="r-1"/>'
    b'  <joinPrepared reservationCode="c0de"/>'
    b'<authenticate password="p&amp;w &apos;x&apos;"/>'
    b'<prepare gameType="swc_2027_blokus" pause="true">'
    b'<slot displayName="Alice" canTimeout="false" reserved="true"/>'
    b'<slot displayName="Bob" canTimeout="true" reserved="false"/>'
    b"</prepare>"
    b'<observe roomId="r-1"/><pause roomId="r-1" pause="false"/>'
    b'<step roomId="r-1" forced="true"/><cancel roomId="r-1"/>'
    b'<room roomId="r-1">\n  <data class="sc.plugin2027.SetMove">\n'
    b'    <piece color="BLUE" kind="PENTO_U" rotation="RIGHT" isFlipped="true">\n'
    b'      <position x="17" y="0"/>\n    </piece>\n  </data>\n</room>'
    b'<room roomId="r-1"><data class="sc.plugin2027.SkipMove"><color>RED</color></data></room>'
    b"<close/>"
    b"</protocol>"
)

CLIENT_EVENTS = [
    Join("swc_2027_blokus"),
    JoinRoom("r-1"),
    JoinPrepared("c0de"),
    Authenticate("p&w 'x'"),
    Prepare("swc_2027_blokus", True, (Slot("Alice", False, True), Slot("Bob", True, False))),
    Observe("r-1"),
    Pause("r-1", False),
    Step("r-1", True),
    Cancel("r-1"),
    RoomPacket("r-1", SetMove("BLUE", "PENTO_U", rotation="RIGHT", flipped=True, x=17, y=0)),
    RoomPacket("r-1", SkipMove("RED")),
    Close(),
    StreamEnd(),
]


def drain(connection: ServerConnection | ClientConnection) -> list[object]:
    events: list[object] = []
    while (event := connection.next_event()) is not NEED_DATA:
        events.append(event)
    return events


def feed_in_chunks(data: bytes, size: int) -> list[object]:
    server = ServerConnection()
    events: list[object] = []
    for start in range(0, len(data), size):
        server.receive_data(data[start : start + size])
        events += drain(server)
    server.receive_data(b"")
    events += drain(server)
    return events


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, len(CLIENT_STREAM)])
def test_any_split_gives_the_same_messages(size: int) -> None:
    events = feed_in_chunks(CLIENT_STREAM, size)
    assert events == [*CLIENT_EVENTS, ConnectionClosed(truncated=False)]


def test_every_split_point_of_one_memento_sized_message() -> None:
    message = (
        b"<protocol><room roomId='r'><data class='sc.plugin2027.SetMove'>"
        b"<!-- a comment with <tags> and > signs --><piece color='GREEN' kind='MONO' "
        b"rotation='NONE' isFlipped='false'><position x='1' y='2'/></piece></data></room>"
    )
    expected = RoomPacket("r", SetMove("GREEN", "MONO", x=1, y=2))
    for cut in range(1, len(message)):
        server = ServerConnection()
        server.receive_data(message[:cut])
        first = drain(server)
        server.receive_data(message[cut:])
        assert first + drain(server) == [expected], cut


def test_quoted_greater_than_and_cdata_do_not_end_a_message() -> None:
    server = ServerConnection()
    server.receive_data(
        b'<protocol><authenticate password="a>b/>c"/>'
        b"<room roomId='r'><data class='sc.plugin2027.SkipMove'>"
        b"<color><![CDATA[BLUE]]></color></data></room>"
    )
    assert drain(server) == [Authenticate("a>b/>c"), RoomPacket("r", SkipMove("BLUE"))]


def test_declaration_bom_and_comments_before_the_root_are_accepted() -> None:
    server = ServerConnection()
    server.receive_data(b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- hi --><protocol><join/>')
    assert drain(server) == [Join()]


def test_the_root_may_have_any_name_and_ends_the_stream() -> None:
    server = ServerConnection()
    server.receive_data(b"<anything><close/></anything>")
    assert drain(server) == [Close(), StreamEnd()]
    assert server.peer_root == "anything"


def test_self_closing_root_is_an_empty_stream() -> None:
    server = ServerConnection()
    server.receive_data(b"<protocol/>")
    assert drain(server) == [StreamEnd()]


def test_end_of_file_is_reported_once_with_truncation_flag() -> None:
    server = ServerConnection()
    server.receive_data(b"<protocol><join/><joinRoom room")
    server.receive_data(b"")
    assert drain(server) == [Join(), ConnectionClosed(truncated=True)]
    assert server.next_event() is NEED_DATA
    with pytest.raises(LocalProtocolError):
        server.receive_data(b"<more/>")


def test_clean_end_of_file_after_end_of_stream() -> None:
    server = ServerConnection()
    server.receive_data(b"<protocol></protocol>\n")
    server.receive_data(b"")
    assert drain(server) == [StreamEnd(), ConnectionClosed(truncated=False)]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"<protocol><!DOCTYPE x>", "DOCTYPE"),
        (b'<!DOCTYPE protocol [<!ENTITY a "b">]><protocol>', "DOCTYPE"),
        (b"<protocol><join/><?pi x?>", "processing instructions"),
        (b"<protocol>hello<join/>", "text outside"),
        (b"garbage", "text outside"),
        (b"<protocol></other>", "matching start tag"),
        (b"<protocol></protocol><join/>", "after the end"),
        (b"<protocol><join <x/>", "'<' inside a tag"),
        (b"<protocol>< join/>", "without a name"),
        (b"<protocol><![CDATA[x]]>", "CDATA outside"),
        (b'<protocol><room roomId="r"><data class="x">&lol;</data></room>', "malformed XML"),
        (b"<protocol><join></joinx>", "malformed XML"),
        (b"<protocol><join>\xff</join>", "malformed XML"),
        (b"<protocol><unknown/>", "unknown message"),
        (b"<protocol><ns:join xmlns:ns='u'/>", "unknown message"),
        (b"<protocol><joined roomId='r'/>", "unknown message"),
        (b"<protocol><join><x/></join>", "unknown element"),
        (b"<protocol><joinRoom/>", "lacks the attribute roomId"),
        (b"<protocol><pause roomId='r' pause='yes'/>", "true or false"),
    ],
)
def test_garbage_is_a_protocol_error(data: bytes, reason: str) -> None:
    server = ServerConnection()
    server.receive_data(data)
    with pytest.raises(ProtocolError) as caught:
        drain(server)
    assert reason in caught.value.reason


def test_billion_laughs_never_expands() -> None:
    lol = b"<!ENTITY lol0 'lol'>" + b"".join(
        b"<!ENTITY lol%d '%s'>" % (i, b"&lol%d;" % (i - 1) * 10) for i in range(1, 10)
    )
    server = ServerConnection()
    server.receive_data(b"<!DOCTYPE protocol [" + lol + b"]><protocol><join gameType='&lol9;'/>")
    with pytest.raises(ProtocolError):
        drain(server)


def test_a_failed_connection_refuses_further_use() -> None:
    server = ServerConnection()
    server.receive_data(b"<protocol><nonsense/>")
    with pytest.raises(ProtocolError):
        server.next_event()
    assert server.errored
    with pytest.raises(ProtocolError):
        server.next_event()
    with pytest.raises(ProtocolError):
        server.receive_data(b"<join/>")
    with pytest.raises(LocalProtocolError):
        server.send(Joined("r"))
    # Ending the document is still possible, so the I/O layer can close cleanly.
    assert server.close() == b"<protocol/>"


def test_message_size_is_checked_before_the_message_is_complete() -> None:
    server = ServerConnection(Limits(max_message_bytes=100))
    server.receive_data(b"<protocol><room roomId='r'><data class='moveRequest'>")
    assert server.next_event() is NEED_DATA
    server.receive_data(b"x" * 60)
    with pytest.raises(LimitExceeded):
        server.next_event()


def test_a_huge_attribute_value_hits_the_message_limit_inside_the_tag() -> None:
    server = ServerConnection(Limits(max_message_bytes=1000))
    server.receive_data(b'<protocol><join gameType="' + b"a" * 900)
    assert server.next_event() is NEED_DATA
    server.receive_data(b"a" * 200)
    with pytest.raises(LimitExceeded):
        server.next_event()


def test_a_complete_oversized_message_in_one_chunk_is_refused() -> None:
    server = ServerConnection(Limits(max_message_bytes=50))
    server.receive_data(b'<protocol><join gameType="' + b"a" * 100 + b'"/>')
    with pytest.raises(LimitExceeded):
        server.next_event()


def test_an_endless_comment_hits_the_limit() -> None:
    server = ServerConnection(Limits(max_message_bytes=100))
    server.receive_data(b"<protocol><!--" + b"-" * 50)
    assert server.next_event() is NEED_DATA
    server.receive_data(b"x" * 100)
    with pytest.raises(LimitExceeded):
        server.next_event()


def test_nesting_depth_is_checked_on_each_start_tag() -> None:
    server = ServerConnection(Limits(max_depth=5))
    server.receive_data(b"<protocol>" + b"<room>" * 5)
    assert server.next_event() is NEED_DATA
    server.receive_data(b"<room>")
    with pytest.raises(LimitExceeded) as caught:
        server.next_event()
    assert "nested deeper" in caught.value.reason


def test_buffered_bytes_are_capped_in_receive_data() -> None:
    server = ServerConnection(Limits(max_buffered_bytes=64))
    server.receive_data(b"<protocol>" + b" " * 50)
    with pytest.raises(LimitExceeded):
        server.receive_data(b" " * 20)
    assert server.errored


def test_whitespace_between_messages_does_not_accumulate() -> None:
    server = ServerConnection(Limits(max_buffered_bytes=64, max_message_bytes=64))
    server.receive_data(b"<protocol>")
    for _ in range(100):
        server.receive_data(b" " * 40)
        assert server.next_event() is NEED_DATA
    server.receive_data(b"<join/>")
    assert server.next_event() == Join()


def test_first_send_opens_the_root_and_close_ends_it() -> None:
    server = ServerConnection()
    assert server.send(Joined("a")) == b'<protocol>\n  <joined roomId="a"/>'
    assert server.send(Joined("b")) == b'\n  <joined roomId="b"/>'
    assert server.close() == b"\n</protocol>"
    assert server.close() == b""
    with pytest.raises(LocalProtocolError):
        server.send(Joined("c"))


def test_nothing_but_the_end_may_follow_a_sent_close() -> None:
    server = ServerConnection()
    server.send(Joined("a"))
    assert server.send(Close()) == b"\n  <close/>"
    with pytest.raises(LocalProtocolError):
        server.send(Joined("b"))
    assert server.close() == b"\n</protocol>"


def test_client_and_server_streams_concatenate_into_one_document() -> None:
    from lxml import etree

    client = ClientConnection()
    data = b"".join(client.send(event) for event in CLIENT_EVENTS[:-1]) + client.close()
    root = etree.fromstring(data)
    assert root.tag == "protocol"
    assert len(root) == len(CLIENT_EVENTS) - 1
    assert feed_in_chunks(data, 5) == [*CLIENT_EVENTS, ConnectionClosed()]


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Limits(max_depth=0)


def test_pre_encoded_bodies_follow_the_connection_state() -> None:
    from protocols.sc.connection import server_message_body

    body = server_message_body(Joined("r"))
    first, second = ServerConnection(), ServerConnection()
    second.send(Joined("x"))
    assert first.send_body(body) == b"<protocol>" + body
    assert second.send_body(body) == body
    assert first.send_body(server_message_body(Close())) == b"\n  <close/>"
    with pytest.raises(LocalProtocolError):
        first.send_body(body)
    second.close()
    with pytest.raises(LocalProtocolError):
        second.send_body(body)
