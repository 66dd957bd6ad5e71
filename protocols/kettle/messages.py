"""Every Kettle message as a frozen dataclass, with its JSON envelope.

On the wire a message is ``{"type": "kettle:types/<name>", "<name>": <body>}``; the body
is an object (a list for ``history_block``). Field names on the wire are the wiki's
(``gameID``, ``optionsID``, ``entityID``, ``option_index``); the Python names are
snake_case (``game_id``, ``options_id``, ``entity_id``, ``option_index``).

``to_dict()`` gives the envelope, ready for ``json``; ``decode_client`` / ``decode_server``
validate a decoded JSON object and build the message, raising ``KettleError`` with the
nack reason (``unknown_type``, ``missing_field``, ``wrong_type``, ``out_of_range``,
``bad_envelope``). Constructors trust their caller and validate nothing (the server
builds messages from its own state, often); decoding validates everything but deck
*content*, which is the server's business. Unknown fields are ignored, absent or
``null`` optional fields are ``None``, and ``to_dict`` leaves ``None`` fields out.

>>> message = decode_client({"type": "kettle:types/choose_option",
...                          "choose_option": {"optionsID": 3, "option_index": 1, "target": 5}})
>>> message
ChooseOption(options_id=3, option_index=1, target=5, sub_option_index=None, position=None)
>>> message.to_dict()
{'type': 'kettle:types/choose_option', 'choose_option': {'optionsID': 3, 'option_index': 1, \
'target': 5}}
>>> decode_client({"type": "kettle:types/choose_option", "choose_option": {"optionsID": 3}})
Traceback (most recent call last):
...
protocols.kettle.reasons.KettleError: choose_option.option_index is required
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from protocols.kettle.reasons import (
    BAD_ENVELOPE,
    MISSING_FIELD,
    OUT_OF_RANGE,
    UNKNOWN_TYPE,
    WRONG_TYPE,
    KettleError,
)

__all__ = [
    "CHOICE_GENERAL",
    "CHOICE_MULLIGAN",
    "DECK_SIZE",
    "HISTORY_PREFIX",
    "MAX_ID",
    "MAX_POSITION",
    "OPTION_END_TURN",
    "OPTION_PASS",
    "OPTION_POWER",
    "PREFIX",
    "Ack",
    "ChooseEntities",
    "ChooseOption",
    "ClientMessage",
    "Concede",
    "EntityChoices",
    "GameFinished",
    "GameJoined",
    "GetGameState",
    "HistoryBlock",
    "HistoryEntry",
    "JoinGame",
    "Message",
    "Nack",
    "Option",
    "OptionEntity",
    "Options",
    "QueuePlayer",
    "ServerMessage",
    "decode_client",
    "decode_server",
]

PREFIX: Final = "kettle:types/"
HISTORY_PREFIX: Final = "kettle:types/history/"
MAX_ID: Final = 2**31 - 1
"""Ids, indices and counts are non-negative 32-bit integers (the C# peers' ``int``)."""
DECK_SIZE: Final = 30
MAX_POSITION: Final = 10
"""``choose_option.position`` is a board index, ``0..MAX_POSITION`` (the wiki's range)."""

# hearthstone.enums.OptionType and ChoiceType (tests check them against the package).
OPTION_PASS: Final = 1
OPTION_END_TURN: Final = 2
OPTION_POWER: Final = 3
CHOICE_MULLIGAN: Final = 1
CHOICE_GENERAL: Final = 2

HistoryEntry = dict[str, Any]
"""One history entry exactly as ``games.hearth.history`` produces it (passed through)."""

_MAX_ECHO = 100  # characters of a peer's text quoted back in a nack


# -- validation helpers -------------------------------------------------------------------


def _short(text: str) -> str:
    """A peer's text as we may echo it: at most ``_MAX_ECHO`` characters, and always
    encodable (lone surrogates become ``\\udXXX`` escapes), so a nack repeating it can
    always be sent.

    >>> _short("x" + chr(0xD800))
    'x\\\\ud800'
    """
    text = text if len(text) <= _MAX_ECHO else text[:_MAX_ECHO] + "..."
    return _sendable(text)


def _sendable(text: str) -> str:
    """``text`` with everything UTF-8 cannot carry (lone surrogates) backslash-escaped.

    >>> _sendable("ok"), _sendable(chr(0xDFFF))
    ('ok', '\\\\udfff')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object"


class _Reader:
    """Typed reads from one JSON object; every refusal names the field's path."""

    __slots__ = ("_data", "_path", "_type")

    def __init__(self, data: object, path: str, type_: str) -> None:
        if not isinstance(data, dict):
            raise KettleError(WRONG_TYPE, f"{path}: expected an object, got {_kind(data)}", type_)
        self._data: dict[str, Any] = data
        self._path = path
        self._type = type_

    def _required(self, key: str) -> object:
        value = self._data.get(key)
        if value is None:
            raise KettleError(MISSING_FIELD, f"{self._path}.{key} is required", self._type)
        return value

    def _wrong(self, path: str, expected: str, value: object) -> KettleError:
        return KettleError(
            WRONG_TYPE, f"{path}: expected {expected}, got {_kind(value)}", self._type
        )

    def _int(self, path: str, value: object, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._wrong(path, "an integer", value)
        if not low <= value <= high:
            raise KettleError(OUT_OF_RANGE, f"{path}: {value} is outside {low}..{high}", self._type)
        return value

    def _str(self, path: str, value: object) -> str:
        if not isinstance(value, str):
            raise self._wrong(path, "a string", value)
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise KettleError(
                    WRONG_TYPE, f"{path}: a lone surrogate is not text", self._type
                ) from None
        return value

    def _list(self, path: str, value: object) -> list[Any]:
        if not isinstance(value, list):
            raise self._wrong(path, "an array", value)
        return value

    # -- the reads

    def integer(self, key: str, low: int = 0, high: int = MAX_ID) -> int:
        return self._int(f"{self._path}.{key}", self._required(key), low, high)

    def opt_integer(self, key: str, low: int = 0, high: int = MAX_ID) -> int | None:
        value = self._data.get(key)
        return None if value is None else self._int(f"{self._path}.{key}", value, low, high)

    def text(self, key: str) -> str:
        return self._str(f"{self._path}.{key}", self._required(key))

    def opt_text(self, key: str, default: str | None = None) -> str | None:
        value = self._data.get(key)
        return default if value is None else self._str(f"{self._path}.{key}", value)

    def flag(self, key: str) -> bool:
        value = self._required(key)
        if not isinstance(value, bool):
            raise self._wrong(f"{self._path}.{key}", "a boolean", value)
        return value

    def integers(self, key: str, required: bool = True) -> tuple[int, ...]:
        value = self._required(key) if required else self._data.get(key)
        if value is None:
            return ()
        path = f"{self._path}.{key}"
        items = self._list(path, value)
        return tuple(self._int(f"{path}[{i}]", item, 0, MAX_ID) for i, item in enumerate(items))

    def texts(self, key: str, length: int) -> tuple[str, ...] | None:
        value = self._data.get(key)
        if value is None:
            return None
        path = f"{self._path}.{key}"
        items = self._list(path, value)
        if len(items) != length:
            raise KettleError(
                OUT_OF_RANGE, f"{path}: {len(items)} items, expected {length}", self._type
            )
        return tuple(self._str(f"{path}[{i}]", item) for i, item in enumerate(items))

    def objects(self, key: str, required: bool = True) -> list[_Reader]:
        value = self._required(key) if required else self._data.get(key)
        if value is None:
            return []
        path = f"{self._path}.{key}"
        items = self._list(path, value)
        return [_Reader(item, f"{path}[{i}]", self._type) for i, item in enumerate(items)]

    def opt_object(self, key: str) -> _Reader | None:
        value = self._data.get(key)
        return None if value is None else _Reader(value, f"{self._path}.{key}", self._type)


_ABSENT: Final = object()


def _body(name: str, body: object) -> _Reader:
    """The reader for a message body; an absent body is an empty object."""
    return _Reader({} if body is _ABSENT else body, name, PREFIX + name)


def _envelope(name: str, body: object) -> dict[str, Any]:
    return {"type": PREFIX + name, name: body}


# -- client -> server ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueuePlayer:
    """Join any open game (``queue_player``), optionally with a deck.

    ``hero_id`` is the hero's card id, ``cards`` exactly ``DECK_SIZE`` card ids (their
    content is checked by the server: nack ``invalid_deck``).

    >>> QueuePlayer(account_name="bot").to_dict()
    {'type': 'kettle:types/queue_player', 'queue_player': {'account_name': 'bot'}}
    """

    NAME: ClassVar[str] = "queue_player"
    account_name: str | None = None
    hero_id: str | None = None
    cards: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if self.account_name is not None:
            body["account_name"] = self.account_name
        if self.hero_id is not None:
            body["heroID"] = self.hero_id
        if self.cards is not None:
            body["cards"] = list(self.cards)
        return _envelope(self.NAME, body)

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.opt_text("account_name"), read.opt_text("heroID"), read.texts("cards", DECK_SIZE)
        )


@dataclass(frozen=True, slots=True)
class JoinGame:
    """Take a reserved seat (``join_game``): game id and password from the HTTP API.

    >>> JoinGame("g1", "secret").to_dict()
    {'type': 'kettle:types/join_game', 'join_game': {'gameID': 'g1', 'password': 'secret'}}
    """

    NAME: ClassVar[str] = "join_game"
    game_id: str
    password: str

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, {"gameID": self.game_id, "password": self.password})

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(read.text("gameID"), read.text("password"))


