"""Cut the endless Software-Challenge ``<protocol>`` document into one element per message.

Each direction of an SC connection is a single XML document that never ends while the
connection lives: a root element (``<protocol>``, but XStream takes whatever comes first),
then one child element per message, then ``</protocol>`` when the peer closes. A normal XML
parser would hold the whole document; this splitter finds the byte boundaries of each
top-level child with a tiny resumable scanner (tags, quoted attribute values, comments,
CDATA) and hands the bytes of one complete message to lxml (see ``xml.parse_message``),
which does the real well-formedness checking.

Why not ``lxml.etree.XMLPullParser`` on the whole stream: it only reports events after a
whole chunk was parsed, so it cannot refuse an oversized message or a deep nesting before
it was buffered, and it keeps state (namespaces, DTD) across messages that XStream does not
share between objects either. Scanning the boundaries ourselves gives exact limits: the
message size is checked while bytes arrive, the nesting depth on every start tag.

Rejected outright (``ProtocolError``): ``<!DOCTYPE``/``<!ENTITY`` and every other ``<!``
declaration (no entity expansion, no "billion laughs"), processing instructions after the
root started, non-whitespace text between messages, a ``<`` inside a tag, a root end tag
with a different name, any data after the root was closed.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from protocols.base import LimitExceeded, Limits, ProtocolError

__all__ = ["END_OF_STREAM", "MessageSplitter"]

END_OF_STREAM: Final = b""
"""Returned by ``MessageSplitter.next`` when the peer closed the root element."""

# Inside a tag only these bytes matter: the end, a quote opening a value, or a stray '<'.
_TAG_SPECIAL = re.compile(rb"[<>\"']")
# One complete tag: start, end or empty-element; quoted values may contain '>' and '/'.
# The alternatives inside the attribute part start with different bytes and every
# quantifier is possessive (Python 3.11), so a failing match never backtracks. Anything
# this does not match goes through the resumable slow path.
_TAG_PATTERN = rb"<(/?)([^\s/>\"'<!?]++)(?:[^<>\"'/]++|/(?!>)|\"[^\"]*+\"|'[^']*+')*+(/?)>"
_TAG = re.compile(_TAG_PATTERN)
_TEXT_AND_TAG = re.compile(rb"[^<]*+" + _TAG_PATTERN)
_NAME_END = re.compile(rb"[\s/>]")
_WHITESPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"

_COMMENT_OPEN = b"<!--"
_CDATA_OPEN = b"<![CDATA["
_PI_OPEN = b"<?"


def _is_blank(data: bytes | bytearray) -> bool:
    return not data.strip(_WHITESPACE)


class MessageSplitter:
    """A resumable scanner over a byte buffer owned by the caller.

    ``next(buffer)`` consumes bytes from the front of ``buffer`` (a ``bytearray``) and
    returns the bytes of one complete top-level message, ``END_OF_STREAM`` once the root
    element was closed, or ``None`` when more bytes are needed. It keeps its scanning
    position between calls, so feeding one byte at a time costs linear time overall.

    >>> splitter = MessageSplitter(Limits())
    >>> buffer = bytearray(b'<protocol>\\n  <join/><joinRoom roomId="a"/>')
    >>> splitter.next(buffer), splitter.next(buffer), splitter.next(buffer)
    (b'<join/>', b'<joinRoom roomId="a"/>', None)
    >>> buffer += b"</protocol>"
    >>> splitter.next(buffer)
    b''
    """

    def __init__(self, limits: Limits) -> None:
        self._limits = limits
        self._root: bytes | None = None
        self._ended = False
        self._pos = 0  # scanning position in the buffer
        self._depth = 0  # open elements of the current message
        self._msg_start: int | None = None  # offset of the current message's '<'
        self._tag_start: int | None = None  # offset of the '<' of an unfinished tag
        self._quote: int | None = None  # quote byte of an unfinished attribute value
        self._special_start: int | None = None  # an unfinished comment, CDATA or PI
        self._special_close = b""

    @property
    def root(self) -> str | None:
        """Name of the stream root once it was seen (``"protocol"`` for real peers)."""
        return None if self._root is None else self._root.decode("utf-8", "replace")

    @property
    def in_message(self) -> bool:
        """Whether some bytes of an unfinished message (or tag) are buffered."""
        return self._msg_start is not None or self._tag_start is not None

    @property
    def ended(self) -> bool:
        """Whether the peer closed the root element."""
        return self._ended

    @property
    def between_messages(self) -> bool:
        """Inside the root, nothing of a message scanned yet: the caller may take one
        whole message off the front of the buffer itself (see ``ClientConnection``)."""
        return (self._root is not None and not self._ended and self._pos == 0
                and self._msg_start is None and self._tag_start is None
                and self._special_start is None and self._depth == 0)

    def next(self, buffer: bytearray) -> bytes | None:
        """Consume and return the next complete message (see the class docstring)."""
        if self._ended:
            if not _is_blank(buffer):
                raise ProtocolError("data after the end of the stream")
            buffer.clear()
            return None
        while True:
            if self._tag_start is not None:
                result = self._continue_tag(buffer)
                if result is None:
                    self._check_size(buffer)
                    return None
                if result is True:
                    continue
                return result
            if self._special_start is not None:
                if not self._continue_special(buffer):
                    self._check_size(buffer)
                    return None
                continue
            step = self._scan_text(buffer)
            if step is None:
                self._check_size(buffer)
                return None
            if step is not True:
                return step

    # -- text between tags ---------------------------------------------------------------

    def _scan_text(self, buffer: bytearray) -> bytes | Literal[True] | None:
        """Advance to the next markup and handle it: None = need data, True = keep
        scanning, bytes = a finished message or ``END_OF_STREAM``."""
        if self._msg_start is not None:
            finished = self._skim_message(buffer)
            if finished is not None:
                return finished
        lt = buffer.find(b"<", self._pos)
        end = len(buffer) if lt < 0 else lt
        if self._msg_start is None:
            # Between messages (or before the root): only whitespace may appear.
            text = buffer[self._pos : end]
            if self._root is None and self._pos == 0 and text[:3] == _BOM[: len(text[:3])]:
                if lt < 0 and len(text) < len(_BOM):
                    return None  # maybe the first bytes of a byte order mark
                text = text[len(_BOM) :]
            if not _is_blank(text):
                raise ProtocolError("text outside of a message")
            del buffer[:end]
            self._pos = 0
            lt = 0 if lt >= 0 else -1
        else:
            self._pos = end
        if lt < 0:
            return None
        return self._open_markup(buffer, lt)

    def _skim_message(self, buffer: bytearray) -> bytes | None:
        """Inside a message, consume text and complete tags in one tight loop (the hot
        path for mementos); stops at anything else, which the general path handles."""
        match = _TEXT_AND_TAG.match
        position = self._pos
        depth = self._depth
        max_depth = self._limits.max_depth
        while (tag := match(buffer, position)) is not None:
            position = tag.end()
            if tag.group(1):
                depth -= 1
                if depth == 0:
                    self._depth = 0
                    return self._complete(buffer, position)
            elif not tag.group(3):
                depth += 1
                if depth > max_depth:
                    raise LimitExceeded(f"message nested deeper than {max_depth} elements")
        self._pos = position
        self._depth = depth
        return None

    def _open_markup(self, buffer: bytearray, lt: int) -> bytes | Literal[True] | None:
        """Handle the markup starting at ``lt`` (see ``_scan_text`` for the result)."""
        # Fast path: a complete, well-formed tag is matched by one regex in C.
        tag = _TAG.match(buffer, lt)
        if tag is not None:
            end = tag.end()
            self._pos = end
            return self._handle_tag(
                buffer, lt, end, bool(tag.group(1)), tag.group(2), bool(tag.group(3))
            )
        head = bytes(buffer[lt : lt + len(_CDATA_OPEN)])
        if len(head) < 2:
            return None
        second = head[1:2]
        if second == b"!":
            if head.startswith(_COMMENT_OPEN):
                return self._open_special(lt, b"-->", len(_COMMENT_OPEN))
            if head.startswith(_CDATA_OPEN):
                if self._msg_start is None:
                    raise ProtocolError("CDATA outside of a message")
                return self._open_special(lt, b"]]>", len(_CDATA_OPEN))
            if _COMMENT_OPEN.startswith(head) or _CDATA_OPEN.startswith(head):
                return None  # could still become a comment or CDATA section
            raise ProtocolError("DOCTYPE, ENTITY and other declarations are not allowed")
        if second == b"?":
            if self._root is not None:
                raise ProtocolError("processing instructions are only allowed before the root")
            return self._open_special(lt, b"?>", len(_PI_OPEN))
        self._tag_start = lt
        self._pos = lt + 1
        self._quote = None
        return True

    def _open_special(self, lt: int, close: bytes, opener_length: int) -> Literal[True]:
        self._special_start = lt
        self._special_close = close
        self._pos = lt + opener_length
        return True

    def _continue_special(self, buffer: bytearray) -> bool:
        """Find the end of a comment, CDATA section or processing instruction."""
        assert self._special_start is not None
        found = buffer.find(self._special_close, self._pos)
        if found < 0:
            # The terminator may be split across feeds: rescan its first bytes next time.
            self._pos = max(self._pos, len(buffer) - len(self._special_close) + 1)
            return False
        end = found + len(self._special_close)
        self._special_start = None
        if self._msg_start is None:
            del buffer[:end]  # a comment or the XML declaration between messages
            self._pos = 0
        else:
            self._pos = end
        return True

    # -- tags ------------------------------------------------------------------------------

    def _continue_tag(self, buffer: bytearray) -> bytes | Literal[True] | None:
        """Finish the current tag: None = need data, True = keep scanning, bytes = result."""
        assert self._tag_start is not None
        position = self._pos
        while True:
            if self._quote is not None:
                closing = buffer.find(self._quote, position)
                if closing < 0:
                    self._pos = len(buffer)
                    return None
                position = closing + 1
                self._quote = None
            match = _TAG_SPECIAL.search(buffer, position)
            if match is None:
                self._pos = len(buffer)
                return None
            found = match.start()
            byte = buffer[found]
            if byte == 0x3E:  # '>'
                return self._finish_tag(buffer, found + 1)
            if byte == 0x3C:  # '<'
                raise ProtocolError("'<' inside a tag")
            self._quote = byte
            position = found + 1

    def _finish_tag(self, buffer: bytearray, end: int) -> bytes | Literal[True]:
        """Slow path: a tag that arrived in pieces (or is malformed) is complete now."""
        tag_start = self._tag_start
        assert tag_start is not None
        self._tag_start = None
        self._pos = end
        tag = bytes(buffer[tag_start:end])
        if tag.startswith(b"</"):
            return self._handle_tag(
                buffer, tag_start, end, True, tag[2:-1].strip(_WHITESPACE), False
            )
        name_match = _NAME_END.search(tag, 1)
        name = tag[1 : name_match.start() if name_match else -1]
        return self._handle_tag(buffer, tag_start, end, False, name, tag.endswith(b"/>"))

    def _handle_tag(
        self,
        buffer: bytearray,
        tag_start: int,
        end: int,
        is_end: bool,
        name: bytes,
        self_closing: bool,
    ) -> bytes | Literal[True]:
        if is_end:
            return self._end_tag(buffer, name, end)
        if not name:
            raise ProtocolError("a tag without a name")
        if self._root is None:
            self._root = name
            del buffer[:end]
            self._pos = 0
            if self_closing:
                self._ended = True
                return END_OF_STREAM
            return True
        if self._msg_start is None:
            self._msg_start = tag_start
            if self_closing:
                return self._complete(buffer, end)
            self._depth = 1
            return True
        if not self_closing:
            self._depth += 1
            if self._depth > self._limits.max_depth:
                raise LimitExceeded(f"message nested deeper than {self._limits.max_depth} elements")
        return True

    def _end_tag(self, buffer: bytearray, name: bytes, end: int) -> bytes | Literal[True]:
        if self._msg_start is None:
            if name != self._root:
                raise ProtocolError("end tag without a matching start tag")
            self._ended = True
            del buffer[:end]
            self._pos = 0
            if not _is_blank(buffer):
                raise ProtocolError("data after the end of the stream")
            return END_OF_STREAM
        self._depth -= 1
        if self._depth == 0:
            return self._complete(buffer, end)
        return True

    def _complete(self, buffer: bytearray, end: int) -> bytes:
        start = self._msg_start
        assert start is not None
        if end - start > self._limits.max_message_bytes:
            raise LimitExceeded(f"message larger than {self._limits.max_message_bytes} bytes")
        message = bytes(buffer[start:end])
        del buffer[:end]
        self._msg_start = None
        self._depth = 0
        self._pos = 0
        return message

    def _check_size(self, buffer: bytearray) -> None:
        """Refuse an unfinished unit (message, tag, comment) that is already too long."""
        starts = [
            s for s in (self._msg_start, self._tag_start, self._special_start) if s is not None
        ]
        if starts and len(buffer) - min(starts) > self._limits.max_message_bytes:
            raise LimitExceeded(f"message larger than {self._limits.max_message_bytes} bytes")
