"""Decoder strictness and tolerance, case by case.

Strict where the official server disconnects (unknown element, unknown class, bad enum,
unparseable number): ``ProtocolError``. Tolerant where it costs nothing (aliases of the
move classes, missing rotation/isFlipped, unknown attributes, blanks around values).
Non-move ``<data>`` that the official server answers with an errorpacket comes out as
``UnknownData``, distinguishable from a protocol error.
"""

from __future__ import annotations

import pytest

from games.blokus import COLORS, SHAPES, SetMove, SkipMove
from protocols.base import NEED_DATA, ProtocolError
from protocols.sc import (
    ClientConnection,
    Join,
    Memento,
    RoomPacket,
    ServerConnection,
    UnknownData,
)


def server_event(xml: str) -> object:
    server = ServerConnection()
    server.receive_data(b"<protocol>" + xml.encode())
    event = server.next_event()
    assert server.next_event() is NEED_DATA
    return event


def client_event(xml: str) -> object:
    client = ClientConnection()
    client.receive_data(b"<protocol>" + xml.encode())
    return client.next_event()


def room(data: str) -> str:
    return f'<room roomId="r">{data}</room>'


def set_move(
    class_name: str = "sc.plugin2027.SetMove", piece_attrs: str = "", body: str = ""
) -> str:
    attrs = piece_attrs or 'color="RED" kind="TETRO_L" rotation="MIRROR" isFlipped="true"'
    inner = body or '<position x="3" y="4"/>'
    return room(f'<data class="{class_name}"><piece {attrs}>{inner}</piece></data>')


EXPECTED = RoomPacket("r", SetMove("RED", "TETRO_L", rotation="MIRROR", flipped=True, x=3, y=4))


@pytest.mark.parametrize("alias", ["sc.plugin2027.SetMove", "setmove", "SetMove"])
def test_set_move_class_and_aliases(alias: str) -> None:
    assert server_event(set_move(alias)) == EXPECTED


@pytest.mark.parametrize("alias", ["sc.plugin2027.SkipMove", "skipmove", "SkipMove"])
def test_skip_move_class_and_aliases(alias: str) -> None:
    xml = room(f'<data class="{alias}"><color>YELLOW</color></data>')
    assert server_event(xml) == RoomPacket("r", SkipMove("YELLOW"))


def test_tolerated_variations() -> None:
    # Missing rotation and isFlipped mean NONE and false.
    assert server_event(set_move(piece_attrs='kind="MONO" color="BLUE"')) == RoomPacket(
        "r", SetMove("BLUE", "MONO", x=3, y=4)
    )
    # Unknown attributes are ignored (as XStream ignores them), blanks around values too.
    assert (
        server_event(
            set_move(
                piece_attrs='color=" RED " kind="TETRO_L" rotation="MIRROR" isFlipped=" true"'
                ' hint="ignored"',
                body='<position x=" 3" y="4 " z="9"/>',
            )
        )
        == EXPECTED
    )
    assert server_event(
        room('<data class="skipmove">\n  <color>\n    GREEN\n  </color>\n</data>')
    ) == RoomPacket("r", SkipMove("GREEN"))
    assert server_event('<join gameType="swc_2027_blokus" extra="1"/>') == Join("swc_2027_blokus")


@pytest.mark.parametrize("class_name", ["moveRequest", "memento", "welcomeMessage", "result"])
def test_non_move_data_is_not_a_protocol_error(class_name: str) -> None:
    event = server_event(room(f'<data class="{class_name}"/>'))
    assert event == RoomPacket("r", UnknownData(class_name))
    assert isinstance(event, RoomPacket) and isinstance(event.data, UnknownData)
    assert event.data.xml == f'<data class="{class_name}"/>'


