"""A trained policy plays on the server (issue #28): `policy(observation, action_mask)`
registered as a bot of the API like any kit bot, run as a child process over the real
protocol, shown at every decision exactly the observation and the mask the environment
shows at the same position of the stored game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tests.server.api.conftest import AUTH, Running, running, wait_status

__all__ = ["running"]

# The policy a user would write: a seeded choice among the legal indices. It logs what it
# was shown (the test reads it back: a launched bot is another process).
POLICY = '''import numpy as np

_rng = np.random.default_rng(7)

def policy(observation, action_mask):
    action = int(_rng.choice(np.flatnonzero(action_mask)))
    with open({log!r}, "ab") as log:
        np.save(log, observation)
        np.save(log, action_mask)
        np.save(log, np.asarray(action))
    return action
'''


Shown = list[tuple[Any, Any, int]]


def _shown(log: Path) -> Shown:
    """(observation, mask, answer) of every decision the policy was asked, in order."""
    out = []
    with log.open("rb") as f:
        while f.peek(1):
            out.append((np.load(f), np.load(f), int(np.load(f))))
    return out


async def _register(running: Running, tmp_path: Path, game: str, name: str) -> Path:
    log = tmp_path / f"{name}.npy"
    (tmp_path / f"{name}.py").write_text(POLICY.format(log=str(log)), encoding="utf-8")
    made = await running.http.post("/api/bots", headers=AUTH, json={
        "name": name, "game": game, "bot": f"{name}.py:policy", "workdir": str(tmp_path)})
    assert made.status_code == 201, made.text
    return log


async def _play(running: Running, game: str, seats: list[str], seed: int
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play a match of `seats` (registered bots) to its end: the stored events, the match."""
    created = await running.http.post("/api/matches", headers=AUTH, json={
        "game": game, "seats": [{"bot": bot} for bot in seats], "seed": seed})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    done = await wait_status(running.http, match_id, {"finished"})
    assert all(seat["failure"] is None for seat in done["seats"]), done
    events = (await running.http.get(f"/api/matches/{match_id}/events",
                                     params={"limit": 10_000}, headers=AUTH)).text
    return [json.loads(line) for line in events.splitlines()], done


def _team_of(events: list[dict[str, Any]], seat: int) -> str:
    welcome = next(e for e in events if e["kind"] == "welcome" and e["payload"]["seat"] == seat)
    return "ONE" if 'color="ONE"' in welcome["payload"]["xml"][0] else "TWO"


async def test_blokus_policy_sees_what_the_environment_shows(running: Running,
                                                              tmp_path: Path) -> None:
    from games.blokus import rl_encoding as E
    from games.blokus.env import raw_env
    from server.games.blokus.record import rebuild

    seed = 5
    log = await _register(running, tmp_path, "blokus", "trained")
    events, done = await _play(running, "blokus", ["trained", "random"], seed)
    shown = _shown(log)
    trained = next(s for s in done["seats"] if s["name"] == "trained")
    agent = {"ONE": "team_1", "TWO": "team_2"}[_team_of(events, trained["index"])]
    env = raw_env()
    env.reset(seed=seed)
    state = None
    asked = 0
    for record in (e["payload"]["blokus"] for e in events if e["kind"] == "state"):
        before, state = state, rebuild(state, record)
        move = state.last_move
        if move is None or state is before:  # the first state, or one told again
            continue
        if env.agent_selection == agent:  # the policy's decision: what the env shows here
            seen_observation, seen_mask, answer = shown[asked]
            ours = env.observe(agent)
            assert np.array_equal(seen_observation, ours["observation"]), asked
            assert np.array_equal(seen_mask, ours["action_mask"]), asked
            assert answer == E.action_of(move)  # and the server played what it answered
            asked += 1
        env.step(E.action_of(move))
        assert env.state.turn == state.turn
    assert asked == len(shown) > 10
    assert env.state.is_over and state is not None and state.is_over
    points = [s["score_parts"][0] for s in sorted(done["seats"], key=lambda s: s["index"])]
    assert [env.state.team_points(t) for t in ("ONE", "TWO")] == points



async def test_hearth_policies_see_what_the_environment_shows(running: Running,
                                                               tmp_path: Path) -> None:
    """Two policies play each other on the server; the environment, reset with the match's
    seed and decks and stepped with their answers, shows each the same numbers at each of
    its decisions (the mulligan, every action, to the end)."""
    from games import hearth
    from games.hearth.rl_env import raw_env

    seed = 11
    logs = {name: await _register(running, tmp_path, "hearth", name) for name in ("p", "q")}
    events, done = await _play(running, "hearth", ["p", "q"], seed)
    result = next(e for e in events if e["kind"] == "result")["payload"]
    agents = {f"player_{side['player']}": side["name"]
              for side in result["spectate"]["state"]["players"]}
    shown = {agent: _shown(logs[name]) for agent, name in agents.items()}
    env = raw_env()
    env.reset(seed=seed, options={"decks": hearth.DEFAULT_DECKS})
    asked = dict.fromkeys(agents, 0)
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        agent = env.agent_selection
        observation, mask, answer = shown[agent][asked[agent]]
        ours = env.observe(agent)
        assert np.array_equal(observation, ours["observation"]), (agent, asked[agent])
        assert np.array_equal(mask, ours["action_mask"]), (agent, asked[agent])
        asked[agent] += 1
        env.step(answer)
    assert asked == {agent: len(seen) for agent, seen in shown.items()}
    assert min(asked.values()) > 5
    outcome = {seat["name"]: seat["outcome"] for seat in done["seats"]}
    reward = {"win": 1.0, "draw": 0.0, "loss": -1.0}
    assert {agent: env.rewards[agent] for agent in agents} == \
        {agent: reward[outcome[name]] for agent, name in agents.items()}
