"""Hostile XML over the Software-Challenge protocol, against a real server on real sockets.

Every payload must be refused before anything is expanded or fetched: the external
entities point at a FIFO (opening it for reading would release a watcher thread, which
fails the test) and at a local HTTP listener (any connection fails the test); the bytes
that reach lxml are recorded. The server drops the offender without a word, as the
official server does with garbage (docs/sc-protocol.md), while a Blokus match between two
bundled bots runs on the same server and must finish normally.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.blokus import bundled
from bots.blokus.aio import play_async
from protocols.base import ProtocolError
from protocols.sc import connection as sc_connection
from protocols.sc.xmltree import parse_message
from server.config import ServerConfig
from server.runtime import GauntletServer

WAIT = 3.0
CANARY = b"CANARY-must-never-be-read"
LAUGHS = (
    b'<!DOCTYPE protocol [<!ENTITY l0 "lol">'
    + b"".join(b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, 10))
    + b"]>"
)


class Tripwires:
    """A FIFO that records being opened for reading, and an HTTP port that records
    connections. Nothing in the server may touch either."""

    def __init__(self, directory: Path) -> None:
        self.fifo = directory / "secret-fifo"
        os.mkfifo(self.fifo)
        self.file = directory / "secret.txt"
        self.file.write_bytes(CANARY)
        self.fifo_opened = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        self.http_hits = 0
        self.http_port = 0
        self._http: asyncio.Server | None = None

    def _watch(self) -> None:
        fd = os.open(self.fifo, os.O_WRONLY)  # blocks until someone opens it for reading
        if not self._stop:
            self.fifo_opened.set()
            os.write(fd, CANARY)
        os.close(fd)

    async def start_http(self) -> None:
        async def hit(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.http_hits += 1
            writer.write(b"HTTP/1.0 200 OK\r\n\r\n" + CANARY)
            writer.close()

        self._http = await asyncio.start_server(hit, "127.0.0.1", 0)
        self.http_port = self._http.sockets[0].getsockname()[1]

    def close(self) -> None:
        self._stop = True
        fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)  # releases the watcher
        self._thread.join(2.0)
        os.close(fd)
        if self._http is not None:
            self._http.close()


@pytest.fixture
def wires(tmp_path: Path) -> Iterator[Tripwires]:
    tripwires = Tripwires(tmp_path)
    yield tripwires
    tripwires.close()


def payloads(w: Tripwires) -> dict[str, bytes]:
    fifo, http = f"file://{w.fifo}".encode(), f"http://127.0.0.1:{w.http_port}".encode()
    root = b"<protocol>"
    return {
        "dtd_before_root": b'<?xml version="1.0"?><!DOCTYPE protocol [<!ELEMENT protocol ANY>]>'
                           + root + b"<join/>",
        "dtd_inside_stream": root + b"<!DOCTYPE join><join/>",
        "billion_laughs": LAUGHS + root + b'<join gameType="&l9;"/>',
        "billion_laughs_in_stream": root + LAUGHS + b'<join gameType="&l9;"/>',
        "external_entity_file": b'<!DOCTYPE p [<!ENTITY x SYSTEM "' + fifo + b'">]>' + root
                                + b'<authenticate password="&x;"/>',
        "external_entity_passwd": root + b'<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                  + b'<authenticate password="&x;"/>',
        "external_entity_http": b'<!DOCTYPE p [<!ENTITY x SYSTEM "' + http + b'/x">]>' + root
                                + b"<join>&x;</join>",
        "parameter_entity": b'<!DOCTYPE p [<!ENTITY % pe SYSTEM "' + http + b'/dtd"> %pe;]>'
                            + root + b"<join/>",
        "undeclared_entity": root + b'<authenticate password="&x;"/>',
        "pi_after_root": root + b'<?xml-stylesheet href="' + http + b'/s"?><join/>',
        "pi_inside_message": root + b"<join><?php system('x') ?></join>",
        "xinclude": root + b'<room roomId="r" xmlns:xi="http://www.w3.org/2001/XInclude">'
                    b'<data class="sc.plugin2027.SkipMove"><xi:include href="' + fifo
                    + b'" parse="text"/></data></room>',
        "nesting_17_deep": root + b'<room roomId="r">' + b"<a>" * 16 + b"</a>" * 16 + b"</room>",
        "nesting_100k_deep": root + b"<a>" * 100_000,
        "huge_attribute": root + b'<join gameType="' + b"A" * (300 * 1024) + b'"/>',
        "huge_text": root + b'<room roomId="r"><data class="x">' + b"A" * (300 * 1024),
        "cdata_outside_message": root + b"<![CDATA[<join/>]]>",
        "cdata_unterminated": root + b"<join><![CDATA[" + b"]" * (300 * 1024),
        "cdata_split_terminator": root + b'<room roomId="r"><data class="sc.plugin2027.SkipMove">'
                                  b"<color><![CDATA[RED]]]]><![CDATA[></protocol><!DOCTYPE x>]]>"
                                  b"</color></data></room>",
        "comment_unterminated": root + b"<join><!--" + b"-" * (300 * 1024),
    }


async def attack(port: int, payload: bytes) -> bytes:
    """Send `payload` in 64 KiB pieces; everything the server answers until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = bytearray()
    try:
        async with asyncio.timeout(WAIT):
            for start in range(0, len(payload), 65536):
                writer.write(payload[start : start + 65536])
                try:
                    await writer.drain()
                except ConnectionError:
                    break
            while chunk := await reader.read(65536):
                received += chunk
    except ConnectionError:
        pass
    finally:
        writer.close()
    return bytes(received)