@dataclass(frozen=True, slots=True)
class GetGameState:
    """Ask for everything this player may see so far (answered by a ``history_block``).

    >>> GetGameState().to_dict()
    {'type': 'kettle:types/get_game_state', 'get_game_state': {}}
    """

    NAME: ClassVar[str] = "get_game_state"

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, {})

    @classmethod
    def from_body(cls, body: object) -> Self:
        _body(cls.NAME, body)
        return cls()


@dataclass(frozen=True, slots=True)
class ChooseEntities:
    """Answer an ``entity_choices`` (mulligan: the cards to *replace*; discover: the pick).

    >>> ChooseEntities(1, (5, 7)).to_dict()
    {'type': 'kettle:types/choose_entities', 'choose_entities': {'choiceID': 1, 'entities': [5, 7]}}
    """

    NAME: ClassVar[str] = "choose_entities"
    choice_id: int
    entities: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, {"choiceID": self.choice_id, "entities": list(self.entities)})

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(read.integer("choiceID"), read.integers("entities"))


@dataclass(frozen=True, slots=True)
class ChooseOption:
    """Answer an ``options``: the option's index, and where needed its target entity,
    the sub-option (choose one) and the board position (minions, ``0..MAX_POSITION``).

    >>> ChooseOption(4, 0).to_dict()
    {'type': 'kettle:types/choose_option', 'choose_option': {'optionsID': 4, 'option_index': 0}}
    """

    NAME: ClassVar[str] = "choose_option"
    options_id: int
    option_index: int
    target: int | None = None
    sub_option_index: int | None = None
    position: int | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"optionsID": self.options_id, "option_index": self.option_index}
        if self.target is not None:
            body["target"] = self.target
        if self.sub_option_index is not None:
            body["sub_option_index"] = self.sub_option_index
        if self.position is not None:
            body["position"] = self.position
        return _envelope(self.NAME, body)

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.integer("optionsID"),
            read.integer("option_index"),
            read.opt_integer("target"),
            read.opt_integer("sub_option_index"),
            read.opt_integer("position", 0, MAX_POSITION),
        )


