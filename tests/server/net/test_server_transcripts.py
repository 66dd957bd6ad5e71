"""Golden transcripts over real sockets: the bytes the server writes, room ids normalised.

The golden files under `golden/` were checked line by line against the reference
(`sc-protocol-and-blokus-rules.md` §2, §3): element and attribute order, self-closing
`<joined/>`/`<left/>`, escaping, texts. Regenerate with GAUNTLET_REGEN_GOLDEN=1 and review
the diff.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from games import blokus
from protocols.base import StreamEnd
from protocols.sc import messages as m
from server.config import ServerConfig
from server.runtime import GauntletServer
from tests.server.sc_client import ScClient, no_errors_logged, normalise  # noqa: F401

GOLDEN = Path(__file__).parent / "golden"
PASSWORD = "test-password"

# Reference §4, enum order: every colour starts with all 21 shapes.
SHAPES = (
    "MONO", "DOMINO", "TRIO_L", "TRIO_I", "TETRO_O", "TETRO_T", "TETRO_I", "TETRO_L",
    "TETRO_Z", "PENTO_L", "PENTO_T", "PENTO_V", "PENTO_S", "PENTO_Z", "PENTO_I", "PENTO_P",
    "PENTO_W", "PENTO_U", "PENTO_R", "PENTO_X", "PENTO_Y",
)

pytestmark = pytest.mark.usefixtures("no_errors_logged")


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.xml"
    if os.environ.get("GAUNTLET_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def config(**overrides: object) -> ServerConfig:
    return ServerConfig(tcp_port=0, admin_password=PASSWORD, **overrides)  # type: ignore[arg-type]


async def opened(port: int) -> tuple[ScClient, ScClient, str]:
    """Two clients joined one room; A holds the first moveRequest, B its first memento."""
    a = await ScClient.connect(port)
    await a.send(m.Join())
    room_id = (await a.recv_until(m.Joined)).room_id
    b = await ScClient.connect(port)
    await b.send(m.Join())
    await a.recv_until(m.MoveRequest)
    await b.recv_until(m.Memento)
    return a, b, room_id


def first_move(client: ScClient) -> blokus.SetMove:
    memento = next(e for e in client.received if isinstance(e, m.Memento))
    return next(mv for mv in memento.state.legal_moves() if isinstance(mv, blokus.SetMove))


async def test_opening_messages() -> None:
    async with GauntletServer(config()) as srv:
        a, b, _ = await opened(srv.tcp_port)
        text_a, text_b = normalise(bytes(a.raw)), normalise(bytes(b.raw))
        check_golden("opening_team_one", text_a)
        check_golden("opening_team_two", text_b)
        # Independent of the golden files: the reference's structure of §2.2 and §2.5.
        assert text_a.startswith('<protocol>\n  <joined roomId="R"/>\n  <room roomId="R">\n'
                                 '    <data class="welcomeMessage" color="ONE"/>\n  </room>')
        assert '<state class="state" startTeam="ONE" turn="0" startPiece="P" round="1">' in text_a
        assert "<board/>" in text_a and "<lastMoveMono/>" in text_a
        shapes = "".join(f"\n          <shape>{s}</shape>" for s in SHAPES)
        assert f"<blueShapes>{shapes}\n        </blueShapes>" in text_a
        assert text_a.endswith('<room roomId="R">\n    <data class="moveRequest"/>\n  </room>')
        assert "moveRequest" not in text_b and 'color="TWO"' in text_b
        await a.close()
        await b.close()


async def test_rule_violation() -> None:
    async with GauntletServer(config()) as srv:
        admin = await ScClient.connect(srv.tcp_port)
        a = await ScClient.connect(srv.tcp_port)
        await a.send(m.Join())
        room_id = (await a.recv_until(m.Joined)).room_id
        await admin.send(m.Authenticate(PASSWORD), m.Observe(room_id))
        await admin.recv_until(m.Observed)
        b = await ScClient.connect(srv.tcp_port)
        await b.send(m.Join())
        await a.recv_until(m.MoveRequest)
        await b.recv_until(m.Memento)
        joined = await admin.recv_until(m.JoinedGameRoom)
        assert (joined.room_id, joined.player_count) == (room_id, 2)
        await admin.recv_until(m.Memento)
        mark_a, mark_b, mark_admin = len(a.raw), len(b.raw), len(admin.raw)
        await a.send(m.RoomPacket(room_id, blokus.SkipMove("BLUE")))
        for client in (a, b, admin):
            await client.recv_until(m.Left)
        check_golden("rule_violation_offender", normalise(bytes(a.raw[mark_a:])))
        check_golden("rule_violation_opponent", normalise(bytes(b.raw[mark_b:])))
        observed = normalise(bytes(admin.raw[mark_admin:]))
        # Observers get the error and the result too, never a welcome or a moveRequest.
        assert observed == normalise(bytes(a.raw[mark_a:]))
        assert "welcomeMessage" not in normalise(bytes(admin.raw))
        assert "moveRequest" not in normalise(bytes(admin.raw))
        for client in (a, b, admin):
            await client.close()


async def test_move_out_of_turn() -> None:
    async with GauntletServer(config()) as srv:
        a, b, room_id = await opened(srv.tcp_port)
        mark_a, mark_b = len(a.raw), len(b.raw)
        await b.send(m.RoomPacket(room_id, blokus.SkipMove("YELLOW")))
        await a.recv_until(m.Left)
        await b.recv_until(m.Left)
        check_golden("out_of_turn_offender", normalise(bytes(b.raw[mark_b:])))
        check_golden("out_of_turn_opponent", normalise(bytes(a.raw[mark_a:])))


async def test_garbage_closes_the_connection_and_ends_the_match() -> None:
    async with GauntletServer(config()) as srv:
        a, b, _ = await opened(srv.tcp_port)
        mark_a, mark_b = len(a.raw), len(b.raw)
        await b.send_raw(b"<room roomId='x'><data class='sc.plugin2027.SetMove'><<<>")
        await b.read_to_eof()
        await a.recv_until(m.Left)
        # No errorpacket, no goodbye for garbage: the server drops the connection.
        assert bytes(b.raw[mark_b:]) == b""
        check_golden("garbage_opponent", normalise(bytes(a.raw[mark_a:])))


async def test_bad_enum_is_a_protocol_error() -> None:
    async with GauntletServer(config()) as srv:
        a, b, room_id = await opened(srv.tcp_port)
        await a.send_raw(
            f'<room roomId="{room_id}"><data class="sc.plugin2027.SkipMove">'
            "<color>PURPLE</color></data></room>".encode())
        await a.read_to_eof()
        result = await b.recv_until(m.Result)
        assert result.winner is not None and result.winner.team == "TWO"
        assert result.winner.reason == "ONE hat das Spiel verlassen: PROTOCOL_ERROR"


async def test_disconnect_mid_game() -> None:
    async with GauntletServer(config()) as srv:
        a, b, _ = await opened(srv.tcp_port)
        mark_a = len(a.raw)
        b.writer.transport.abort()
        await a.recv_until(m.Left)
        check_golden("disconnect_opponent", normalise(bytes(a.raw[mark_a:])))


async def test_end_of_document_mid_game_is_lost_connection() -> None:
    async with GauntletServer(config()) as srv:
        a, b, _ = await opened(srv.tcp_port)
        mark_b = len(b.raw)
        await b.send_raw(b.conn.close())  # </protocol> without <close/>
        await b.read_to_eof()
        # We stop on our own initiative, as XStreamClient.stop does: <close/>, </protocol>.
        assert normalise(bytes(b.raw[mark_b:])) == "\n  <close/>\n</protocol>"
        result = await a.recv_until(m.Result)
        assert result.winner is not None
        assert result.winner.reason == "TWO hat das Spiel verlassen: LOST_CONNECTION"


async def test_close_mid_game_is_received_disconnect() -> None:
    async with GauntletServer(config()) as srv:
        a, b, _ = await opened(srv.tcp_port)
        mark_b = len(b.raw)
        await b.send(m.Close())
        await b.read_to_eof()
        assert normalise(bytes(b.raw[mark_b:])) == "\n</protocol>"
        result = await a.recv_until(m.Result)
        assert result.winner is not None
        assert result.winner.reason == "TWO hat das Spiel verlassen: RECEIVED_DISCONNECT"
        assert result.winner.team == "ONE" and not result.winner.regular
        await a.recv_until(m.Left)


async def test_soft_timeout() -> None:
    async with GauntletServer(config(soft_timeout=0.05, hard_timeout=30.0)) as srv:
        a, b, room_id = await opened(srv.tcp_port)
        mark_a, mark_b = len(a.raw), len(b.raw)
        await asyncio.sleep(0.3)  # well over the 50 ms soft clock
        await a.send(m.RoomPacket(room_id, first_move(a)))
        await a.recv_until(m.Left)
        await b.recv_until(m.Left)
        check_golden("soft_timeout", normalise(bytes(a.raw[mark_a:])))
        # The late move was discarded: no memento, no error, the same bytes for both.
        assert normalise(bytes(b.raw[mark_b:])) == normalise(bytes(a.raw[mark_a:]))


async def test_hard_timeout_then_late_move_gets_errorpacket() -> None:
    async with GauntletServer(config(soft_timeout=0.05, hard_timeout=0.3)) as srv:
        a, b, room_id = await opened(srv.tcp_port)
        mark_a = len(a.raw)
        await a.recv_until(m.Left)
        await b.recv_until(m.Left)
        await a.send(m.RoomPacket(room_id, blokus.SkipMove("BLUE")))
        await a.recv_until(m.ErrorPacket)
        check_golden("hard_timeout", normalise(bytes(a.raw[mark_a:])))


async def test_no_timeout_flag_waits() -> None:
    async with GauntletServer(config(soft_timeout=0.01, hard_timeout=0.05,
                                     no_timeout=True)) as srv:
        a, b, room_id = await opened(srv.tcp_port)
        await asyncio.sleep(0.2)  # past both clocks: they are off
        await a.send(m.RoomPacket(room_id, first_move(a)))
        memento = await b.recv_until(m.Memento)  # b's first memento was consumed in opened()
        memento = await b.recv_until(m.Memento) if memento.state.turn == 0 else memento
        assert memento.state.turn == 1


async def test_lobby_errors_keep_the_connection_open() -> None:
    async with GauntletServer(config()) as srv:
        admin = await ScClient.connect(srv.tcp_port)
        await admin.send(m.Authenticate(PASSWORD),
                         m.Prepare(slots=(m.Slot("Alice"), m.Slot("Bob"))))
        prepared = await admin.recv_until(m.Prepared)
        c = await ScClient.connect(srv.tcp_port)
        mark = len(c.raw)
        requests: list[object] = [
            m.JoinRoom("no-such-room"),
            m.JoinPrepared("no-such-reservation"),
            m.JoinRoom(prepared.room_id),  # both slots reserved: full
            m.RoomPacket("no-such-room", blokus.SkipMove("BLUE")),
            m.Observe(prepared.room_id),
            m.Pause(prepared.room_id, True),
            m.Step(prepared.room_id, False),
            m.Cancel(prepared.room_id),
            m.Prepare(),
            m.Authenticate("wrong password"),
        ]
        for request in requests:
            await c.send(request)
            await c.recv_until(m.ErrorPacket)
        text = normalise(bytes(c.raw[mark:])).replace(prepared.room_id, "R")
        check_golden("lobby_errors", text)
        # Still connected and usable: a non-move packet in its own room, then a real game.
        await c.send(m.JoinPrepared(prepared.reservations[0]))
        await c.recv_until(m.Joined)
        await c.send_raw(f'<room roomId="{prepared.room_id}"><data class="moveRequest"/></room>'
                         .encode())
        error = await c.recv_until(m.ErrorPacket)
        assert error.message == ("sc.api.plugins.exceptions.GameRoomException: Received non-move "
                                 f"packet: RoomPacket(roomId={prepared.room_id}, data=moveRequest)")
        d = await ScClient.connect(srv.tcp_port)
        await d.send(m.JoinPrepared(prepared.reservations[1]))
        await c.recv_until(m.MoveRequest)
        await c.close()
        await d.close()
        await admin.close()


async def test_unknown_first_bytes_close_cleanly() -> None:
    async with GauntletServer(config()) as srv:
        c = await ScClient.connect(srv.tcp_port)
        # Whitespace, then not `<`: neither XML nor a Kettle length (any other first byte
        # would be Kettle's, which answers an implausible length with a nack).
        await c.send_raw(b"\r\nHELO x\r\n")
        assert await c.read_to_eof() == b""


async def test_unknown_game_type_drops_the_connection() -> None:
    async with GauntletServer(config()) as srv:
        c = await ScClient.connect(srv.tcp_port)
        await c.send(m.Join("no_such_game"))
        await c.read_to_eof()
        assert b"joined" not in c.raw
        assert srv.rooms == {}


@pytest.mark.parametrize("chunk", [1, 7])
async def test_messages_split_across_reads(chunk: int) -> None:
    async with GauntletServer(config()) as srv:
        c = await ScClient.connect(srv.tcp_port)
        data = b'<protocol>\n<join gameType="swc_2027_blokus"/>'
        for i in range(0, len(data), chunk):
            await c.send_raw(data[i:i + chunk])
        joined = await c.recv_until(m.Joined)
        assert joined.room_id in srv.rooms
        await c.close()


async def test_whole_game_and_replay(tmp_path: Path) -> None:
    from protocols.sc import NEED_DATA, ClientConnection
    from tests.server.sc_client import play_random

    cfg = config(save_replays=True, replay_dir=tmp_path)
    async with GauntletServer(cfg) as srv:
        (result_a, a), (result_b, _) = await asyncio.gather(
            play_random(srv.tcp_port, 1), play_random(srv.tcp_port, 2))
        assert result_a == result_b
        assert result_a.winner is not None and result_a.winner.regular
        assert srv.rooms == {}
    assert len(srv.replays) == 1  # written after the result; the server's close waits for it
    data = srv.replays[0].read_bytes()
    assert srv.replays[0].name.startswith("replay_swc_2027_blokus_")
    assert data.startswith(b'<protocol>\n<room roomId="') and data.endswith(b"</room>\n</protocol>")
    reader = ClientConnection()
    reader.receive_data(data)
    recorded = []
    while (event := reader.next_event()) is not NEED_DATA:
        recorded.append(event)
    assert isinstance(recorded[-1], StreamEnd)
    messages = [e for e in recorded if isinstance(e, m.Memento | m.Result | m.RoomError)]
    # The replay holds exactly what the players were sent: every memento, then the result.
    played = [e for e in a.received if isinstance(e, m.Memento | m.Result | m.RoomError)]
    assert messages == played
    assert not any(isinstance(e, m.Welcome | m.MoveRequest | m.Left) for e in recorded)
