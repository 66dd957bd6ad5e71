"""The ``reason`` codes of a Kettle ``nack``, and the error that carries one.

Every refused frame or message is answered with ``nack {not_acknowledged_object, reason,
message}``: ``reason`` is one of the codes below (a stable, machine-readable string),
``message`` a sentence for humans, ``not_acknowledged_object`` the refused object's
``type`` (``""`` when the refusal concerns a whole frame or the object had no string
``type``).

Codes the codec produces and that **close the connection** (the byte stream can no longer
be trusted, or the peer speaks something else):

- ``frame_too_large``: the length prefix announces more than the frame limit. Checked on
  the 4 header bytes, before any of the body is buffered.
- ``buffer_full``: more bytes were handed to ``receive_data`` than the buffer limit allows
  without ``next_event`` draining them (an I/O layer bug, or a peer flooding us).
- ``truncated``: end of file in the middle of a frame (header or body).
- ``bad_utf8``: the body is not valid UTF-8.
- ``bad_json``: the body is not one JSON value (``NaN``/``Infinity`` included, numbers
  with more than 4300 digits, and bodies whose brackets do not balance).
- ``bad_body``: the JSON value is not an object nor a non-empty array of objects.

Codes the codec produces while the connection **stays open** (the frame was well
delimited, only its content is refused; one ``nack`` per refused object of a batch):

- ``too_deep``: the body nests arrays/objects deeper than the depth limit (the whole
  frame is refused; checked before ``json.loads``, without recursion).
- ``bad_envelope``: an object without a string ``type``.
- ``unknown_type``: a ``type`` that is not a message of that direction.
- ``missing_field``: a required field is absent (or ``null``).
- ``wrong_type``: a field has the wrong JSON type (a boolean is not an integer, ``1.0``
  is not an integer, a lone surrogate is not text).
- ``out_of_range``: a number outside its range, a list of the wrong length,
  ``count_min > count_max``.

Codes for the protocol *sessions* (the server decides them; the codec never does):

- ``unexpected_message``: a valid message at the wrong time (``choose_option`` when no
  options are pending, ``get_game_state`` before joining, a second ``queue_player``).
- ``stale_id``: ``choiceID``/``optionsID`` is not the one currently pending.
- ``illegal``: the choice is not legal (entities not offered, count outside
  ``count_min..count_max``, option index, target or position not allowed).
- ``invalid_deck``: ``queue_player`` deck refused (unknown cards, class, copy limits).
- ``no_such_game``: ``join_game`` with an unknown game id or a wrong password.
- ``shutdown``: the server is shutting down.
- ``rate_limited``: more messages (refused ones included) than the rate allows; closed.
- ``server_full``, ``too_many_connections``: the server, or the client's address, has as
  many connections as it accepts; closed right after.
- ``login_timeout``: nothing was joined within the deadline after connecting; closed.
- ``too_many_rooms``: ``queue_player`` would open a match, but as many matches opened by
  unauthenticated clients (from this address, or in all) are running as the server
  allows; stays open (queue again later).
- ``store_failed``: ``queue_player``/``join_game`` refused while the server's match store
  cannot write (no result could be kept); try again later.

>>> sorted(CLOSING)
['bad_body', 'bad_json', 'bad_utf8', 'buffer_full', 'frame_too_large', 'truncated']
>>> error = KettleError(MISSING_FIELD, "join_game.gameID is required", "kettle:types/join_game")
>>> error.closes, error.code
(False, 'missing_field')
"""

from __future__ import annotations

from typing import Final

from protocols.base import ProtocolError

__all__ = [
    "BAD_BODY",
    "BAD_ENVELOPE",
    "BAD_JSON",
    "BAD_UTF8",
    "BUFFER_FULL",
    "CLOSING",
    "CODEC_REASONS",
    "FRAME_TOO_LARGE",
    "ILLEGAL",
    "INVALID_DECK",
    "LOGIN_TIMEOUT",
    "MISSING_FIELD",
    "NO_SUCH_GAME",
    "OUT_OF_RANGE",
    "RATE_LIMITED",
    "SERVER_FULL",
    "SESSION_REASONS",
    "SHUTDOWN",
    "STALE_ID",
    "STORE_FAILED",
    "TOO_DEEP",
    "TOO_MANY_CONNECTIONS",
    "TOO_MANY_ROOMS",
    "TRUNCATED",
    "UNEXPECTED_MESSAGE",
    "UNKNOWN_TYPE",
    "WRONG_TYPE",
    "KettleError",
]

# -- produced by the codec; the connection is closed afterwards
FRAME_TOO_LARGE: Final = "frame_too_large"
BUFFER_FULL: Final = "buffer_full"
TRUNCATED: Final = "truncated"
BAD_UTF8: Final = "bad_utf8"
BAD_JSON: Final = "bad_json"
BAD_BODY: Final = "bad_body"

# -- produced by the codec; the connection stays open
TOO_DEEP: Final = "too_deep"
BAD_ENVELOPE: Final = "bad_envelope"
UNKNOWN_TYPE: Final = "unknown_type"
MISSING_FIELD: Final = "missing_field"
WRONG_TYPE: Final = "wrong_type"
OUT_OF_RANGE: Final = "out_of_range"

# -- decided by protocol sessions (server), never by the codec
UNEXPECTED_MESSAGE: Final = "unexpected_message"
STALE_ID: Final = "stale_id"
ILLEGAL: Final = "illegal"
INVALID_DECK: Final = "invalid_deck"
NO_SUCH_GAME: Final = "no_such_game"
SHUTDOWN: Final = "shutdown"
RATE_LIMITED: Final = "rate_limited"
SERVER_FULL: Final = "server_full"
TOO_MANY_CONNECTIONS: Final = "too_many_connections"
LOGIN_TIMEOUT: Final = "login_timeout"
TOO_MANY_ROOMS: Final = "too_many_rooms"
STORE_FAILED: Final = "store_failed"

CLOSING: Final = frozenset({FRAME_TOO_LARGE, BUFFER_FULL, TRUNCATED, BAD_UTF8, BAD_JSON, BAD_BODY})
"""Codes after which the connection must be closed (the codec refuses further use)."""

CODEC_REASONS: Final = CLOSING | {
    TOO_DEEP,
    BAD_ENVELOPE,
    UNKNOWN_TYPE,
    MISSING_FIELD,
    WRONG_TYPE,
    OUT_OF_RANGE,
}
"""Every code the codec itself can produce."""

SESSION_REASONS: Final = frozenset(
    {UNEXPECTED_MESSAGE, STALE_ID, ILLEGAL, INVALID_DECK, NO_SUCH_GAME, SHUTDOWN,
     RATE_LIMITED, SERVER_FULL, TOO_MANY_CONNECTIONS, LOGIN_TIMEOUT, TOO_MANY_ROOMS,
     STORE_FAILED}
)
"""Codes reserved for protocol sessions."""


class KettleError(ProtocolError):
    """The peer sent something the codec refuses: ``code`` is the nack reason.

    ``detail`` is the human-readable ``message`` of the nack (also ``str(error)`` and the
    base class's ``reason``), ``object_type`` the refused object's ``type`` or ``""``.
    ``closes`` says whether the connection must be closed (``code in CLOSING``).
    """

    def __init__(self, code: str, detail: str, object_type: str = "") -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.object_type = object_type

    @property
    def closes(self) -> bool:
        """Whether this refusal ends the connection."""
        return self.code in CLOSING