@dataclass(frozen=True, slots=True)
class Concede:
    """Give up the game (answered by the game's end).

    >>> Concede().to_dict()
    {'type': 'kettle:types/concede', 'concede': {}}
    """

    NAME: ClassVar[str] = "concede"

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, {})

    @classmethod
    def from_body(cls, body: object) -> Self:
        _body(cls.NAME, body)
        return cls()


# -- server -> client ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameJoined:
    """The answer to ``queue_player`` / ``join_game``: which game, which player.

    >>> GameJoined("g1", 2).to_dict()["game_joined"]
    {'gameID': 'g1', 'playerID': 2, 'spectating': False, 'board': 0, \
'max_secrets_per_player': 5, 'max_friendly_minions_per_player': 7}
    """

    NAME: ClassVar[str] = "game_joined"
    game_id: str
    player_id: int
    spectating: bool = False
    board: int = 0
    max_secrets_per_player: int = 5
    max_friendly_minions_per_player: int = 7

    def to_dict(self) -> dict[str, Any]:
        return _envelope(
            self.NAME,
            {
                "gameID": self.game_id,
                "playerID": self.player_id,
                "spectating": self.spectating,
                "board": self.board,
                "max_secrets_per_player": self.max_secrets_per_player,
                "max_friendly_minions_per_player": self.max_friendly_minions_per_player,
            },
        )

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.text("gameID"),
            read.integer("playerID"),
            read.flag("spectating"),
            read.integer("board"),
            read.integer("max_secrets_per_player"),
            read.integer("max_friendly_minions_per_player"),
        )


