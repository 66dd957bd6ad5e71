"""The Kettle protocol as Gauntlet speaks it (JSON in length-prefixed frames), sans-I/O.

Feed bytes, get messages; send a message, get bytes. The server side:

>>> from protocols.kettle import (ServerConnection, ClientConnection, QueuePlayer,
...     GameJoined, Refused, NEED_DATA)
>>> server = ServerConnection()
>>> server.receive_data(ClientConnection().send(QueuePlayer(account_name="bot")))
>>> server.next_event()
QueuePlayer(account_name='bot', hero_id=None, cards=None)
>>> server.next_event()
NEED_DATA
>>> frame = server.send(GameJoined("g1", 1))
>>> int.from_bytes(frame[:4], "big") == len(frame) - 4
True
>>> frame[4:39]
b'{"type":"kettle:types/game_joined",'

**Frames.** A 4-byte big-endian unsigned length (the byte count of the body), then the
body: UTF-8 JSON, either one message object or a non-empty array of message objects (a
*batch*, one event per object). Reads are exact across any split of the byte stream.
Writing is compact JSON (``separators=(",", ":")``, ``ensure_ascii=False``), one
``json`` call per frame; ``send_batch`` / ``encode_batch`` put several messages in one
frame.

**Limits** (``protocols.base.Limits``): ``max_message_bytes`` caps a frame body (checked
on the length prefix, before the body is buffered), ``max_depth`` the nesting of arrays
and objects (checked before ``json.loads``, without recursion), ``max_buffered_bytes``
the unread bytes. ``SERVER_LIMITS`` (the server's default): 1 MiB, 32, 2 MiB.
``CLIENT_LIMITS`` (a bot's default): 16 MiB, 256, 32 MiB.

**Refusals.** Anything refused becomes a ``Refused(nack, close)`` event: the ``nack`` to
send and whether to close the connection afterwards. Reason codes and which of them close:
``protocols.kettle.reasons``. An oversize, truncated or unparseable frame closes (the codec
then refuses further input); an invalid message inside a good frame is only nacked.

**Envelope.** ``{"type": "kettle:types/<name>", "<name>": <body>}``. Unknown fields are
ignored; an absent body counts as ``{}``.

Client to server (what ``ServerConnection.next_event`` returns):

- ``queue_player {account_name?, heroID?, cards?}`` -> ``QueuePlayer(account_name,
  hero_id, cards)``: join any open game; ``cards`` exactly 30 card ids.
- ``join_game {gameID, password}`` -> ``JoinGame(game_id, password)``: a reserved seat.
- ``get_game_state {}`` -> ``GetGameState()``: everything visible so far.
- ``choose_entities {choiceID, entities[]}`` -> ``ChooseEntities(choice_id, entities)``.
- ``choose_option {optionsID, option_index, target?, sub_option_index?, position?}`` ->
  ``ChooseOption(options_id, option_index, target, sub_option_index, position)``;
  ``position`` in ``0..10``.
- ``concede {}`` -> ``Concede()``.

Server to client (what ``ServerConnection.send`` takes):

- ``game_joined {gameID, playerID, spectating, board, max_secrets_per_player,
  max_friendly_minions_per_player}`` -> ``GameJoined(...)``, same order.
- ``history_block [entry, ...]`` -> ``HistoryBlock(entries)``: the engine's history
  entries (``games.hearth.history``, seed 000's format), passed through untouched.
- ``entity_choices {choiceID, choice_type, playerID, source, count_min, count_max,
  entities[], hide_chosen}`` -> ``EntityChoices(...)``, same order; ``choice_type``
  ``CHOICE_MULLIGAN`` 1 or ``CHOICE_GENERAL`` 2.
- ``options {optionsID, options: [{type, main_option?: {entityID, targets[]},
  sub_options?: [{entityID, targets[]}]}]}`` -> ``Options(options_id, (Option(type,
  main_option, sub_options), ...))`` with ``OptionEntity(entity_id, targets)``;
  ``type`` is ``hearthstone.enums.OptionType``: ``OPTION_END_TURN`` 2, ``OPTION_POWER`` 3.
- ``ack {acknowledged_object}`` -> ``Ack(acknowledged_object)``.
- ``nack {not_acknowledged_object, reason, message}`` -> ``Nack(...)``, same order.
- ``game_finished {gameID, winners[], losers[], result}`` -> ``GameFinished(...)``;
  winners and losers are playerIDs.

Ids, indices and counts are integers in ``0..2**31-1``; booleans are JSON booleans.
A bot's side is ``ClientConnection`` (parses server messages, writes client messages).

>>> client = ClientConnection()
>>> client.receive_data(b"\\x00\\x00\\x00\\x05[1,2]")
>>> client.next_event()  # doctest: +ELLIPSIS
Refused(nack=Nack(not_acknowledged_object='', reason='bad_body', message=...), close=True)
"""

from protocols.base import (
    NEED_DATA,
    ConnectionClosed,
    Limits,
    LocalProtocolError,
    NeedData,
    ProtocolError,
)
from protocols.kettle.connection import (
    CLIENT_LIMITS,
    SERVER_LIMITS,
    ClientConnection,
    KettleConnection,
    Refused,
    ServerConnection,
    encode,
    encode_batch,
)
from protocols.kettle.messages import (
    CHOICE_GENERAL,
    CHOICE_MULLIGAN,
    DECK_SIZE,
    MAX_ID,
    MAX_POSITION,
    OPTION_END_TURN,
    OPTION_PASS,
    OPTION_POWER,
    Ack,
    ChooseEntities,
    ChooseOption,
    ClientMessage,
    Concede,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    HistoryEntry,
    JoinGame,
    Message,
    Nack,
    Option,
    OptionEntity,
    Options,
    QueuePlayer,
    ServerMessage,
    decode_client,
    decode_server,
)
from protocols.kettle.reasons import KettleError

__all__ = [
    "CHOICE_GENERAL",
    "CHOICE_MULLIGAN",
    "CLIENT_LIMITS",
    "DECK_SIZE",
    "MAX_ID",
    "MAX_POSITION",
    "NEED_DATA",
    "OPTION_END_TURN",
    "OPTION_PASS",
    "OPTION_POWER",
    "SERVER_LIMITS",
    "Ack",
    "ChooseEntities",
    "ChooseOption",
    "ClientConnection",
    "ClientMessage",
    "Concede",
    "ConnectionClosed",
    "EntityChoices",
    "GameFinished",
    "GameJoined",
    "GetGameState",
    "HistoryBlock",
    "HistoryEntry",
    "JoinGame",
    "KettleConnection",
    "KettleError",
    "Limits",
    "LocalProtocolError",
    "Message",
    "Nack",
    "NeedData",
    "Option",
    "OptionEntity",
    "Options",
    "ProtocolError",
    "QueuePlayer",
    "Refused",
    "ServerConnection",
    "ServerMessage",
    "decode_client",
    "decode_server",
    "encode",
    "encode_batch",
]
