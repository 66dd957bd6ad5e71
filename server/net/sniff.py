"""Pick a connection's protocol from its first bytes.

`<` (after optional whitespace or a UTF-8 BOM) is Software-Challenge XML. Kettle frames
start with a 4-byte big-endian length; any other first byte forms one, so everything that
does not start like XML goes to Kettle once 4 bytes are there (when the listener serves
it): the Kettle session refuses an implausible length in its own protocol (a nack
`frame_too_large`, then the close) instead of a silent close. A protocol is only
recognised when the listener serves it (`known`: the listener registers both); anything
else gets the connection closed cleanly.

>>> sniff(b"<protocol><join/>"), sniff(b"  \\n<protocol>"), sniff(b"\\x00\\x00\\x00\\x10{}")
('sc', 'sc', None)
>>> both = {SC, KETTLE}
>>> sniff(b"\\x00\\x00\\x00\\x10{}", both), sniff(b"\\x00\\x00", known={KETTLE})
('kettle', 'need-more')
>>> sniff(b"\\xff\\xff\\xff\\xff{}", both), sniff(b"GET /", both), sniff(b"\\xef\\xbb", both)
('kettle', 'kettle', 'need-more')
>>> sniff(b"   ") is NEED_MORE
True
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

SC: Final = "sc"
KETTLE: Final = "kettle"
NEED_MORE: Final = "need-more"
MAX_SNIFF_BYTES: Final = 1024

_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n"
_KETTLE_HEADER = 4


def sniff(first: bytes, known: Collection[str] = (SC,)) -> str | None:
    """The protocol name for these first bytes, `NEED_MORE`, or None (unknown: close)."""
    if not first:
        return NEED_MORE
    if first[0] in _WHITESPACE or first[:1] == b"<" or _BOM.startswith(first[:3]):
        if first[0] == _BOM[0] and len(first) < len(_BOM):
            return NEED_MORE  # the start of a BOM, or of a Kettle length 0xEF...
        if first[0] != _BOM[0] or first.startswith(_BOM):
            data = first.removeprefix(_BOM).lstrip(_WHITESPACE)
            if not data:
                return NEED_MORE if len(first) < MAX_SNIFF_BYTES else None
            return SC if data.startswith(b"<") and SC in known else None
    # Not XML: a 4-byte big-endian length, however implausible (the Kettle session
    # answers an oversize one with a nack in its own protocol, then closes).
    if KETTLE not in known:
        return None
    return KETTLE if len(first) >= _KETTLE_HEADER else NEED_MORE
