"""Messages to XML nodes and XML elements to messages, in both directions.

The encoders build ``xmltree.Node`` trees in the official server's element and attribute
order; the decoders are strict where the official server is (unknown elements, unknown
classes, bad enum values and unparseable numbers are ``ProtocolError``) and tolerant
where it costs nothing (unknown attributes are ignored, as XStream ignores them; a
missing ``rotation``/``isFlipped`` means NONE/false; the move class may be an alias).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from games.blokus import COLORS, ROTATIONS, SHAPES, SetMove, SkipMove
from protocols.base import ProtocolError
from protocols.sc import blokus
from protocols.sc.blokus import children, element_text, parse_bool, parse_int, require
from protocols.sc.messages import (
    TEAMS,
    Authenticate,
    Cancel,
    ClientMessage,
    Close,
    ErrorPacket,
    Join,
    Joined,
    JoinedGameRoom,
    JoinPrepared,
    JoinRoom,
    Left,
    Memento,
    MoveRequest,
    Observe,
    Observed,
    Pause,
    Paused,
    PlayerScore,
    Prepare,
    Prepared,
    Result,
    RoomError,
    RoomPacket,
    ScoreFragment,
    ServerMessage,
    Slot,
    Step,
    UnknownData,
    Welcome,
    Winner,
)
from protocols.sc.xmltree import Node, parse_message, render

__all__ = [
    "ROOM_DATA_CLASSES",
    "decode_client",
    "decode_server",
    "encode_client",
    "encode_server",
    "node_from_element",
]

# `<data class="..">` values the official server can instantiate as a room message but
# that are not moves: the server answers them with an errorpacket, not a disconnect.
ROOM_DATA_CLASSES = frozenset(
    {"welcomeMessage", "memento", "moveRequest", "error", "result", "paused"}
)

_MAX_SLOTS = 16
_MAX_RESERVATIONS = 16
_MAX_SCORES = 16
_MAX_PARTS = 16


def _bool(value: bool) -> str:
    return "true" if value else "false"


# --- client messages -------------------------------------------------------------------


def encode_client(message: ClientMessage) -> Node:
    """The XML of a client-to-server message."""
    match message:
        case Join(game_type=None):
            return Node("join")
        case Join(game_type=game_type):
            return Node("join", [("gameType", str(game_type))])
        case JoinRoom(room_id=room_id):
            return Node("joinRoom", [("roomId", room_id)])
        case JoinPrepared(reservation_code=code):
            return Node("joinPrepared", [("reservationCode", code)])
        case Authenticate(password=password):
            return Node("authenticate", [("password", password)])
        case Prepare(game_type=game_type, pause=pause, slots=slots):
            return Node(
                "prepare",
                [("gameType", game_type), ("pause", _bool(pause))],
                [
                    Node(
                        "slot",
                        [
                            ("displayName", slot.display_name),
                            ("canTimeout", _bool(slot.can_timeout)),
                            ("reserved", _bool(slot.reserved)),
                        ],
                    )
                    for slot in slots
                ],
            )
        case Observe(room_id=room_id):
            return Node("observe", [("roomId", room_id)])
        case Pause(room_id=room_id, pause=pause):
            return Node("pause", [("roomId", room_id), ("pause", _bool(pause))])
        case Step(room_id=room_id, forced=forced):
            return Node("step", [("roomId", room_id), ("forced", _bool(forced))])
        case Cancel(room_id=room_id):
            return Node("cancel", [("roomId", room_id)])
        case Close():
            return Node("close")
        case RoomPacket(room_id=room_id, data=UnknownData() as data):
            return Node("room", [("roomId", room_id)], [_unknown_data_node(data)])
        case RoomPacket(room_id=room_id, data=SetMove() | SkipMove() as move):
            return Node("room", [("roomId", room_id)], [blokus.move_node("data", move)])
    raise TypeError(f"not a client message: {message!r}")


def _unknown_data_node(data: UnknownData) -> Node:
    if data.xml:
        try:
            element = parse_message(data.xml.encode("utf-8"))
        except ProtocolError:
            element = None
        if element is not None and element.tag == "data":
            return node_from_element(element)
    return Node("data", [("class", data.class_name)])


def node_from_element(element: etree._Element) -> Node:
    """Convert a parsed element back to a writable node (attribute order kept)."""
    kids = children(element)
    text = (
        None if kids else (element.text.strip() if element.text and element.text.strip() else None)
    )
    return Node(
        str(element.tag),
        [(str(name), str(value)) for name, value in element.attrib.items()],
        [node_from_element(kid) for kid in kids],
        text,
    )


def _no_children(element: etree._Element) -> None:
    if children(element):
        raise ProtocolError(f"unknown element <{children(element)[0].tag}> in <{element.tag}>")


def _decode_join(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Join(element.get("gameType"))


def _decode_join_room(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return JoinRoom(require(element, "roomId"))


def _decode_join_prepared(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return JoinPrepared(require(element, "reservationCode"))


def _decode_authenticate(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Authenticate(require(element, "password"))


def _decode_prepare(element: etree._Element) -> ClientMessage:
    slots: list[Slot] = []
    for child in children(element):
        if child.tag != "slot":
            raise ProtocolError(f"unknown element <{child.tag}> in <prepare>")
        _no_children(child)
        if len(slots) >= _MAX_SLOTS:
            raise ProtocolError(f"more than {_MAX_SLOTS} slots")
        slots.append(
            Slot(
                display_name=child.get("displayName", ""),
                can_timeout=parse_bool(child.get("canTimeout", "true"), "canTimeout"),
                reserved=parse_bool(child.get("reserved", "true"), "reserved"),
            )
        )
    return Prepare(
        game_type=require(element, "gameType"),
        pause=parse_bool(element.get("pause", "false"), "pause"),
        slots=tuple(slots),
    )


def _decode_observe(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Observe(require(element, "roomId"))


def _decode_pause(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Pause(require(element, "roomId"), parse_bool(require(element, "pause"), "pause"))


def _decode_step(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Step(require(element, "roomId"), parse_bool(element.get("forced", "false"), "forced"))


def _decode_cancel(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Cancel(require(element, "roomId"))


def _decode_close(element: etree._Element) -> ClientMessage:
    _no_children(element)
    return Close()


def _decode_room_packet(element: etree._Element) -> ClientMessage:
    room_id = require(element, "roomId")
    data = _single_data(element)
    class_name = data.get("class")
    if class_name is None:
        raise ProtocolError("<data> without a class")
    kind = blokus.move_class_kind(class_name)
    if kind is not None:
        return RoomPacket(room_id, blokus.move_from_element(data, kind))
    if class_name in ROOM_DATA_CLASSES:
        xml = render(node_from_element(data))
        return RoomPacket(room_id, UnknownData(class_name, xml))
    raise ProtocolError(f"unknown data class {class_name[:60]!r}")


# The standard SetMove, as our bot kit, socha and the official clients write it (any XML
# whitespace between the tags, attributes in this order, plain values): parsed without
# lxml. Anything else, however slightly different, takes the full path below.
_XML_SPACE = rb"[ \t\r\n]*"
_STANDARD_SET_MOVE = re.compile(
    rb'<room roomId="([A-Za-z0-9_.:-]*)">' + _XML_SPACE
    + rb'<data class="sc\.plugin2027\.SetMove">' + _XML_SPACE
    + rb'<piece color="([A-Z]+)" kind="([A-Z_]+)" rotation="([A-Z_]+)" isFlipped="(true|false)">'
    + _XML_SPACE + rb'<position x="(0|[1-9][0-9]?)" y="(0|[1-9][0-9]?)"/>' + _XML_SPACE
    + rb"</piece>" + _XML_SPACE + rb"</data>" + _XML_SPACE + rb"</room>"
)
_STANDARD_SKIP_MOVE = re.compile(
    rb'<room roomId="([A-Za-z0-9_.:-]*)">' + _XML_SPACE
    + rb'<data class="sc\.plugin2027\.SkipMove">' + _XML_SPACE
    + rb"<color>([A-Z]+)</color>" + _XML_SPACE + rb"</data>" + _XML_SPACE + rb"</room>"
)
_COLOR_NAMES = {name.encode(): name for name in COLORS}
_SHAPE_NAMES = {name.encode(): name for name in SHAPES}
_ROTATION_NAMES = {name.encode(): name for name in ROTATIONS}


_LEADING_SPACE = re.compile(_XML_SPACE)


def take_standard_move(data: bytes | bytearray) -> tuple[ClientMessage, int] | None:
    """A standard SetMove or SkipMove at the front of `data` (after XML whitespace), and
    where it ends; None when `data` does not start with one (complete).

    >>> take_standard_move(b'\\n  <room roomId="r"><data class="sc.plugin2027.SkipMove">'
    ...     b'<color>RED</color></data></room>\\n  <room')
    (RoomPacket(room_id='r', data=SkipMove('RED')), 89)
    """
    start = _LEADING_SPACE.match(data).end()  # type: ignore[union-attr]  # matches always
    found = _STANDARD_SET_MOVE.match(data, start)
    if found is not None:
        message = _set_move_of(found)
    else:
        found = _STANDARD_SKIP_MOVE.match(data, start)
        if found is None:
            return None
        message = _skip_move_of(found)
    return None if message is None else (message, found.end())


def decode_standard_move(data: bytes) -> ClientMessage | None:
    """The room packet of a standard SetMove or SkipMove without lxml; None: use
    `decode_client`.

    >>> decode_standard_move(b'<room roomId="r"><data class="sc.plugin2027.SetMove">'
    ...     b'<piece color="RED" kind="MONO" rotation="NONE" isFlipped="false">'
    ...     b'<position x="3" y="0"/></piece></data></room>')
    RoomPacket(room_id='r', data=SetMove('RED', 'MONO', rotation='NONE', flipped=False, x=3, y=0))
    """
    found = _STANDARD_SET_MOVE.fullmatch(data)
    if found is not None:
        return _set_move_of(found)
    found = _STANDARD_SKIP_MOVE.fullmatch(data)  # a colour that cannot place passes
    return None if found is None else _skip_move_of(found)


def _set_move_of(found: re.Match[bytes]) -> ClientMessage | None:
    room_id, color, kind, rotation, flipped, x, y = found.groups()
    color_name = _COLOR_NAMES.get(color)
    shape = _SHAPE_NAMES.get(kind)
    rotation_name = _ROTATION_NAMES.get(rotation)
    if color_name is None or shape is None or rotation_name is None:
        return None  # the full path says what is wrong
    try:
        move = SetMove(color_name, shape, rotation=rotation_name, flipped=flipped == b"true",
                       x=int(x), y=int(y))
    except (TypeError, ValueError):
        return None
    return RoomPacket(room_id.decode("ascii"), move)


def _skip_move_of(found: re.Match[bytes]) -> ClientMessage | None:
    color = _COLOR_NAMES.get(found.group(2))
    return None if color is None else RoomPacket(found.group(1).decode("ascii"), SkipMove(color))


def _single_data(element: etree._Element) -> etree._Element:
    kids = children(element)
    if len(kids) != 1 or kids[0].tag != "data":
        raise ProtocolError(f"<{element.tag}> must contain exactly one <data>")
    return kids[0]


_CLIENT_DECODERS: dict[str, Callable[[etree._Element], ClientMessage]] = {
    "join": _decode_join,
    "joinRoom": _decode_join_room,
    "joinPrepared": _decode_join_prepared,
    "authenticate": _decode_authenticate,
    "prepare": _decode_prepare,
    "observe": _decode_observe,
    "pause": _decode_pause,
    "step": _decode_step,
    "cancel": _decode_cancel,
    "close": _decode_close,
    "room": _decode_room_packet,
}


def decode_client(element: etree._Element) -> ClientMessage:
    """Parse a client-to-server message; unknown elements are ``ProtocolError``."""
    decoder = _CLIENT_DECODERS.get(element.tag) if isinstance(element.tag, str) else None
    if decoder is None:
        raise ProtocolError(f"unknown message <{str(element.tag)[:60]}>")
    return decoder(element)


# --- server messages -------------------------------------------------------------------


def _room(room_id: str, data: Node) -> Node:
    return Node("room", [("roomId", room_id)], [data])


def encode_server(message: ServerMessage) -> Node:
    """The XML of a server-to-client message."""
    match message:
        case Close():
            return Node("close")
        case Joined(room_id=room_id):
            return Node("joined", [("roomId", room_id)])
        case Left(room_id=room_id):
            return Node("left", [("roomId", room_id)])
        case JoinedGameRoom(room_id=room_id, player_count=count):
            return Node("joinedGameRoom", [("roomId", room_id), ("playerCount", str(count))])
        case Observed(room_id=room_id):
            return Node("observed", [("roomId", room_id)])
        case Prepared(room_id=room_id, reservations=reservations):
            return Node(
                "prepared",
                [("roomId", room_id)],
                [Node("reservation", text=code) for code in reservations],
                expanded=True,
            )
        case ErrorPacket(message=text, original_request=original):
            node = Node("errorpacket", [("message", text)], expanded=True)
            if original is not None:
                request = encode_client(original)
                request.attrs.insert(0, ("class", request.tag))
                request.tag = "originalRequest"
                node.children.append(request)
            return node
        case Welcome(room_id=room_id, team=team):
            return _room(room_id, Node("data", [("class", "welcomeMessage"), ("color", team)]))
        case Memento(room_id=room_id, state=state):
            return _room(room_id, Node("data", [("class", "memento")], [blokus.state_node(state)]))
        case MoveRequest(room_id=room_id):
            return _room(room_id, Node("data", [("class", "moveRequest")]))
        case RoomError(room_id=room_id, message=text, original=original):
            data = Node("data", [("class", "error"), ("message", text)])
            if original is not None:
                data.children.append(blokus.move_node("originalMessage", original))
            return _room(room_id, data)
        case Result():
            return _room(message.room_id, _result_node(message))
        case Paused(room_id=room_id, paused=paused):
            return _room(room_id, Node("data", [("class", "paused"), ("paused", _bool(paused))]))
    raise TypeError(f"not a server message: {message!r}")


def _result_node(result: Result) -> Node:
    definition = Node(
        "definition",
        children=[
            Node(
                "fragment",
                [("name", fragment.name)],
                [
                    Node("aggregation", text=fragment.aggregation),
                    Node("relevantForRanking", text=_bool(fragment.relevant_for_ranking)),
                ],
            )
            for fragment in result.definition
        ],
    )
    entries = []
    for score in result.scores:
        player_attrs = [("name", score.name)] if score.name.strip() else []
        player_attrs.append(("team", score.team))
        entries.append(
            Node(
                "entry",
                children=[
                    Node("player", player_attrs),
                    Node("score", children=[Node("part", text=str(part)) for part in score.parts]),
                ],
            )
        )
    body = [definition, Node("scores", children=entries)]
    if result.winner is not None:
        winner_attrs = [] if result.winner.team is None else [("team", result.winner.team)]
        winner_attrs += [
            ("regular", _bool(result.winner.regular)),
            ("reason", result.winner.reason),
        ]
        body.append(Node("winner", winner_attrs))
    return Node("data", [("class", "result")], body)


def _room_id_only(element: etree._Element) -> str:
    _no_children(element)
    return require(element, "roomId")


def _decode_prepared(element: etree._Element) -> ServerMessage:
    codes: list[str] = []
    for child in children(element):
        if child.tag != "reservation":
            raise ProtocolError(f"unknown element <{child.tag}> in <prepared>")
        if len(codes) >= _MAX_RESERVATIONS:
            raise ProtocolError("too many reservations")
        codes.append(element_text(child))
    return Prepared(require(element, "roomId"), tuple(codes))


def _decode_errorpacket(element: etree._Element) -> ServerMessage:
    original: ClientMessage | None = None
    kids = children(element)
    if len(kids) > 1 or (kids and kids[0].tag != "originalRequest"):
        raise ProtocolError("unexpected content in <errorpacket>")
    if kids:
        request = kids[0]
        class_name = request.get("class")
        if class_name in _CLIENT_DECODERS:
            # One attribute at a time: lxml's stubs type attribute names as str | bytes,
            # which Element()'s dict argument refuses; set() takes either.
            copy = etree.Element(class_name)
            for key, value in request.attrib.items():
                if key != "class":
                    copy.set(key, value)
            copy.extend(children(request))
            try:
                original = decode_client(copy)
            except ProtocolError:
                original = None  # the request was broken; the message still matters
    return ErrorPacket(require(element, "message"), original)


def _decode_room_message(element: etree._Element) -> ServerMessage:
    room_id = require(element, "roomId")
    data = _single_data(element)
    class_name = data.get("class")
    if class_name == "welcomeMessage":
        _no_children(data)
        team = require(data, "color")
        if team not in TEAMS:
            raise ProtocolError(f"unknown team {team[:40]!r}")
        return Welcome(room_id, team)
    if class_name == "memento":
        kids = children(data)
        if len(kids) != 1 or kids[0].tag != "state":
            raise ProtocolError('<data class="memento"> must contain one <state>')
        return Memento(room_id, blokus.state_from_element(kids[0]))
    if class_name == "moveRequest":
        _no_children(data)
        return MoveRequest(room_id)
    if class_name == "paused":
        _no_children(data)
        return Paused(room_id, parse_bool(require(data, "paused"), "paused"))
    if class_name == "error":
        original = None
        kids = children(data)
        if len(kids) > 1 or (kids and kids[0].tag != "originalMessage"):
            raise ProtocolError('unexpected content in <data class="error">')
        if kids:
            kind = blokus.move_class_kind(kids[0].get("class"))
            if kind is not None:
                original = blokus.move_from_element(kids[0], kind)
        return RoomError(room_id, require(data, "message"), original)
    if class_name == "result":
        return _decode_result(room_id, data)
    raise ProtocolError(f"unknown data class {str(class_name)[:60]!r}")


def _decode_result(room_id: str, data: etree._Element) -> Result:
    definition: list[ScoreFragment] = []
    scores: list[PlayerScore] = []
    winner: Winner | None = None
    for part in children(data):
        if part.tag == "definition":
            for fragment in children(part):
                if fragment.tag != "fragment" or len(definition) >= _MAX_PARTS:
                    raise ProtocolError("bad <definition>")
                fields = {child.tag: element_text(child) for child in children(fragment)}
                definition.append(
                    ScoreFragment(
                        require(fragment, "name"),
                        fields.get("aggregation", "SUM"),
                        parse_bool(fields.get("relevantForRanking", "true"), "relevantForRanking"),
                    )
                )
        elif part.tag == "scores":
            for entry in children(part):
                if entry.tag != "entry" or len(scores) >= _MAX_SCORES:
                    raise ProtocolError("bad <scores>")
                scores.append(_decode_entry(entry))
        elif part.tag == "winner":
            team = part.get("team")
            if team is not None and team not in TEAMS:
                raise ProtocolError(f"unknown team {team[:40]!r}")
            winner = Winner(
                reason=part.get("reason", ""),
                regular=parse_bool(part.get("regular", "true"), "regular"),
                team=team,
            )
        else:
            raise ProtocolError(f"unknown element <{part.tag}> in result")
    return Result(room_id, tuple(scores), winner, tuple(definition))


def _decode_entry(entry: etree._Element) -> PlayerScore:
    player = score = None
    for child in children(entry):
        if child.tag == "player":
            player = child
        elif child.tag == "score":
            score = child
        else:
            raise ProtocolError(f"unknown element <{child.tag}> in <entry>")
    if player is None or score is None:
        raise ProtocolError("<entry> needs <player> and <score>")
    parts: list[int] = []
    for part in children(score):
        if part.tag != "part" or len(parts) >= _MAX_PARTS:
            raise ProtocolError("bad <score>")
        parts.append(parse_int(element_text(part), "part"))
    return PlayerScore(require(player, "team"), tuple(parts), player.get("name", ""))


_SERVER_DECODERS: dict[str, Callable[[etree._Element], ServerMessage]] = {
    "close": _decode_close,  # type: ignore[dict-item]  # Close is in both unions
    "joined": lambda element: Joined(_room_id_only(element)),
    "left": lambda element: Left(_room_id_only(element)),
    "observed": lambda element: Observed(_room_id_only(element)),
    "joinedGameRoom": lambda element: JoinedGameRoom(
        _room_id_only(element), parse_int(require(element, "playerCount"), "playerCount")
    ),
    "prepared": _decode_prepared,
    "errorpacket": _decode_errorpacket,
    "room": _decode_room_message,
}


def decode_server(element: etree._Element) -> ServerMessage:
    """Parse a server-to-client message; unknown elements are ``ProtocolError``."""
    decoder = _SERVER_DECODERS.get(element.tag) if isinstance(element.tag, str) else None
    if decoder is None:
        raise ProtocolError(f"unknown message <{str(element.tag)[:60]}>")
    return decoder(element)