@pytest.mark.parametrize(
    ("xml", "reason"),
    [
        (room('<data class="sc.plugin2027.Hint"/>'), "unknown data class"),
        (room('<data class="joined"/>'), "unknown data class"),
        (room("<data/>"), "without a class"),
        (room(""), "exactly one <data>"),
        (room('<data class="skipmove"/><data class="skipmove"/>'), "exactly one <data>"),
        ('<room><data class="skipmove"><color>RED</color></data></room>', "roomId"),
        (set_move(piece_attrs='color="PURPLE" kind="MONO"'), "unknown colour"),
        (set_move(piece_attrs='color="RED" kind="PENTO_Q"'), "unknown shape"),
        (set_move(piece_attrs='color="RED" kind="MONO" rotation="UP"'), "unknown rotation"),
        (set_move(piece_attrs='color="RED" kind="MONO" isFlipped="1"'), "true or false"),
        (set_move(piece_attrs='kind="MONO"'), "lacks the attribute color"),
        (set_move(body="<position x='1.5' y='0'/>"), "must be an integer"),
        (set_move(body="<position x='--5' y='0'/>"), "must be an integer"),
        (set_move(body="<position x='+-5' y='0'/>"), "must be an integer"),
        (set_move(body="<position x='٣' y='0'/>"), "must be an integer"),
        (set_move(body="<position x='999999999999' y='0'/>"), "must be an integer"),
        (set_move(body="<position x='-2147483649' y='0'/>"), "out of range"),
        (set_move(body="<position x='2147483648' y='0'/>"), "out of range"),
        (set_move(body="<position x='5000000' y='0'/>"), "bad SetMove"),
        (set_move(body="<position y='0'/>"), "lacks the attribute x"),
        (set_move(body="<position x='1' y='1'/><hint/>"), "unknown element <hint>"),
        (set_move(body="<position x='1' y='1'><z/></position>"), "must be empty"),
        (set_move(body="<position x='1' y='1'/><position x='1' y='1'/>"), "repeated"),
        (set_move(body=" "), "without <position>"),
        (room('<data class="setmove"/>'), "without <piece>"),
        (room('<data class="skipmove"><color>RED</color><hint/></data>'), "unknown element"),
        (room('<data class="skipmove"/>'), "without <color>"),
        (room('<data class="skipmove"><color><x/></color></data>'), "text only"),
        ("<prepare/>", "gameType"),
        ("<prepare gameType='g'><seat/></prepare>", "unknown element <seat>"),
        ("<prepare gameType='g'>" + "<slot/>" * 17 + "</prepare>", "more than 16 slots"),
        ("<step roomId='r' forced='maybe'/>", "true or false"),
        ("<authenticate/>", "password"),
    ],
)
def test_protocol_errors(xml: str, reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        server_event(xml)
    assert reason in caught.value.reason


def memento(state_body: str, attrs: str = 'turn="0" startPiece="PENTO_X"') -> str:
    return room(f'<data class="memento"><state class="state" {attrs}>{state_body}</state></data>')


SHAPE_LISTS = "".join(
    f"<{color.lower()}Shapes>"
    + "".join(f"<shape>{s}</shape>" for s in SHAPES)
    + f"</{color.lower()}Shapes>"
    for color in COLORS
)
VALID = "<validColors>" + "".join(f"<color>{c}</color>" for c in COLORS) + "</validColors>"


def test_a_minimal_memento_and_tolerated_field_blanks() -> None:
    event = client_event(
        memento(f'<board><field x=" 3" y="4" content="RED "/></board>{SHAPE_LISTS}{VALID}')
    )
    assert isinstance(event, Memento)
    assert event.state.fields() == [(3, 4, "RED")]
    assert event.state.round == 1  # derived from turn; the round attribute is optional


@pytest.mark.parametrize(
    ("xml", "reason"),
    [
        (memento(f"{SHAPE_LISTS}{VALID}"), "without <board>"),
        (memento(f'<board><field x="20" y="0" content="RED"/></board>{VALID}'), "off the board"),
        (memento(f'<board><field x="-1" y="0" content="RED"/></board>{VALID}'), "off the board"),
        (memento(f'<board><field x="1" y="0" content="EMPTY"/></board>{VALID}'), "unknown colour"),
        (memento(f'<board><field x="1" y="0"/></board>{VALID}'), "content"),
        (
            memento(
                '<board><field x="1" y="0" content="RED"/>'
                '<field x="1" y="0" content="BLUE"/></board>'
            ),
            "inconsistent state",
        ),
        (memento("<board><cell/></board>"), "unknown element <cell>"),
        (
            memento("<board/><blueShapes><shape>MONO</shape><shape>MONO</shape></blueShapes>"),
            "repeated shape",
        ),
        (
            memento("<board/><validColors><color>RED</color><color>RED</color></validColors>"),
            "repeated colour",
        ),
        (memento("<board/><extra/>"), "unknown element <extra>"),
        (
            memento("<board/><lastMoveMono><entry><color>RED</color></entry></lastMoveMono>"),
            "entry",
        ),
        (memento('<lastMove class="foo"/><board/>'), "unknown class"),
        (memento("<board/>", attrs='turn="x" startPiece="PENTO_X"'), "integer"),
        (memento("<board/>", attrs='turn="10001" startPiece="PENTO_X"'), "turn out of range"),
        (memento("<board/>", attrs='turn="1" startPiece="MONOX"'), "unknown shape"),
        (room('<data class="welcomeMessage" color="THREE"/>'), "unknown team"),
        (room('<data class="paused"/>'), "paused"),
        (room('<data class="memento"/>'), "one <state>"),
        (room('<data class="error" message="m"><other/></data>'), "unexpected content"),
        ("<errorpacket><x/></errorpacket>", "unexpected content"),
        ("<prepared roomId='r'><code/></prepared>", "unknown element"),
        ("<join/>", "unknown message"),  # a client message sent to a client
    ],
)
def test_client_side_protocol_errors(xml: str, reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        client_event(xml)
    assert reason in caught.value.reason
