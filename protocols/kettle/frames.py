"""Kettle frames: a 4-byte big-endian unsigned length, then that many bytes of UTF-8 JSON.

Reading is exact and resumable: ``read_frame`` looks at a ``bytearray`` owned by the
caller and takes one frame off its front once all of it has arrived, however the bytes
were split. The length is checked against the limit as soon as the 4 header bytes are
there, before any of the body is buffered (the websockets ``max_size`` rule).

``parse_body`` turns one body into the list of objects it carries (one object, or an
array of objects: a batch). It checks the nesting depth *before* ``json.loads`` with a
few C-speed passes over the bracket bytes (no recursion, no per-byte Python loop), so a
body of 100 000 ``[`` costs a couple of scans and no parser stack. A server keeps bodies
small (``SERVER_LIMITS``: 64 KiB) so that no single ``json.loads`` holds the loop long.

Writing is one ``json`` encoder call per frame: ``encode_frame`` takes any JSON-ready
value (a message dict or a list of them).

>>> buffer = bytearray(encode_frame({"type": "kettle:types/concede", "concede": {}}))
>>> bytes(buffer)
b'\\x00\\x00\\x00,{"type":"kettle:types/concede","concede":{}}'
>>> body = read_frame(buffer[:10], max_body=1024)  # not all there yet
>>> body is None
True
>>> parse_body(read_frame(buffer, max_body=1024), max_depth=32)
[{'type': 'kettle:types/concede', 'concede': {}}]
>>> len(buffer)
0
"""

from __future__ import annotations

import json
from typing import Any, Final

from protocols.base import LocalProtocolError
from protocols.kettle.reasons import (
    BAD_BODY,
    BAD_JSON,
    BAD_UTF8,
    FRAME_TOO_LARGE,
    TOO_DEEP,
    KettleError,
)

__all__ = [
    "HEADER_BYTES",
    "MAX_LENGTH",
    "depth_exceeds",
    "encode_frame",
    "parse_body",
    "read_frame",
]

HEADER_BYTES: Final = 4
MAX_LENGTH: Final = 2**32 - 1
"""The largest body a 4-byte unsigned length can announce."""

_ENCODER: Final = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=False, allow_nan=False, check_circular=False
)

_NOT_BRACKET_OR_QUOTE: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_ESCAPED_BACKSLASH: Final = b"\\\\"
_ESCAPED_QUOTE: Final = b'\\"'
_OBJECTS_AS_ARRAYS: Final = bytes.maketrans(b"{}", b"[]")


def encode_frame(value: Any) -> bytes:
    """One frame carrying ``value`` as compact JSON (``ensure_ascii=False``, no NaN).

    Raises ``LocalProtocolError`` for values JSON cannot carry (our caller's bug).

    >>> encode_frame([{"a": "é"}])
    b'\\x00\\x00\\x00\\x0c[{"a":"\\xc3\\xa9"}]'
    """
    try:
        body = _ENCODER.encode(value).encode("utf-8")
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise LocalProtocolError(f"cannot encode as JSON: {exc}") from None
    if len(body) > MAX_LENGTH:
        raise LocalProtocolError("frame body longer than a 4-byte length can announce")
    return len(body).to_bytes(HEADER_BYTES, "big") + body


def read_frame(buffer: bytearray, max_body: int) -> bytes | None:
    """Take one complete frame off the front of ``buffer`` and return its body.

    ``None`` when more bytes are needed (nothing is consumed then). Raises
    ``KettleError(FRAME_TOO_LARGE)`` as soon as the header announces more than
    ``max_body`` bytes.

    >>> read_frame(bytearray(b"\\x7f\\x00\\x00\\x00"), max_body=1024)
    Traceback (most recent call last):
    ...
    protocols.kettle.reasons.KettleError: frame of 2130706432 bytes announced, the limit is 1024 \
(a little-endian length of 127?)
    """
    if len(buffer) < HEADER_BYTES:
        return None
    length = int.from_bytes(buffer[:HEADER_BYTES], "big")
    if length > max_body:
        hint = ""
        little = int.from_bytes(buffer[:HEADER_BYTES], "little")
        if little <= max_body:
            hint = f" (a little-endian length of {little}?)"
        raise KettleError(
            FRAME_TOO_LARGE,
            f"frame of {length} bytes announced, the limit is {max_body}{hint}",
        )
    end = HEADER_BYTES + length
    if len(buffer) < end:
        return None
    body = bytes(buffer[HEADER_BYTES:end])
    del buffer[:end]
    return body


