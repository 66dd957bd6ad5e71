"""`gauntlet bot GAME --policy module:function`: a trained policy over the real protocol,
and the errors of a policy that answers wrong (issue #28)."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import numpy as np
import pytest
from bots_testkit import WAIT, prepare, run_cli, running_server
from typer.testing import CliRunner

from bots.blokus.bundled import load_bot
from bots.hearth.bundled import load_bot as load_hearth_bot
from bots.policy import PolicyError
from games import blokus, hearth
from server.cli import app

LARGEST = textwrap.dedent("""
    import numpy as np

    def largest(observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])   # the highest legal index
""")


async def test_a_policy_plays_a_prepared_game_from_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "trained.py").write_text(LARGEST, encoding="utf-8")
    async with running_server(tmp_path) as server:
        port = str(server.tcp_port)
        prepared = await prepare(server.tcp_port, ("policy", "random"))
        games = [asyncio.create_task(run_cli(
            "bot", "blokus", "--policy", f"{tmp_path / 'trained.py'}:largest",
            "-h", "127.0.0.1", "-p", port, "-r", prepared.reservations[0])),
            asyncio.create_task(run_cli(
                "bot", "blokus-random", "-h", "127.0.0.1", "-p", port, "-r",
                prepared.reservations[1], "--seed", "3"))]
        async with asyncio.timeout(WAIT * 2):
            (code, _, err), (other, _, other_err) = await asyncio.gather(*games)
    assert code == 0, err
    assert other == 0, other_err
    assert "largest:" in err and "(we are ONE)" in err


@pytest.mark.parametrize(("args", "message"), [
    (["bot", "chess", "--policy", "m:f"], "NAME is the game: "),
    (["bot", "blokus", "--policy", "no_such_module_here:f"], "cannot import"),
    (["bot", "hearth", "--policy", "bots.policy:Policy_missing"], "neither"),
])
def test_policy_flag_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def _bot(answer: object) -> object:
    def policy(observation: object, action_mask: object) -> object:
        return answer
    return policy


@pytest.mark.parametrize(("answer", "says"), [
    (-1, "outside the action space"),
    ("skip", "not an action index"),
    (True, "not an action index"),
    (0, "which the mask forbids"),   # index 0 (MONO at 0,0) is not legal at the start
])
def test_a_wrong_answer_is_named(answer: object, says: str) -> None:
    bot = load_bot("tests.bots.test_bots_policy_cli:wrong")
    bot.policy = _bot(answer)  # type: ignore[attr-defined]
    with pytest.raises(PolicyError, match=says):
        bot.move(blokus.new_game("PENTO_X"))


def test_a_numpy_answer_is_taken_and_the_arrays_are_copies() -> None:
    def scribbler(observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        answer = np.array(np.flatnonzero(action_mask)[0])  # MaskablePPO gives a 0-d array
        action_mask[:] = 1  # a policy that writes on its input changes nothing of the bot's
        return answer

    bot = load_hearth_bot("tests.bots.test_bots_policy_cli:wrong")
    bot.policy = scribbler  # type: ignore[attr-defined]
    bot.on_start(1)
    g = hearth.new_game(seed=4)
    offered = max((a.cards for a in g.legal_actions(1)), key=len)
    assert bot.mulligan(g, offered) == []  # index 0 of the mulligan: keep everything

    def last_after_scribbling(observation: np.ndarray, action_mask: np.ndarray) -> int:
        action_mask[:] = 1
        return action_mask.shape[0] - 1  # legal in its own copy, not in the bot's mask

    bot.policy = last_after_scribbling  # type: ignore[attr-defined]
    with pytest.raises(PolicyError, match="which the mask forbids"):
        bot.mulligan(g, offered)


def wrong(observation: object, action_mask: object) -> int:  # a policy the tests replace
    return 0