@dataclass(frozen=True, slots=True)
class HistoryBlock:
    """A flat list of history entries, passed through untouched (seed 000's format).

    ``entries`` is the engine's own list: ``to_dict`` does not copy it, so the server
    encodes a block with one ``json`` call. Decoding checks only that each entry is an
    object with a ``kettle:types/history/...`` type.

    >>> entry = {"type": "kettle:types/history/tag_change",
    ...          "tag_change": {"entityID": 1, "tag": 20, "value": 2}}
    >>> HistoryBlock([entry]).to_dict() == {"type": "kettle:types/history_block",
    ...                                     "history_block": [entry]}
    True
    """

    NAME: ClassVar[str] = "history_block"
    entries: list[HistoryEntry]

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, self.entries)

    @classmethod
    def from_body(cls, body: object) -> Self:
        type_ = PREFIX + cls.NAME
        if body is _ABSENT or body is None:
            raise KettleError(MISSING_FIELD, f"{cls.NAME} is required", type_)
        if not isinstance(body, list):
            raise KettleError(
                WRONG_TYPE, f"{cls.NAME}: expected an array, got {_kind(body)}", type_
            )
        for i, entry in enumerate(body):
            if not isinstance(entry, dict):
                raise KettleError(
                    WRONG_TYPE, f"{cls.NAME}[{i}]: expected an object, got {_kind(entry)}", type_
                )
            kind = entry.get("type")
            if not isinstance(kind, str) or not kind.startswith(HISTORY_PREFIX):
                raise KettleError(
                    WRONG_TYPE, f"{cls.NAME}[{i}].type: expected {HISTORY_PREFIX}<name>", type_
                )
        return cls(body)


@dataclass(frozen=True, slots=True)
class EntityChoices:
    """A choice among entities: the mulligan (``choice_type`` ``CHOICE_MULLIGAN``, the
    cards to replace) or a discover-like pick (``CHOICE_GENERAL``); answered by
    ``choose_entities`` with between ``count_min`` and ``count_max`` of ``entities``.

    >>> EntityChoices(1, CHOICE_MULLIGAN, 1, 2, 0, 3, (4, 5, 6)).to_dict()["entity_choices"]
    {'choiceID': 1, 'choice_type': 1, 'playerID': 1, 'source': 2, 'count_min': 0, \
'count_max': 3, 'entities': [4, 5, 6], 'hide_chosen': False}
    """

    NAME: ClassVar[str] = "entity_choices"
    choice_id: int
    choice_type: int
    player_id: int
    source: int
    count_min: int
    count_max: int
    entities: tuple[int, ...]
    hide_chosen: bool = False

    def to_dict(self) -> dict[str, Any]:
        return _envelope(
            self.NAME,
            {
                "choiceID": self.choice_id,
                "choice_type": self.choice_type,
                "playerID": self.player_id,
                "source": self.source,
                "count_min": self.count_min,
                "count_max": self.count_max,
                "entities": list(self.entities),
                "hide_chosen": self.hide_chosen,
            },
        )

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        message = cls(
            read.integer("choiceID"),
            read.integer("choice_type"),
            read.integer("playerID"),
            read.integer("source"),
            read.integer("count_min"),
            read.integer("count_max"),
            read.integers("entities"),
            read.flag("hide_chosen"),
        )
        if message.count_min > message.count_max:
            raise KettleError(
                OUT_OF_RANGE,
                f"{cls.NAME}: count_min {message.count_min} > count_max {message.count_max}",
                PREFIX + cls.NAME,
            )
        return message