def depth_exceeds(body: bytes, max_depth: int) -> bool | None:
    """Whether the arrays/objects of a UTF-8 JSON ``body`` nest deeper than ``max_depth``.

    ``None`` when the brackets do not balance, so the body cannot be JSON. Strings are
    removed first (they may hold brackets) and ``{}`` become ``[]`` (json checks that the
    kinds match); ``max_depth + 1`` openers in a row (and as many closers as openers) answer
at once; otherwise each pass
    deletes the innermost pairs, one level per pass, at most ``max_depth`` passes, and
    stops as soon as what is left is too short to nest deeper. Every step is a C-speed
    bytes operation: a 64 KiB body of 32-deep arrays costs a few milliseconds.

    >>> depth_exceeds(b'{"a": [[1], {"b": "]]]"}]}', 3), depth_exceeds(b'[[[[]]]]', 3)
    (False, True)
    >>> depth_exceeds(b"[" * 99 + b"]" * 99, 32), depth_exceeds(b"[][" * 40, 32) is None
    (True, True)
    >>> depth_exceeds(b"[[[]]" + b"[]" * 40 + b"]", 3), depth_exceeds(b"[[[[]]][]]", 3)
    (False, True)
    """
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return False  # cannot nest deeper than it has openers (unbalanced: json decides)
    # Escapes first. A run of backslashes pairs up from its left end (valid JSON has none
    # outside strings), so deleting escaped backslashes, then escaped quotes, leaves only
    # the quotes that delimit strings; no bracket is ever escaped. Every other part between
    # those quotes is string content. All C-speed passes, whatever the body holds.
    parts = (
        body.replace(_ESCAPED_BACKSLASH, b"")
        .replace(_ESCAPED_QUOTE, b"")
        .translate(_OBJECTS_AS_ARRAYS, _NOT_BRACKET_OR_QUOTE)
        .split(b'"')
    )
    if len(parts) % 2 == 0:
        return None  # an odd number of quotes: a string never ends
    brackets = b"".join(parts[::2])
    if b"[" * (max_depth + 1) in brackets:
        # That many openers in a row nest that deep, if the brackets can balance at all.
        return True if 2 * brackets.count(b"[") == len(brackets) else None
    for passes in range(max_depth):
        if len(brackets) <= 2 * (max_depth - passes):
            # What is left nests at most half its length deep.
            return False if 2 * brackets.count(b"[") == len(brackets) else None
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return None  # no innermost pair left: the brackets do not balance
        brackets = shorter
    if not brackets:
        return False
    return True if b"[]" in brackets else None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_body(body: bytes, max_depth: int) -> list[dict[str, Any]]:
    """The objects one frame body carries: ``[object]``, or the objects of a batch.

    Raises ``KettleError`` with ``BAD_UTF8``, ``TOO_DEEP``, ``BAD_JSON`` or ``BAD_BODY``.

    >>> parse_body(b'[{"type": "a"}, {"type": "b"}]', 32)
    [{'type': 'a'}, {'type': 'b'}]
    >>> parse_body(b'[[[[{}]]]]', 3)
    Traceback (most recent call last):
    ...
    protocols.kettle.reasons.KettleError: JSON nested deeper than 3 levels
    >>> parse_body(b'[]', 32)
    Traceback (most recent call last):
    ...
    protocols.kettle.reasons.KettleError: a frame must hold an object or a non-empty array \
of objects, not an empty array
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KettleError(
            BAD_UTF8, f"body is not UTF-8: {exc.reason} at byte {exc.start}"
        ) from None
    exceeds = depth_exceeds(body, max_depth)
    if exceeds is None:
        raise KettleError(BAD_JSON, "body is not JSON: unbalanced brackets")
    if exceeds:
        raise KettleError(TOO_DEEP, f"JSON nested deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise KettleError(BAD_JSON, f"body is not JSON: {exc}") from None
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return value
    what = "an empty array" if value == [] else f"a {_json_kind(value)}"
    if isinstance(value, list) and value:
        what = "an array with a non-object element"
    raise KettleError(
        BAD_BODY, f"a frame must hold an object or a non-empty array of objects, not {what}"
    )


def _json_kind(value: object) -> str:
    """The JSON name of a decoded value's type.

    >>> _json_kind(True), _json_kind(1.5), _json_kind(None), _json_kind([])
    ('boolean', 'number', 'null', 'array')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
