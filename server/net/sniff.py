"""Pick a connection's protocol from its first bytes.

`<` (after optional whitespace or a UTF-8 BOM) is Software-Challenge XML. Kettle frames
start with a 4-byte big-endian length; that dialect is not served yet, so those bytes (and
anything else) get the connection closed cleanly.

>>> sniff(b"<protocol><join/>"), sniff(b"  \\n<protocol>"), sniff(b"\\x00\\x00\\x00\\x10{}")
('sc', 'sc', None)
>>> sniff(b"   ") is NEED_MORE
True
"""

from __future__ import annotations

from typing import Final

SC: Final = "sc"
NEED_MORE: Final = "need-more"
MAX_SNIFF_BYTES: Final = 1024

_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n"


def sniff(first: bytes) -> str | None:
    """The protocol name for these first bytes, `NEED_MORE`, or None (unknown: close)."""
    data = first.removeprefix(_BOM).lstrip(_WHITESPACE)
    if not data:
        return NEED_MORE if len(first) < MAX_SNIFF_BYTES else None
    if data.startswith(b"<"):
        return SC
    return None
