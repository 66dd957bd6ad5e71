"""Asking a bot again (issue #29): a fresh process of the bot that played a seat, fed what
that seat was sent, gives the stored answers; its bytes are the original seat's; a bot
that changed answers differently where it changed; bad requests are 422s naming the field.

The bots are the bundled greedy bots with a fixed `--seed` (deterministic for their seed
and what they are sent), as kit files that record every byte they receive
(tests/server/api/bots/ask_*.py)."""

from __future__ import annotations

import asyncio
import json
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

from server import positions
from server.ask import ask_stored
from server.launcher import BotSpec
from tests.server.api.conftest import AUTH, BOTS, REPO, Running, running, wait_settled

__all__ = ["running"]

SEED = 7  # the greedy bots' own seed, the same in the original seat and when asked again
GAMES = {"swc_2027_blokus": ("bots.blokus", "ask_blokus.py", "random", 0),
         "hearth": ("bots.hearth", "ask_hearth.py", "hearth-random", 0)}


def _command(game: str, name: str) -> list[str]:
    module, file, _opponent, _seat = GAMES[game]
    return [sys.executable, "-m", module, f"{BOTS / file}:{name}", "--seed", str(SEED)]


async def _register(running: Running, name: str, game: str, command: list[str],
                    env: dict[str, str] | None = None) -> None:
    response = await running.http.post("/api/bots", headers=AUTH, json={
        "name": name, "game": game, "command": command, "workdir": str(REPO),
        "env": env or {}})
    assert response.status_code == 201, response.text


async def _events(running: Running, match_id: str) -> list[dict[str, Any]]:
    got = await running.http.get(f"/api/matches/{match_id}/events",
                                 params={"limit": 10_000}, headers=AUTH)
    assert got.status_code == 200, got.text
    return [json.loads(line) for line in got.text.splitlines()]


def _seat_decisions(events: list[dict[str, Any]], seat: int) -> list[int]:
    decisions = [e["payload"]["seat"] for e in events if e["kind"] == "decision"]
    return [n for n, s in enumerate(decisions) if s == seat]


async def _played(running: Running, tmp_path: Path, game: str, match_seed: int,
                  bot: str = "RecordingGreedy") -> tuple[str, Path]:
    """A finished match: seat 0 the recording greedy bot (`bot`: its class), seat 1 the
    bundled random one; its id and the folder the greedy bot's received bytes are in."""
    record = tmp_path / "bytes"
    record.mkdir()
    await _register(running, "ask-greedy", game, _command(game, bot),
                    {"ASK_RECORD_DIR": str(record)})
    await _register(running, "ask-changed", game, _command(game, "ChangedGreedy"))
    opponent = GAMES[game][2]
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": game, "seed": match_seed,
        "seats": [{"bot": "ask-greedy"}, {"bot": opponent}]})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    done = await wait_settled(running.http, match_id)
    assert done["result"] is not None, done
    async with asyncio.timeout(30):  # the room's last entry is stored after its result
        while not any(e["kind"] == "closed" for e in await _events(running, match_id)):
            await asyncio.sleep(0.05)
    return match_id, record


def _lines(xml: bytes) -> bytes:
    """XML with each line's indentation cut (a player's packets are indented one level
    deeper than the replay's: they are inside its `<protocol>`)."""
    return b"\n".join(line.strip() for line in xml.splitlines())


async def _ask(running: Running, match_id: str, seat: int, body: dict[str, Any]
               ) -> dict[str, Any]:
    response = await running.http.post(f"/api/matches/{match_id}/seats/{seat}/ask",
                                       headers=AUTH, json=body)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.mark.parametrize(("game", "bot"), [
    ("swc_2027_blokus", "RecordingGreedy"), ("hearth", "RecordingGreedy"),
    # The opponent's mulligan first: the asked bot is sent its news as the original was,
    # although the scripted opponent answers at once.
    ("hearth", "WaitingGreedy")])
