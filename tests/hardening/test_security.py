"""Security checks as tests: secrets (128 bits or more, from `secrets`, compared in
constant time, stored 0600, never logged), a connection acts only for its own seat,
admin actions need authentication over TCP and HTTP, launched bots are limited.
"""

from __future__ import annotations

import asyncio
import logging
import re
import stat
import uuid
from pathlib import Path

import httpx
import pytest

import server.rooms.lobby as lobby_module
from server.api.auth import resolve_admin_token
from server.config import Limits, ServerConfig, find_admin_password
from server.launcher import BotSpec, default_limits, launch
from server.rooms import SlotRequest
from server.runtime import GauntletServer

ROOT = Path(__file__).parents[2]
TWO_RESERVED = [SlotRequest("a", True, True), SlotRequest("b", True, True)]


async def test_reservation_codes_are_128_bits_from_secrets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                           data_dir=tmp_path)) as srv:
        codes = [c for _ in range(50) for c in srv.lobby.prepare(None, TWO_RESERVED, True)[1]]
        assert len(set(codes)) == len(codes)
        assert all(uuid.UUID(code).int.bit_length() > 100 for code in codes)
        drawn: list[int] = []

        def token_bytes(n: int) -> bytes:
            drawn.append(n)
            return bytes(range(n))

        monkeypatch.setattr(lobby_module.secrets, "token_bytes", token_bytes)
        _, fixed = srv.lobby.prepare(None, TWO_RESERVED, True)
        assert drawn == [16, 16] and fixed[0] == str(uuid.UUID(bytes=bytes(range(16))))


def test_generated_passwords_and_tokens_are_long_and_from_secrets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    sizes: list[int] = []
    real = secrets.token_urlsafe

    def spy(n: int) -> str:
        sizes.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "token_urlsafe", spy)
    find_admin_password(None, tmp_path, create=True)
    resolve_admin_token(None, tmp_path)
    assert len(sizes) == 2 and all(n * 8 >= 128 for n in sizes)


def test_secrets_are_compared_in_constant_time() -> None:
    """No `==`/`!=` between a secret-looking name and anything (hmac/secrets.compare_digest
    instead; dict lookups by reservation code hash with a random key)."""
    secret = r"\w*(?:password|token|reservation|secret)\w*"
    pattern = re.compile(rf"(?:\b{secret}(?:\.\w+)*\s*[!=]=|[!=]=\s*(?:self\.)?{secret}\b)")
    found = []
    sources = sorted((ROOT / "server").rglob("*.py")) + sorted((ROOT / "protocols").rglob("*.py"))
    for path in sources:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if pattern.search(code) and "status_code" not in code and "is None" not in code:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


async def test_generated_secrets_are_0600_and_never_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("GAUNTLET_ADMIN_PASSWORD", raising=False)
    caplog.set_level(logging.DEBUG)
    config = ServerConfig(tcp_port=0, data_dir=tmp_path)
    async with GauntletServer(config, http_port=0) as srv:
        assert srv.admin_token
    password = (tmp_path / "admin-password").read_text().strip()
    token = (tmp_path / "admin-token").read_text().strip()
    for name in ("admin-password", "admin-token"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
    text = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert password and token
    assert password not in text and token not in text


async def test_a_connection_acts_only_for_its_own_seat(tmp_path: Path) -> None:
    async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                           data_dir=tmp_path)) as srv:
        room, _ = srv.lobby.prepare(None, TWO_RESERVED, True)
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        writer.write(b'<protocol><room roomId="' + room.id.encode()
                     + b'"><data class="sc.plugin2027.SkipMove"><color>BLUE</color></data></room>')
        received = b""
        async with asyncio.timeout(10):
            while b"</errorpacket>" not in received:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                received += chunk
        writer.close()
        assert b"errorpacket" in received and b"Not a player in room" in received, received


async def test_admin_actions_need_authentication(tmp_path: Path) -> None:
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path)
    async with GauntletServer(config, http_port=0, admin_token="t" * 32) as srv:
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
        writer.write(b'<protocol><prepare gameType="swc_2027_blokus">'
                     b'<slot displayName="a" canTimeout="true" reserved="true"/>'
                     b'<slot displayName="b" canTimeout="true" reserved="true"/></prepare>')
        received = b""
        async with asyncio.timeout(10):
            while b"errorpacket" not in received:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                received += chunk
        writer.close()
        assert b"errorpacket" in received and b"prepared" not in received
        assert srv.rooms == {}
        body = {"game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]}
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{srv.http_port}") as client:
            anonymous = await client.post("/api/matches", json=body)
            wrong = await client.post("/api/matches", json=body,
                                      headers={"authorization": "Bearer " + "x" * 32})
        assert anonymous.status_code == 401 and wrong.status_code == 401


async def test_launched_bots_are_limited_by_default(tmp_path: Path) -> None:
    limits = default_limits()
    assert limits.memory_bytes == 4096 << 20 and limits.cpu_seconds == 600
    spec = BotSpec("b", "swc_2027_blokus", ["true"])
    assert launch(spec, "127.0.0.1", 1).limits == limits
    # GAUNTLET_BOT_MEMORY_MB / GAUNTLET_BOT_CPU_SECONDS reach the launcher (None: off).
    config = ServerConfig(tcp_port=0, admin_password="pw", data_dir=tmp_path,
                          limits=Limits(bot_memory_mb=None, bot_cpu_seconds=30))
    try:
        async with GauntletServer(config):
            assert launch(spec, "127.0.0.1", 1).limits.memory_bytes is None
            assert launch(spec, "127.0.0.1", 1).limits.cpu_seconds == 30
    finally:
        async with GauntletServer(ServerConfig(tcp_port=0, admin_password="pw",
                                               data_dir=tmp_path)):
            pass
    assert default_limits() == limits
