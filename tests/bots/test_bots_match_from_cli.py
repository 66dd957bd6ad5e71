"""`gauntlet match create ... --from ID --turn N [--swap]` and `--from-replay FILE --turn
N` (issue #29) against a real server: the match records where it came from; a bad
position is one `error:` line, exit code 1, nothing created."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.bots.server_thread import TOKEN, Served, served_server
from tests.bots.test_bots_match_cli import gauntlet, wait_status

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    yield from served_server(tmp_path)


def _create(served: Served, *args: str) -> dict:
    code, out, err = gauntlet("match", "create", *args, "--api", served.api, "--json")
    assert code == 0, err
    created: dict = json.loads(out)
    return created


def _total(served: Served) -> int:
    total: int = httpx.get(f"{served.api}/api/matches", headers=AUTH, timeout=10).json()["total"]
    return total


def test_create_from_a_stored_match_and_from_a_replay_file(served: Served,
                                                           tmp_path: Path) -> None:
    original = _create(served, "blokus", "bot:greedy", "bot:random", "--seed", "3")
    done = wait_status(served.api, original["id"], {"finished"})
    created = _create(served, "blokus", "alice", "bob", "--from", original["id"][:8],
                      "--turn", "6", "--swap")
    assert [s["name"] for s in created["seats"]] == ["bob", "alice"]
    shown = httpx.get(f"{served.api}/api/matches/{created['id']}", headers=AUTH,
                      timeout=10).json()
    assert shown["options"]["from"] == {"match": original["id"], "turn": 6, "rng": "same"}
    code, _, err = gauntlet("match", "cancel", created["id"], "--api", served.api)
    assert code == 0, err

    replay = tmp_path / "replay.xml"
    code, _, err = gauntlet("match", "replay", original["id"], "-o", str(replay),
                            "--api", served.api)
    assert code == 0, err
    packed = tmp_path / "replay.xml.gz"
    packed.write_bytes(gzip.compress(replay.read_bytes()))
    for path in (replay, packed):
        again = _create(served, "blokus", "bot:greedy", "bot:random", "--from-replay",
                        str(path), "--turn", "20")
        ended = wait_status(served.api, again["id"], {"finished"})
        assert ended["options"]["from"]["turn"] == 20
        assert ended["result"] is not None and done["result"] is not None


def test_bad_positions_are_one_error_line(served: Served, tmp_path: Path) -> None:
    junk = tmp_path / "junk.xml"
    junk.write_text("<html><body>no replay</body></html>")
    before = _total(served)
    for args, start in (
        (["--from", "0" * 36, "--turn", "2"], "error: from.match: no match"),
        (["--from-replay", str(junk), "--turn", "2"], "error: from.replay: not a "
                                                      "Software-Challenge replay"),
    ):
        code, _out, err = gauntlet("match", "create", "blokus", "a", "b", *args,
                                  "--api", served.api)
        assert code == 1 and err.startswith(start) and err.count("\n") == 1, err
    code, _, err = gauntlet("match", "create", "blokus", "a", "b", "--turn", "3",
                            "--api", served.api)
    assert code == 2 and "--turn goes with --from" in err
    assert _total(served) == before