async def test_hostile_xml_is_refused_and_another_match_finishes(
        wires: Tripwires, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[bytes] = []

    def spy(data: bytes) -> object:
        parsed.append(data)
        return parse_message(data)

    monkeypatch.setattr(sc_connection, "parse_message", spy)
    await wires.start_http()
    config = ServerConfig(tcp_port=0, admin_password="pw", seed=3, data_dir=tmp_path)
    async with GauntletServer(config) as srv:
        port = srv.tcp_port
        match = asyncio.gather(
            play_async(bundled.RandomBot(1), "127.0.0.1", port, idle_timeout=60),
            play_async(bundled.RandomBot(2), "127.0.0.1", port, idle_timeout=60))
        answers = {name: await attack(port, data) for name, data in payloads(wires).items()}
        async with asyncio.timeout(120):
            one, two = await match
    assert one.regular and two.regular and one.winner == two.winner
    dropped = {name: answer for name, answer in answers.items() if answer != b""}
    assert dropped == {}, "the official server drops garbage without a word"
    assert not wires.fifo_opened.is_set(), "an external entity was opened"
    assert wires.http_hits == 0, "an external entity was fetched"
    leaked = [d for d in parsed if b"<!" in d and b"<![CDATA[" not in d]
    assert leaked == [], "a declaration reached lxml"
    assert all(CANARY not in answer for answer in answers.values())


@pytest.mark.parametrize("body", [
    b'<!DOCTYPE p [<!ENTITY x SYSTEM "{fifo}">]><authenticate password="&x;"/>',
    b'<!DOCTYPE p [<!ENTITY x SYSTEM "{fifo}">]><join>&x;</join>',
    b'<!DOCTYPE p [<!ENTITY x SYSTEM "{http}/x">]><join>&x;</join>',
    LAUGHS + b"<join>&l9;</join>",
    b'<join xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="{fifo}"/></join>',
])
async def test_the_parser_alone_expands_and_fetches_nothing(wires: Tripwires, body: bytes) -> None:
    """The second lock: lxml's own settings, should a declaration ever pass the splitter."""
    await wires.start_http()
    body = body.replace(b"{fifo}", f"file://{wires.fifo}".encode()).replace(
        b"{http}", f"http://127.0.0.1:{wires.http_port}".encode())
    try:
        element = parse_message(body)
    except ProtocolError:
        element = None
    await asyncio.sleep(0.05)
    assert not wires.fifo_opened.is_set() and wires.http_hits == 0
    if element is not None:
        from lxml import etree

        text = etree.tostring(element)
        assert CANARY not in text and len(text) < 1000, text[:200]


def test_the_parser_alone_never_loads_an_external_parameter_entity(tmp_path: Path) -> None:
    evil = tmp_path / "evil.dtd"
    evil.write_bytes(b'<!ENTITY leak "' + CANARY + b'">')
    body = (b'<!DOCTYPE p [<!ENTITY % pe SYSTEM "file://' + str(evil).encode()
            + b'"> %pe;]><join gameType="&leak;"/>')
    try:
        element = parse_message(body)
    except ProtocolError:
        return
    assert CANARY.decode() not in (element.get("gameType") or "")
