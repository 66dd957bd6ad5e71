"""The two XML primitives of the SC codec: a safe parser for one message, and a writer
that reproduces XStream's ``PrettyPrintWriter`` byte for byte.

Writer rules (XStream 1.4, the official server's serialiser):

- two spaces of indentation per level, ``\\n`` line ends, no XML declaration;
- an element without children and without text is written self-closing: ``<board/>``;
- an element with text is written on one line: ``<shape>MONO</shape>``;
- escaping of text and attribute values: ``&`` ``<`` ``>`` ``"`` ``'`` become ``&amp;``
  ``&lt;`` ``&gt;`` ``&quot;`` ``&apos;``; ``\\r`` becomes ``&#xd;``; inside attribute values
  ``\\n`` and ``\\t`` become ``&#xa;`` and ``&#x9;``; C1 control characters (U+007F to
  U+009F) become character references, as XStream writes them.
- Characters that XML 1.0 cannot carry at all (C0 controls other than tab, newline and
  carriage return, lone surrogates, U+FFFE/U+FFFF) are replaced by U+FFFD. XStream would
  write an unparseable character reference; none of our inputs can contain them (they all
  came through an XML parser), so this only guards against our own callers.

>>> node = Node("room", [("roomId", "r")], [Node("data", [("class", "moveRequest")])])
>>> print(render(node))
<room roomId="r">
  <data class="moveRequest"/>
</room>
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from lxml import etree

from protocols.base import ProtocolError

__all__ = ["Node", "escape_attribute", "escape_text", "parse_message", "render"]


@dataclass(slots=True)
class Node:
    """An element to write: attributes in writing order, then children or text."""

    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    text: str | None = None
    # Write `<x></x>` instead of `<x/>` when empty: the official Python client's message
    # regex only accepts end tags for `room`, `errorpacket` and `prepared`.
    expanded: bool = False
    # An element already written out on one line (a leaf: its text does not depend on the
    # indentation level). The memento's hundreds of board fields reuse these strings.
    raw: str | None = None

    @classmethod
    def leaf(cls, tag: str, attrs: list[tuple[str, str]] | None = None,
             text: str | None = None) -> Node:
        """A childless element rendered once, up front.

        >>> render(Node.leaf("field", [("x", "1"), ("y", "2"), ("content", "RED")]))
        '<field x="1" y="2" content="RED"/>'
        """
        node = cls(tag, attrs or [], text=text)
        node.raw = render(node)
        return node


_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TEXT_SPECIAL = re.compile("[&<>\"'\r\x7f-\x9f]")
_ATTRIBUTE_SPECIAL = re.compile("[&<>\"'\r\n\t\x7f-\x9f]")
# Everything either escape function would touch; values without any pass unchanged.
_ANY_SPECIAL = re.compile(
    "[&<>\"'\r\n\t\x7f-\x9f\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"
)
_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _reference(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    return named if named is not None else f"&#x{ord(char):x};"


def escape_text(value: str) -> str:
    """Escape element text the way XStream does.

    >>> escape_text("a'b\\nc")
    'a&apos;b\\nc'
    """
    if _ANY_SPECIAL.search(value) is None:
        return value
    return _TEXT_SPECIAL.sub(_reference, _INVALID_XML.sub("\ufffd", value))


def escape_attribute(value: str) -> str:
    """Escape an attribute value the way XStream does.

    >>> escape_attribute('Regel "x"\\nbei \\'y\\'')
    'Regel &quot;x&quot;&#xa;bei &apos;y&apos;'
    """
    if _ANY_SPECIAL.search(value) is None:
        return value
    return _ATTRIBUTE_SPECIAL.sub(_reference, _INVALID_XML.sub("\ufffd", value))


def render(node: Node, level: int = 0) -> str:
    """Pretty-print ``node`` with its first line indented ``level`` steps (the first
    line's indentation itself is not written: the caller places the element)."""
    parts: list[str] = []
    _render_into(node, level, parts)
    return "".join(parts)


def _render_into(node: Node, level: int, parts: list[str]) -> None:
    if node.raw is not None:
        parts.append(node.raw)
        return
    parts.append("<")
    parts.append(node.tag)
    for name, value in node.attrs:
        parts.append(f' {name}="{escape_attribute(value)}"')
    if node.text is not None:
        parts.append(f">{escape_text(node.text)}</{node.tag}>")
    elif not node.children:
        parts.append(f"></{node.tag}>" if node.expanded else "/>")
    else:
        parts.append(">")
        inner = "\n" + "  " * (level + 1)
        for child in node.children:
            parts.append(inner)
            _render_into(child, level + 1, parts)
        parts.append("\n" + "  " * level + f"</{node.tag}>")


class _RefuseEverything(etree.Resolver):
    """Resolves every external reference (DTD, entity, parameter entity) to nothing.

    libxml2 loads an external *parameter* entity declared in an internal subset even with
    ``load_dtd=False`` and ``resolve_entities=False``; with this resolver it gets an empty
    document instead of the file or URL.
    """

    # lxml-stubs leave out the context argument lxml passes.
    def resolve(  # type: ignore[override]
        self, system_url: str, public_id: str, context: object
    ) -> object:
        return self.resolve_string("", context, base_url=None)


# A DOCTYPE can only stand in the prolog: after whitespace, comments and PIs.
_DOCTYPE_IN_PROLOG = re.compile(
    rb"\A(?:\xef\xbb\xbf)?(?:\s|<\?.*?\?>|<!--.*?-->)*<!doctype", re.DOTALL | re.IGNORECASE
)


def _make_parser() -> etree.XMLParser:
    # Everything that could reach outside the message is off; the splitter has already
    # refused DOCTYPE declarations, parse_message refuses them again, and the resolver
    # hands libxml2 an empty document for anything external it still asks for.
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        strip_cdata=True,
        collect_ids=False,
    )
    parser.resolvers.add(_RefuseEverything())
    return parser


# lxml parsers must not be shared between threads; one per thread (the server may parse
# in a worker thread some day).
_local = threading.local()


def _parser() -> etree.XMLParser:
    parser: etree.XMLParser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = _make_parser()
    return parser


def parse_message(data: bytes) -> etree._Element:
    """Parse the bytes of one message (UTF-8, no declaration) into an element.

    Raises ``ProtocolError`` for anything that is not well-formed XML, and for any
    DOCTYPE (a message never has one; DTDs are how entities reach outside).

    >>> parse_message(b'<joinRoom roomId="a"/>').get("roomId")
    'a'
    """
    if _DOCTYPE_IN_PROLOG.match(data):
        raise ProtocolError("a DOCTYPE is not allowed")
    try:
        element = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        raise ProtocolError(f"malformed XML: {exc.msg}") from None
    except (ValueError, TypeError) as exc:  # e.g. lxml refusing an unsupported input
        raise ProtocolError(f"malformed XML: {exc}") from None
    if element is None:
        raise ProtocolError("malformed XML: no element")
    return element
