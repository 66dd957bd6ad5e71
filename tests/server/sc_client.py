"""A test client for the SC protocol over real sockets, built on the sans-I/O codec.

It records every byte the server sent (`raw`) for golden transcripts.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from protocols.base import NEED_DATA, ConnectionClosed, StreamEnd
from protocols.sc import ClientConnection
from protocols.sc import messages as m

WAIT = 30.0  # upper bound for any network wait; tests never assert on elapsed time

_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normalise(data: bytes, start_piece: bool = True) -> str:
    """Room ids and reservations become R; the random start piece becomes P."""
    text = _UUID.sub(b"R", data).decode()
    if start_piece:
        text = re.sub(r'startPiece="[A-Z_]+"', 'startPiece="P"', text)
    return text


class ScClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.conn = ClientConnection()
        self.raw = bytearray()
        self.received: list[Any] = []
        self.eof = False

    @classmethod
    async def connect(cls, port: int) -> ScClient:
        async with asyncio.timeout(WAIT):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def send(self, *messages: Any) -> None:
        await self.send_raw(b"".join(self.conn.send(msg) for msg in messages))

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        async with asyncio.timeout(WAIT):
            await self.writer.drain()

    async def recv(self, timeout: float = WAIT) -> Any:
        """The next message (or StreamEnd / ConnectionClosed)."""
        async with asyncio.timeout(timeout):
            while True:
                event = self.conn.next_event()
                if event is not NEED_DATA:
                    self.received.append(event)
                    return event
                data = await self.reader.read(65536)
                self.raw += data
                if not data:
                    self.eof = True
                self.conn.receive_data(data)

    async def recv_until(self, kind: type, timeout: float = WAIT) -> Any:
        async with asyncio.timeout(timeout):
            while True:
                event = await self.recv()
                if isinstance(event, kind):
                    return event
                if isinstance(event, ConnectionClosed):
                    raise AssertionError(f"connection closed while waiting for {kind.__name__}")

    async def read_to_eof(self, timeout: float = WAIT) -> bytes:
        """Everything until the server closes the connection (raw bytes)."""
        async with asyncio.timeout(timeout):
            while not self.eof:
                data = await self.reader.read(65536)
                self.raw += data
                if not data:
                    self.eof = True
        return bytes(self.raw)

    async def close(self) -> None:
        if not self.writer.is_closing():
            try:
                self.writer.write(self.conn.send(m.Close()) + self.conn.close())
                self.writer.close()
                async with asyncio.timeout(5):
                    await self.writer.wait_closed()
            except (ConnectionError, OSError, TimeoutError):
                pass


async def play_random(port: int, seed: int, join: Any = None) -> tuple[m.Result, ScClient]:
    """Join (any room by default) and play random legal moves until the result."""
    rng = random.Random(seed)
    client = await ScClient.connect(port)
    await client.send(join or m.Join())
    state = None
    result: m.Result | None = None
    while True:
        event = await client.recv()
        if isinstance(event, m.Memento):
            state = event.state
        elif isinstance(event, m.MoveRequest):
            assert state is not None
            move = rng.choice(list(state.legal_moves()))
            await client.send(m.RoomPacket(event.room_id, move))
        elif isinstance(event, m.Result):
            result = event
        elif isinstance(event, m.Left):
            break
        elif isinstance(event, ConnectionClosed | StreamEnd | m.ErrorPacket):
            raise AssertionError(f"unexpected {event!r}")
    await client.close()
    assert result is not None
    return result, client


# The official Python client's message splitter (socha 5.1.0 network_socket.py), reused so
# that many light clients can share one process: no full memento parse, a local engine.
_SOCHA_SPLIT = re.compile(
    rb"<((room[\s\S]+?</room>)|(errorpacket[\s\S]+?</errorpacket>)|(prepared[\s\S]+?</prepared>)"
    rb"|(joined|left|join|observe|pause|step|cancel|creatGame|authenticate)[\s\S]*?/>)"
)
_DATA_CLASS = re.compile(rb'<data class="(\w+)"')
_START_PIECE = re.compile(rb'startPiece="(\w+)"')
_LAST_MOVE = re.compile(rb"<lastMove[\s\S]*?</lastMove>")


async def play_light(port: int, seed: int) -> dict[str, Any]:
    """A light random player: splits like socha, keeps its own engine state from lastMove."""
    from lxml import etree

    from games import blokus
    from protocols.sc.blokus import move_class_kind, move_from_element

    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    codec = ClientConnection()
    writer.write(codec.send(m.Join()))
    buffer = b""
    state = None
    outcome: dict[str, Any] = {}
    async with asyncio.timeout(WAIT * 4):
        while "left" not in outcome:
            data = await reader.read(65536)
            if not data:
                raise AssertionError("server closed the connection")
            buffer += data
            while (found := _SOCHA_SPLIT.search(buffer)) is not None:
                packet = found.group()
                buffer = buffer[found.end():]
                if packet.startswith(b"<left"):
                    outcome["left"] = True
                    continue
                data_class = _DATA_CLASS.search(packet)
                if data_class is None:
                    continue
                name = data_class.group(1)
                if name == b"memento":
                    if state is None:
                        state = blokus.new_game(start_piece=_START_PIECE.search(packet)[1].decode())
                    last = _LAST_MOVE.search(packet)
                    turn = int(re.search(rb'turn="(\d+)"', packet)[1])
                    if last is not None and state.turn < turn:
                        element = etree.fromstring(last.group())
                        kind = move_class_kind(element.get("class"))
                        state.apply(move_from_element(element, kind))
                elif name == b"moveRequest":
                    room_id = re.search(rb'roomId="([^"]+)"', packet)[1].decode()
                    outcome["room"] = room_id
                    move = rng.choice(list(state.legal_moves()))
                    writer.write(codec.send(m.RoomPacket(room_id, move)))
                elif name == b"result":
                    outcome["room"] = re.search(rb'roomId="([^"]+)"', packet)[1].decode()
                    outcome["regular"] = b'regular="true"' in packet
    writer.write(codec.send(m.Close()) + codec.close())
    writer.close()
    outcome["turn"] = state.turn if state is not None else None
    return outcome


@pytest.fixture
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test when anything (asyncio included) logged an error: the server swallows
    nothing silently, so an ERROR record means a bug."""
    caplog.set_level(logging.ERROR)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(r.getMessage() for r in errors)