async def test_greedy_asked_again_gives_the_stored_answers_and_gets_the_same_bytes(
        running: Running, tmp_path: Path, game: str, bot: str) -> None:
    match_id, record = await _played(running, tmp_path, game, 11, bot)
    [original] = list(record.iterdir())
    original_bytes = original.read_bytes()
    events = await _events(running, match_id)
    mine = _seat_decisions(events, 0)
    assert len(mine) > 5
    if bot == "WaitingGreedy":
        answered = [e["payload"]["answer"]["seat"] for e in events
                    if e["kind"] == "state" and (e["payload"] or {}).get("answer")]
        assert answered[:2] == [1, 0], answered
    # Over the API: the first, a middle and the last of the seat's decisions.
    for turn in (mine[0], mine[len(mine) // 2]):
        answer = await _ask(running, match_id, 0, {"turn": turn, "bot": "ask-greedy"})
        assert answer["same"] is True, answer
        assert answer["answer"] == answer["stored"] is not None
        assert answer["turn"] == turn and answer["think_ms"] >= 0 and answer["legal"]
        assert answer["failure"] is None
    # At the last decision, every answer of the seat on the way is kept: each is what an
    # ask at that decision gives (the bot was sent the same up to it), and all are stored.
    match = running.store.get_match(match_id)
    assert match is not None
    plugin = running.server.games.get(game)
    again_dir = tmp_path / "again"
    again_dir.mkdir()
    spec = BotSpec("ask-greedy", game, _command(game, bot), cwd=REPO,
                   env={"ASK_RECORD_DIR": str(again_dir)},
                   protocol="sc" if plugin.speaks("sc") else "kettle")
    asked = await ask_stored(plugin, match_id, seed=match.seed, options=match.options,
                             events=running.store.events_since(match_id), seat=0, turn=None,
                             spec=spec, clocks=running.server.lobby.clocks)
    assert asked.failure is None
    assert [s.decision for s in asked.said] == mine
    assert [s.answer for s in asked.said] == [s.stored for s in asked.said]
    assert all(s.stored is not None for s in asked.said)
    # The bytes: the asked bot's are the original seat's, up to the last decision's request
    # (then the ask ends the match; the original went on to its result).
    [again] = list(again_dir.iterdir())
    asked_bytes = again.read_bytes()
    common = 0
    while common < min(len(asked_bytes), len(original_bytes)) \
            and asked_bytes[common] == original_bytes[common]:
        common += 1
    if game == "swc_2027_blokus":
        request = b"moveRequest"
        last_request = asked_bytes.rfind(request)
        assert asked_bytes.count(request) == len(mine)
        # Everything up to and with the last decision's request is the original seat's.
        assert last_request + len(request) <= common, (
            asked_bytes[common - 200:common + 200], original_bytes[common - 200:common + 200])
    else:
        # Kettle: every frame up to and with the last decision's request is the original
        # seat's (a seat's first snapshot is the game before its start, so the history is
        # cut into the same blocks however fast the bots started).
        ends = _kettle_request_ends(asked_bytes)
        assert len(ends) == len(mine)
        assert ends[-1] <= common, (asked_bytes[common - 200:common + 200],
                                    original_bytes[common - 200:common + 200])


def _kettle_request_ends(data: bytes) -> list[int]:
    """Where each decision request (entity choices, options) a Kettle client received ends
    in its bytes."""
    ends = []
    at = 0
    while at + 4 <= len(data):
        size = struct.unpack(">I", data[at:at + 4])[0]
        kind = json.loads(data[at + 4:at + 4 + size])["type"].removeprefix("kettle:types/")
        at += 4 + size
        if kind in ("options", "entity_choices"):
            ends.append(at)
    return ends


async def test_the_stored_sc_packets_are_what_the_asked_bot_was_sent(
        running: Running, tmp_path: Path) -> None:
    """Blokus: every memento of the stored replay (server.games.blokus.replay) up to the
    asked decision is in the asked bot's bytes, in order."""
    from server.games.blokus.replay import stored_packets

    match_id, record = await _played(running, tmp_path, "swc_2027_blokus", 12)
    [original] = list(record.iterdir())
    events = await _events(running, match_id)
    turn = _seat_decisions(events, 0)[4]
    answer = await _ask(running, match_id, 0, {"turn": turn, "bot": "ask-greedy"})
    assert answer["same"], answer
    [again] = [p for p in record.iterdir() if p != original]
    received = _lines(again.read_bytes())
    asked_seq = [e["seq"] for e in events if e["kind"] == "decision"][turn]
    before = [e for e in running.store.events_since(match_id) if e.seq < asked_seq]
    packets = [_lines(p.encode()) for p in stored_packets(match_id, before)]
    assert len(packets) > 4
    at = 0
    for packet in packets:  # each is a packet the seat got (indented there), in order
        found = received.find(packet, at)
        assert found >= 0, packet[:200]
        at = found + 1


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_changed_bot_answers_differently_where_it_changed(
        running: Running, tmp_path: Path, game: str) -> None:
    match_id, _record = await _played(running, tmp_path, game, 13)
    mine = _seat_decisions(await _events(running, match_id), 0)
    changed_at = mine[3]  # CHANGED_AT in the bot files: the seat's decision 3
    before = await _ask(running, match_id, 0, {"turn": mine[2], "bot": "ask-changed"})
    assert before["same"] is True, before
    at = await _ask(running, match_id, 0, {"turn": changed_at, "bot": "ask-changed"})
    assert at["same"] is False and at["answer"] != at["stored"], at
    assert at["legal"] is True


async def test_what_cannot_be_asked_is_a_422_naming_the_field(
        running: Running, tmp_path: Path) -> None:
    match_id, _record = await _played(running, tmp_path, "swc_2027_blokus", 14)
    events = await _events(running, match_id)
    decisions = [e for e in events if e["kind"] == "decision"]
    theirs = _seat_decisions(events, 1)[0]
    cases = [
        (0, {"turn": len(decisions), "bot": "ask-greedy"}, "turn:"),
        (0, {"turn": theirs, "bot": "ask-greedy"}, "turn:"),
        (0, {"turn": 0, "bot": "no-such-bot"}, "bot:"),
        (0, {"turn": 0, "bot": "hearth-greedy"}, "bot:"),
        (5, {"turn": 0, "bot": "ask-greedy"}, "seat:"),
    ]
    for seat, body, field in cases:
        response = await running.http.post(f"/api/matches/{match_id}/seats/{seat}/ask",
                                           headers=AUTH, json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["detail"].startswith(field), response.text
    unknown = await running.http.post("/api/matches/nope/seats/0/ask", headers=AUTH,
                                      json={"turn": 0, "bot": "ask-greedy"})
    assert unknown.status_code == 404
    anonymous = await running.http.post(f"/api/matches/{match_id}/seats/0/ask",
                                        json={"turn": 0, "bot": "ask-greedy"})
    assert anonymous.status_code == 401
    # Nothing was stored: still the one match, its events unchanged.
    assert [m["id"] for m in (await running.http.get("/api/matches")).json()["items"]] \
        == [match_id]
    assert await _events(running, match_id) == events


async def test_a_hearth_match_with_its_own_decks_is_asked_again_with_them(
        running: Running, tmp_path: Path) -> None:
    """The decks a match was created with are kept in its options (`decks`): the game is
    dealt again with them, so greedy gives its stored answers."""
    await _register(running, "ask-greedy", "hearth", _command("hearth", "RecordingGreedy"))
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": "hearth", "seed": 15, "seats": [{"bot": "ask-greedy", "deck": "warrior"},
                                                {"bot": "hearth-random", "deck": "priest"}]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    done = await wait_settled(running.http, match_id)
    assert done["options"]["decks"] == {"0": "warrior", "1": "priest"}
    mine = _seat_decisions(await _events(running, match_id), 0)
    answer = await _ask(running, match_id, 0, {"turn": mine[-1], "bot": "ask-greedy"})
    assert answer["same"] is True, answer


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_match_from_a_position_of_a_match_from_a_position_is_asked_again(
        running: Running, tmp_path: Path, game: str) -> None:
    """A match that started from a stored position (itself from one): asked again, greedy
    gives its stored answers there too, and the bytes are the original seat's; the chain's
    positions rebuild from the match each came from."""
    first, _record = await _played(running, tmp_path, game, 16)
    opponent = GAMES[game][2]
    parent = first
    for turn in (6, 5):  # a match from turn 6 of the first, then one from turn 5 of it
        again_dir = tmp_path / f"from-{turn}"
        again_dir.mkdir()
        await _register(running, f"ask-greedy-{turn}", game, _command(game, "RecordingGreedy"),
                        {"ASK_RECORD_DIR": str(again_dir)})
        created = await running.http.post("/api/matches", headers=AUTH, json={
            "game": game, "seats": [{"bot": f"ask-greedy-{turn}"}, {"bot": opponent}],
            "from": {"match": parent, "turn": turn}})
        assert created.status_code == 201, created.text
        parent = created.json()["id"]
        done = await wait_settled(running.http, parent)
        assert done["options"]["from"]["turn"] == turn
    [original] = list(again_dir.iterdir())
    mine = _seat_decisions(await _events(running, parent), 0)
    assert len(mine) > 3
    answer = await _ask(running, parent, 0, {"turn": mine[-1], "bot": "ask-greedy"})
    assert answer["same"] is True and answer["failure"] is None, answer
    # Every answer on the way, and the bytes up to the last request.
    match = running.store.get_match(parent)
    assert match is not None
    plugin = running.server.games.get(game)
    asked_dir = tmp_path / "asked"
    asked_dir.mkdir()
    spec = BotSpec("ask-greedy", game, _command(game, "RecordingGreedy"), cwd=REPO,
                   env={"ASK_RECORD_DIR": str(asked_dir)},
                   protocol="sc" if plugin.speaks("sc") else "kettle")
    asked = await ask_stored(plugin, parent, seed=match.seed, options=match.options,
                             events=running.store.events_since(parent), seat=0, turn=None,
                             spec=spec, clocks=running.server.lobby.clocks,
                             origin=positions.origin_of(
                                 positions.store_reader(running.store), plugin, match.options))
    assert asked.failure is None
    assert [s.answer for s in asked.said] == [s.stored for s in asked.said]
    [again] = list(asked_dir.iterdir())
    original_bytes, asked_bytes = original.read_bytes(), again.read_bytes()
    common = 0
    while common < min(len(asked_bytes), len(original_bytes)) \
            and asked_bytes[common] == original_bytes[common]:
        common += 1
    request = b"moveRequest" if game == "swc_2027_blokus" else None
    end = (asked_bytes.rfind(request) + len(request)) if request \
        else _kettle_request_ends(asked_bytes)[-1]
    assert end <= common, (asked_bytes[common - 200:common + 200],
                           original_bytes[common - 200:common + 200])
