"""A Kettle test client over real sockets, on the sans-I/O codec; records what it receives.

`transcript()` turns the recorded bytes back into one JSON object per frame (room ids and
reservations normalised to "GAME"), the form of the golden files.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, TypeVar

from protocols.base import NEED_DATA, ConnectionClosed
from protocols.kettle import (
    ClientConnection,
    ClientMessage,
    EntityChoices,
    Options,
    ServerMessage,
)

WAIT = 30.0  # upper bound for any network wait; tests never assert on elapsed time

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
T = TypeVar("T")


def frames(data: bytes) -> list[Any]:
    """The JSON body of every complete frame in `data`."""
    out, at = [], 0
    while at + 4 <= len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        out.append(json.loads(data[at + 4:at + 4 + size]))
        at += 4 + size
    return out


def normalise(text: str) -> str:
    return _UUID.sub("GAME", text)


class KettleClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.conn = ClientConnection()
        self.raw = bytearray()
        self.received: list[Any] = []
        self.closed = False

    @classmethod
    async def connect(cls, port: int) -> KettleClient:
        async with asyncio.timeout(WAIT):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def send(self, *messages: ClientMessage) -> None:
        await self.send_raw(b"".join(self.conn.send(m) for m in messages))

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        async with asyncio.timeout(WAIT):
            await self.writer.drain()

    async def recv(self, timeout: float = WAIT) -> ServerMessage | ConnectionClosed:
        async with asyncio.timeout(timeout):
            while True:
                event = self.conn.next_event()
                if event is not NEED_DATA:
                    if isinstance(event, ConnectionClosed):
                        self.closed = True
                    self.received.append(event)
                    return event  # type: ignore[return-value]
                data = await self.reader.read(65536)
                self.raw += data
                self.conn.receive_data(data)

    async def recv_until(self, kind: type[T], timeout: float = WAIT) -> T:
        while True:
            event = await self.recv(timeout)
            if isinstance(event, kind):
                return event
            if isinstance(event, ConnectionClosed):
                raise AssertionError(f"closed while waiting for {kind.__name__}")

    async def recv_decision(self) -> EntityChoices | Options | None:
        """The next decision, or None once the game is over (game_finished)."""
        from protocols.kettle import GameFinished

        while True:
            event = await self.recv()
            if isinstance(event, EntityChoices | Options):
                return event
            if isinstance(event, GameFinished | ConnectionClosed):
                return None

    async def read_to_eof(self) -> None:
        while not self.closed:
            await self.recv()

    def transcript(self) -> list[str]:
        return [normalise(json.dumps(body, separators=(",", ":"))) for body in frames(self.raw)]

    async def close(self) -> None:
        self.writer.close()
        try:
            async with asyncio.timeout(5):
                await self.writer.wait_closed()
        except (ConnectionError, TimeoutError):
            pass