@dataclass(frozen=True, slots=True)
class OptionEntity:
    """The entity an option plays or uses, and the targets it may take (``main_option``
    and each of ``sub_options``).

    >>> OptionEntity(12, (5, 6)).to_dict()
    {'entityID': 12, 'targets': [5, 6]}
    """

    entity_id: int
    targets: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"entityID": self.entity_id, "targets": list(self.targets)}

    @classmethod
    def _read(cls, read: _Reader) -> Self:
        return cls(read.integer("entityID"), read.integers("targets", required=False))


@dataclass(frozen=True, slots=True)
class Option:
    """One option: ``OPTION_END_TURN`` (nothing else) or ``OPTION_POWER`` with the card,
    hero power or attacker as ``main_option`` and choose-one variants as ``sub_options``.

    >>> Option(OPTION_END_TURN).to_dict()
    {'type': 2}
    """

    type: int
    main_option: OptionEntity | None = None
    sub_options: tuple[OptionEntity, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        option: dict[str, Any] = {"type": self.type}
        if self.main_option is not None:
            option["main_option"] = self.main_option.to_dict()
        if self.sub_options:
            option["sub_options"] = [sub.to_dict() for sub in self.sub_options]
        return option

    @classmethod
    def _read(cls, read: _Reader) -> Self:
        main = read.opt_object("main_option")
        return cls(
            read.integer("type"),
            None if main is None else OptionEntity._read(main),
            tuple(OptionEntity._read(sub) for sub in read.objects("sub_options", required=False)),
        )


@dataclass(frozen=True, slots=True)
class Options:
    """What the current player may do now; answered by ``choose_option`` with the index
    into ``options`` and the same ``options_id``.

    >>> Options(4, (Option(OPTION_END_TURN), Option(OPTION_POWER, OptionEntity(9)))).to_dict()
    {'type': 'kettle:types/options', 'options': {'optionsID': 4, 'options': [{'type': 2}, \
{'type': 3, 'main_option': {'entityID': 9, 'targets': []}}]}}
    """

    NAME: ClassVar[str] = "options"
    options_id: int
    options: tuple[Option, ...]

    def to_dict(self) -> dict[str, Any]:
        return _envelope(
            self.NAME,
            {
                "optionsID": self.options_id,
                "options": [option.to_dict() for option in self.options],
            },
        )

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.integer("optionsID"),
            tuple(Option._read(option) for option in read.objects("options")),
        )


@dataclass(frozen=True, slots=True)
class Ack:
    """A message was accepted (``acknowledged_object`` is its ``type``).

    >>> Ack("kettle:types/concede").to_dict()
    {'type': 'kettle:types/ack', 'ack': {'acknowledged_object': 'kettle:types/concede'}}
    """

    NAME: ClassVar[str] = "ack"
    acknowledged_object: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _envelope(self.NAME, {"acknowledged_object": self.acknowledged_object})

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(read.opt_text("acknowledged_object", "") or "")


@dataclass(frozen=True, slots=True)
class Nack:
    """A frame or message was refused: ``reason`` is a code from ``reasons``.

    >>> Nack("kettle:types/join_game", "no_such_game", "no game g9").to_dict()["nack"]
    {'not_acknowledged_object': 'kettle:types/join_game', 'reason': 'no_such_game', \
'message': 'no game g9'}
    """

    NAME: ClassVar[str] = "nack"
    not_acknowledged_object: str
    reason: str
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _envelope(
            self.NAME,
            {
                "not_acknowledged_object": self.not_acknowledged_object,
                "reason": self.reason,
                "message": self.message,
            },
        )

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.opt_text("not_acknowledged_object", "") or "",
            read.text("reason"),
            read.opt_text("message", "") or "",
        )

    @classmethod
    def from_error(cls, error: KettleError) -> Self:
        """The nack that answers a refusal of the codec.

        >>> Nack.from_error(KettleError("bad_json", "body is not JSON"))
        Nack(not_acknowledged_object='', reason='bad_json', message='body is not JSON')
        """
        return cls(_sendable(error.object_type), error.code, _sendable(error.detail))


