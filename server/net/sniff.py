"""Pick a connection's protocol from its first bytes.

`<` (after optional whitespace or a UTF-8 BOM) is Software-Challenge XML. Kettle frames
start with a 4-byte big-endian length: a first byte 0x00 and a plausible frame length.
A protocol is only recognised when the listener serves it (`known`: the listener registers
both); anything else gets the connection closed cleanly.

>>> sniff(b"<protocol><join/>"), sniff(b"  \\n<protocol>"), sniff(b"\\x00\\x00\\x00\\x10{}")
('sc', 'sc', None)
>>> sniff(b"\\x00\\x00\\x00\\x10{}", known={SC, KETTLE}), sniff(b"\\x00\\x00", known={KETTLE})
('kettle', 'need-more')
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
    if first[:1] == b"\x00":
        if KETTLE not in known:
            return None
        if len(first) < _KETTLE_HEADER:
            return NEED_MORE
        # A first byte 0 is a length under 16 MiB: Kettle. An oversize first frame is the
        # Kettle session's to refuse (a nack in its own protocol, then the close).
        return KETTLE if int.from_bytes(first[:_KETTLE_HEADER], "big") > 0 else None
    data = first.removeprefix(_BOM).lstrip(_WHITESPACE)
    if not data:
        return NEED_MORE if len(first) < MAX_SNIFF_BYTES else None
    if data.startswith(b"<") and SC in known:
        return SC
    return None