@dataclass(frozen=True, slots=True)
class GameFinished:
    """The game is over (then the server closes): winners' and losers' playerIDs and a
    short ``result`` text chosen by the server.

    >>> GameFinished("g1", (1,), (2,), "won").to_dict()["game_finished"]
    {'gameID': 'g1', 'winners': [1], 'losers': [2], 'result': 'won'}
    """

    NAME: ClassVar[str] = "game_finished"
    game_id: str
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    result: str

    def to_dict(self) -> dict[str, Any]:
        return _envelope(
            self.NAME,
            {
                "gameID": self.game_id,
                "winners": list(self.winners),
                "losers": list(self.losers),
                "result": self.result,
            },
        )

    @classmethod
    def from_body(cls, body: object) -> Self:
        read = _body(cls.NAME, body)
        return cls(
            read.text("gameID"),
            read.integers("winners"),
            read.integers("losers"),
            read.text("result"),
        )


# -- dispatch -----------------------------------------------------------------------------

ClientMessage = QueuePlayer | JoinGame | GetGameState | ChooseEntities | ChooseOption | Concede
ServerMessage = GameJoined | HistoryBlock | EntityChoices | Options | Ack | Nack | GameFinished
Message = ClientMessage | ServerMessage

_CLIENT: Final[Mapping[str, Callable[[object], ClientMessage]]] = {
    cls.NAME: cls.from_body
    for cls in (QueuePlayer, JoinGame, GetGameState, ChooseEntities, ChooseOption, Concede)
}
_SERVER: Final[Mapping[str, Callable[[object], ServerMessage]]] = {
    cls.NAME: cls.from_body
    for cls in (GameJoined, HistoryBlock, EntityChoices, Options, Ack, Nack, GameFinished)
}


def _name(obj: object, other_direction: Mapping[str, object], ours: Mapping[str, object]) -> str:
    """The message name of an envelope, or ``KettleError``."""
    if not isinstance(obj, dict):
        raise KettleError(BAD_ENVELOPE, f"a message must be an object, not {_kind(obj)}")
    type_ = obj.get("type")
    if not isinstance(type_, str):
        raise KettleError(BAD_ENVELOPE, 'a message needs a string "type"')
    name = type_[len(PREFIX) :] if type_.startswith(PREFIX) else ""
    if name not in ours:
        if name in other_direction:
            detail = f"{name} is not sent in this direction"
        else:
            detail = f"unknown type {_short(type_)!r}"
        raise KettleError(UNKNOWN_TYPE, detail, _short(type_))
    return name


def decode_client(obj: object) -> ClientMessage:
    """Build a client message from its decoded JSON envelope (what a server receives).

    >>> decode_client({"type": "kettle:types/join_game",
    ...                "join_game": {"gameID": "g1", "password": "p", "accountID": 7}})
    JoinGame(game_id='g1', password='p')
    >>> decode_client({"type": "kettle:types/ack", "ack": {}})
    Traceback (most recent call last):
    ...
    protocols.kettle.reasons.KettleError: ack is not sent in this direction
    """
    name = _name(obj, _SERVER, _CLIENT)
    assert isinstance(obj, dict)
    return _CLIENT[name](obj.get(name, _ABSENT))


def decode_server(obj: object) -> ServerMessage:
    """Build a server message from its decoded JSON envelope (what a bot receives).

    >>> decode_server({"type": "kettle:types/game_finished", "game_finished":
    ...                {"gameID": "g1", "winners": [1], "losers": [2], "result": "won"}})
    GameFinished(game_id='g1', winners=(1,), losers=(2,), result='won')
    """
    name = _name(obj, _CLIENT, _SERVER)
    assert isinstance(obj, dict)
    return _SERVER[name](obj.get(name, _ABSENT))
